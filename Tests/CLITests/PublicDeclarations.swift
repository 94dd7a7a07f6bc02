import Foundation

/// The count `scripts/public-api.sh` makes: per module under `Sources/`, the lines that declare something
/// `public` or `open` without `@_spi`, and the ceilings docs/versioning.md records for them.
enum PublicDeclarations {
    /// `public` or `open` after any attributes at the start of a line, as the script's `grep -E` pattern.
    nonisolated(unsafe) static let declaration = #/^\s*(@\w+(\(.*\))?\s+)*(public|open)\s/#

    /// The lines of `text` that declare something public outside an SPI.
    static func count(in text: String) -> Int {
        text.split(separator: "\n", omittingEmptySubsequences: false).count { line in
            line.firstMatch(of: declaration) != nil && !line.contains("@_spi")
        }
    }

    /// Each module under `sources` (a folder per module) with the public declarations of its `.swift` files.
    static func perModule(sources: URL) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            let folder = sources.appendingPathComponent(module)
            var total = 0
            let files = FileManager.default.enumerator(atPath: folder.path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                total += count(in: try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
            }
            counts[module] = total
        }
        return counts
    }

    /// The table of `markdown` between the `public-api` markers: `| `Module` | ceiling | … |`.
    static func ceilings(markdown: String) -> [String: Int] {
        guard let start = markdown.range(of: "<!-- public-api -->"), let end = markdown.range(of: "<!-- /public-api -->") else { return [:] }
        var table: [String: Int] = [:]
        for line in markdown[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, cells[0].hasPrefix("`"), let ceiling = Int(cells[1]) else { continue }
            table[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = ceiling
        }
        return table
    }

    /// The modules `import SimHarnessKit` reaches: SimHarnessKit and those its sources `@_exported import`.
    static func reexported(sources: URL) throws -> Set<String> {
        let folder = sources.appendingPathComponent("SimHarnessKit")
        var modules: Set<String> = ["SimHarnessKit"]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: #/(?m)^@_exported import (\w+)$/#) { modules.insert(String(match.output.1)) }
        }
        return modules
    }

    /// What `import SimHarnessKit` reaches: the public declarations of `modules` together.
    static func reachable(counts: [String: Int], modules: Set<String>) -> Int {
        modules.reduce(0) { $0 + counts[$1, default: 0] }
    }

    /// One message per module whose count is over its ceiling (a module the table leaves out has ceiling 0).
    static func overruns(counts: [String: Int], ceilings: [String: Int]) -> [String] {
        counts.keys.sorted().compactMap { module in
            let count = counts[module]!, ceiling = ceilings[module] ?? 0
            return count > ceiling ? "\(module): \(count) public declarations, over its ceiling of \(ceiling) in docs/versioning.md" : nil
        }
    }
}
