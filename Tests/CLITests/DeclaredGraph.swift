/// The target graph a `Package.swift` declares, read from its text: each target (regular,
/// executable, test, system library, plugin) with the targets and products it depends on, by name.
/// Conditional dependencies count (a trait or a platform may turn them on).
struct DeclaredGraph: Equatable {
    /// Each target's dependencies, in declaration order.
    var dependencies: [String: [String]]
    /// The test targets and the targets whose sources live under `Tests/` (`path:`).
    var testOnly: Set<String>

    /// The graph of the manifest `text`.
    init(manifest text: String) {
        dependencies = [:]
        testOnly = []
        let kinds = [".target(", ".executableTarget(", ".testTarget(", ".systemLibrary(", ".plugin("]
        var rest = Substring(text)
        while let start = kinds.compactMap({ rest.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let kind = rest[start]
            let body = Self.balanced(rest[start.upperBound...], open: "(", close: ")")
            rest = rest[body.endIndex...]
            // A `.target(name:condition:)` inside a dependency list was consumed with its target.
            guard let name = Self.string(after: "name:", in: body) else { continue }
            var list: [String] = []
            if let deps = body.range(of: "dependencies:") {
                let open = body[deps.upperBound...].firstIndex(of: "[")!
                list = Self.elements(Self.balanced(body[body.index(after: open)...], open: "[", close: "]")).compactMap { element in
                    element.hasPrefix("\"") ? Self.string(after: "", in: element) : Self.string(after: "name:", in: element)
                }
            }
            dependencies[name] = list
            if kind.hasPrefix(".testTarget") || body.contains("path: \"Tests/") { testOnly.insert(name) }
        }
    }

    /// Every target and product `target` reaches through its dependencies, itself left out.
    func closure(of target: String) -> Set<String> {
        var reached: Set<String> = []
        var next = dependencies[target] ?? []
        while let name = next.popLast() {
            guard reached.insert(name).inserted else { continue }
            next += dependencies[name] ?? []
        }
        return reached
    }

    /// The modules of the sources: every target but the test-only ones and the plugins.
    func modules(plugins: Set<String>) -> Set<String> {
        Set(dependencies.keys).subtracting(testOnly).subtracting(plugins)
    }

    /// The text after `open` up to its matching `close` (exclusive), or to the end.
    private static func balanced(_ text: Substring, open: Character, close: Character) -> Substring {
        var depth = 1
        var inString = false
        for index in text.indices {
            let c = text[index]
            if c == "\"" { inString.toggle() }
            guard !inString else { continue }
            if c == open { depth += 1 }
            if c == close {
                depth -= 1
                if depth == 0 { return text[..<index] }
            }
        }
        return text
    }

    /// The comma-separated elements of a list's text, commas inside brackets and parentheses kept.
    private static func elements(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var start = text.startIndex
        for index in text.indices {
            switch text[index] {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "," where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        parts.append(text[start...])
        return parts.map { $0.drop(while: \.isWhitespace) }.filter { !$0.isEmpty }
    }

    /// The first string literal after `label` in `text`.
    private static func string(after label: String, in text: Substring) -> String? {
        guard let at = label.isEmpty ? text.startIndex..<text.startIndex : text.range(of: label),
              let open = text[at.upperBound...].firstIndex(of: "\"") else { return nil }
        let from = text.index(after: open)
        guard let end = text[from...].firstIndex(of: "\"") else { return nil }
        return String(text[from..<end])
    }
}
