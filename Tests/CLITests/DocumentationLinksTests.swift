import Foundation
import Testing

/// The documents point at files that exist in this repository: a link to a file that is gone, or
/// outside the repository, fails here instead of in a reader's hands.
@Suite("Documentation links")
struct DocumentationLinksTests {
    /// The documents and sources to check, relative to the repository.
    static func documents() throws -> [String] {
        var paths = ["README.md", "Scenarios/README.md", "Benchmarks/Comparison/README.md", "scripts/perf-gate.sh"]
        for folder in ["docs", "Sources"] {
            let files = FileManager.default.enumerator(atPath: repository.appendingPathComponent(folder).path)
            while let file = files?.nextObject() as? String {
                if file.hasSuffix(".md") || file.hasSuffix(".swift") { paths.append(folder + "/" + file) }
            }
        }
        return paths
    }

    /// Relative markdown link targets, and backticked repository paths (`docs/…`, `Scenarios/…`,
    /// `scripts/…`, `Sources/…`, `Tests/…`, `Benchmarks/…`) without placeholders.
    static func references(in text: String) -> [String] {
        var found: [String] = []
        let patterns = [#"\]\(([^)#\s]+)(#[^)]*)?\)"#, #"`((?:\.\./|docs/|Scenarios/|scripts/|Sources/|Tests/|Benchmarks/)[^`\s]*)`"#]
        for pattern in patterns {
            let regex = try! NSRegularExpression(pattern: pattern)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let target = String(text[Range(match.range(at: 1), in: text)!])
                if target.hasPrefix("http") || target.contains("<") || target.contains("*") || target.contains("NAME") { continue }
                found.append(target)
            }
        }
        return found
    }

    @Test("every relative link and repository path in the documents and doc comments exists, inside the repository")
    func linksResolve() throws {
        // Given every document and source file
        var missing: [String] = []
        for document in try Self.documents() {
            let text = try String(contentsOf: repository.appendingPathComponent(document), encoding: .utf8)
            let base = document.contains("/") && document.hasSuffix(".md") ? (document as NSString).deletingLastPathComponent : ""
            // When each reference is resolved (links relative to their document, paths to the repository)
            for target in Self.references(in: text) {
                let relative = target.hasPrefix("../") || base.isEmpty ? target : base + "/" + target
                let candidates = [relative, target].map { repository.appendingPathComponent($0).standardizedFileURL.path }
                let inside = candidates.contains { $0.hasPrefix(repository.standardizedFileURL.path + "/") && FileManager.default.fileExists(atPath: $0) }
                if !inside { missing.append("\(document): \(target)") }
            }
        }
        // Then none is missing
        #expect(missing == [])
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
}
