import Foundation
import Testing

/// The documents point at files that exist in this repository: a link to a file that is gone, or
/// outside the repository, fails here instead of in a reader's hands.
@Suite("Documentation links")
struct DocumentationLinksTests {
    /// The documents and sources to check, relative to the repository.
    static func documents() throws -> [String] {
        var paths = ["README.md", "CHANGELOG.md", "Scenarios/README.md", "Benchmarks/Comparison/README.md", "deploy/README.md", "scripts/perf-gate.sh"]
        for folder in ["docs", "Sources"] {
            let files = FileManager.default.enumerator(atPath: repository.appendingPathComponent(folder).path)
            while let file = files?.nextObject() as? String {
                if file.hasSuffix(".md") || file.hasSuffix(".swift") { paths.append(folder + "/" + file) }
            }
        }
        return paths
    }

    /// Relative markdown link targets: `[text](target)`.
    static let linkPattern = #"\]\(([^)#\s]+)(#[^)]*)?\)"#
    /// The folders a backticked repository path starts with.
    static let repositoryFolders = ["../", "docs/", "Scenarios/", "scripts/", "Sources/", "Tests/", "Benchmarks/"]
    /// Backticked repository paths (`docs/…`, `Scenarios/…`, `scripts/…`, `Sources/…`, `Tests/…`, `Benchmarks/…`).
    static let pathPattern = "`((?:" + repositoryFolders.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|") + #")[^`\s]*)`"#
    /// Backticked paths in a module's folder (`Export/ParquetExport.swift`, `RunEngine/Metrics/`): the first
    /// component is checked to be a module by `modulePaths(in:modules:)`.
    static let modulePathPattern = #"`([A-Za-z][A-Za-z0-9-]*/[^`\s]*)`"#

    /// The module folders under `Sources/`.
    static func modules(root: URL = repository) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path))
    }

    /// The backticked paths in `text` that start with one of `modules`, as paths from the repository
    /// (`Sources/` before them), placeholders and repository paths (`Scenarios/…` is the folder of scenario
    /// files, not the module) left out.
    static func modulePaths(in text: String, modules: Set<String>) -> [String] {
        matches(of: modulePathPattern, in: text).compactMap { path in
            let module = String(path.prefix { $0 != "/" })
            let repositoryPath = repositoryFolders.contains { path.hasPrefix($0) }
            return modules.contains(module) && !repositoryPath ? "Sources/" + path : nil
        }
    }

    /// The targets `pattern` finds in `text`, web links and placeholders left out.
    static func matches(of pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            let target = String(text[Range(match.range(at: 1), in: text)!])
            let placeholder = target.hasPrefix("http") || target.contains("<") || target.contains("*") || target.contains("NAME")
            return placeholder ? nil : target
        }
    }

    /// Relative markdown link targets, then backticked repository paths, without placeholders.
    static func references(in text: String) -> [String] {
        matches(of: linkPattern, in: text) + matches(of: pathPattern, in: text)
    }

    /// Whether `target`, referenced in `document` (a path relative to `root`), names a file inside
    /// `root`. A markdown document's link is relative to the document's folder, as a reader's browser
    /// takes it; a backticked path may also be relative to `root`.
    static func resolves(_ target: String, in document: String, isLink: Bool, root: URL = repository) -> Bool {
        let folder = document.hasSuffix(".md") ? (document as NSString).deletingLastPathComponent : ""
        let relative = folder.isEmpty ? target : folder + "/" + target
        let candidates = (isLink ? [relative] : [relative, target]).map { root.appendingPathComponent($0).standardizedFileURL.path }
        return candidates.contains { $0.hasPrefix(root.standardizedFileURL.path + "/") && FileManager.default.fileExists(atPath: $0) }
    }

    @Test("every relative link and repository path in the documents and doc comments exists, inside the repository")
    func linksResolve() throws {
        // Given every document and source file, and the module folders
        let modules = try Self.modules()
        var missing: [String] = []
        for document in try Self.documents() {
            let text = try String(contentsOf: repository.appendingPathComponent(document), encoding: .utf8)
            // When each reference is resolved (links relative to their document, paths to the repository)
            for target in Self.matches(of: Self.linkPattern, in: text) where !Self.resolves(target, in: document, isLink: true) {
                missing.append("\(document): \(target)")
            }
            for target in Self.matches(of: Self.pathPattern, in: text) where !Self.resolves(target, in: document, isLink: false) {
                missing.append("\(document): \(target)")
            }
            for target in Self.modulePaths(in: text, modules: modules) where !Self.resolves(target, in: document, isLink: false) {
                missing.append("\(document): \(target)")
            }
        }
        // Then none is missing
        #expect(missing == [])
    }

    @Test("a link resolves from its document's folder, a path also from the repository, neither outside it", arguments: [
        ("docs/design.md", "../Scenarios/README.md", true, true),
        ("docs/design.md", "SPEC.md", true, true),
        ("README.md", "docs/SPEC.md", true, true),
        ("docs/design.md", "scripts/perf-gate.sh", false, true),
        ("docs/design.md", "scripts/perf-gate.sh", true, false),
        ("docs/design.md", "../docs/missing.md", true, false),
        ("docs/design.md", "../../shared/SPEC.md", true, false),
        ("README.md", "../shared/SPEC.md", true, false),
    ])
    func resolution(document: String, target: String, isLink: Bool, exists: Bool) {
        // Given a document and a reference in it
        // When the reference is resolved
        let sut = Self.resolves(target, in: document, isLink: isLink)
        // Then it names a file inside the repository exactly when one is there
        #expect(sut == exists)
    }

    @Test("the checker finds a link to a missing file and one outside the repository")
    func checkerBites() {
        // Given a text with a link outside the repository and a path that does not exist
        let text = "See [the spec](../shared/SPEC.md) and `docs/harness.md`, and [ok](https://example.com)."
        // When its references are listed
        let sut = Self.references(in: text)
        // Then both bad ones are there, the web link is not
        #expect(sut == ["../shared/SPEC.md", "docs/harness.md"])
    }

    @Test("a path in a module's folder is checked from Sources/; other slashed words are not paths")
    func modulePathsBite() throws {
        // Given a text naming a moved file by its module's folder, a folder of a module, and a word with a slash
        let text = "See `Generation/ParquetExport.swift`, `RunEngine/Metrics/`, `Scenarios/load.yaml` and `CPU/wall`."
        // When its module paths are listed and resolved
        let sut = Self.modulePaths(in: text, modules: ["Generation", "RunEngine", "Scenarios"])
        // Then the module paths are read from Sources/ (the folder of scenario files is not the module), and only
        // the moved file is missing
        #expect(sut == ["Sources/Generation/ParquetExport.swift", "Sources/RunEngine/Metrics/"])
        #expect(sut.filter { !Self.resolves($0, in: "docs/performance.md", isLink: false) } == ["Sources/Generation/ParquetExport.swift"])
    }
}
