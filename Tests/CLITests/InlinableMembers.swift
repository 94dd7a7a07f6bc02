import Foundation

/// Finds the `@inlinable` members that Swift 6.3 never inlines into another module: those of a `package`
/// type that is not `@usableFromInline`. The compiler accepts them (and does not even check that their
/// bodies use only `@usableFromInline` declarations), then calls them out of line from every other
/// module; marking the type `@usableFromInline` makes it check the bodies and inline them.
enum InlinableMembers {
    /// A type or extension opening at the start of a line: its attributes and access, and its name.
    nonisolated(unsafe) static let scope = #/^\s*((?:@\w+(?:\([^)]*\))?\s+)*)(?:(public|package|internal|private|fileprivate)\s+)?(?:final\s+)?(struct|enum|class|actor|extension)\s+([\w.]+)/#

    /// Where a scope opens: its indentation, its name, and whether it is a package type not `@usableFromInline`.
    struct Scope {
        var indentation: Int
        var name: String
        var hidden: Bool
    }

    /// The package types of a module's files that are not `@usableFromInline`, by name.
    static func hiddenTypes(in texts: [String]) -> Set<String> {
        var names: Set<String> = []
        for text in texts {
            for line in text.split(separator: "\n") {
                guard let match = line.firstMatch(of: scope), match.output.2 == "package", match.output.3 != "extension",
                      !match.output.1.contains("@usableFromInline") else { continue }
                names.insert(String(match.output.4))
            }
        }
        return names
    }

    /// `file:line: message` for each `@inlinable` line of `text` inside a type (or an extension of one) named in `hidden`.
    static func neverInlined(in text: String, file: String, hidden: Set<String>) -> [String] {
        var open: [Scope] = []
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indentation = line.prefix { $0 == " " }.count
            // A line no deeper than a scope's opening line is outside it (its closing brace included).
            if !line.allSatisfy(\.isWhitespace) { open.removeAll { $0.indentation >= indentation } }
            if line.contains("@inlinable"), let type = open.last(where: \.hidden) {
                found.append("\(file):\(number + 1): @inlinable in \(type.name), a package type that is not @usableFromInline: never inlined into another module")
            }
            if let match = line.firstMatch(of: scope) {
                let name = String(match.output.4.split(separator: ".").last!)
                open.append(Scope(indentation: indentation, name: name, hidden: hidden.contains(name)))
            }
        }
        return found
    }

    /// Every such member under `sources` (a folder per module).
    static func neverInlined(sources: URL) throws -> [String] {
        var found: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let folder = sources.appendingPathComponent(module)
            var files: [(String, String)] = []
            let walk = FileManager.default.enumerator(atPath: folder.path)
            while let file = walk?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                files.append((module + "/" + file, try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)))
            }
            let hidden = hiddenTypes(in: files.map(\.1))
            for (file, text) in files.sorted(by: { $0.0 < $1.0 }) { found += neverInlined(in: text, file: file, hidden: hidden) }
        }
        return found
    }
}
