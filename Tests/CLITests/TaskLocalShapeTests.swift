import Foundation
import Testing

/// Swift 6.3.1's optimizer miscompiles a closure-typed `@TaskLocal` (optional or not): `withValue` crashes
/// in `swift_task_localValuePush` in every `-O` build (swiftlang/swift PR 88321, fixed after 6.3.1). A
/// closure in a task-local value is held in a struct instead; these tests hold that rule over `Sources/`.
@Suite("Task-local values hold no bare closure")
struct TaskLocalShapeTests {
    /// The `@TaskLocal` declarations of a source text whose type or initial value is a closure.
    static func closureTaskLocals(in text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            guard let attribute = line.range(of: "@TaskLocal") else { return nil }
            let declaration = line[attribute.upperBound...]
            guard let name = declaration.range(of: "var ") else { return nil }
            let rest = declaration[name.upperBound...]
            let type = rest.split(separator: "=", maxSplits: 1).first.map { $0.drop { $0 != ":" } } ?? ""
            let value = rest.split(separator: "=", maxSplits: 1).dropFirst().first?.trimmingCharacters(in: .whitespaces) ?? ""
            return type.contains("->") || value.hasPrefix("{") ? line.trimmingCharacters(in: .whitespaces) : nil
        }
    }

    @Test("no @TaskLocal in Sources holds a closure type or a closure literal")
    func sourcesHoldNoClosureTaskLocal() throws {
        // Given every Swift file under Sources/
        let sources = repository.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        var found: [String] = []
        var taskLocals = 0
        // When each is scanned
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            taskLocals += text.components(separatedBy: "@TaskLocal static var").count - 1
            found += Self.closureTaskLocals(in: text).map { "\(file): \($0)" }
        }
        // Then task-local values exist and none is a bare closure
        #expect(taskLocals >= 4)
        #expect(found == [])
    }

    @Test("the scan catches a planted closure-typed task-local", arguments: [
        "@TaskLocal static var load: (@Sendable (Int) async throws -> Int)?",
        "    @TaskLocal static var output: @Sendable (String) -> Void = { print($0) }",
        "@TaskLocal static var sink = { (line: String) in print(line) }",
    ])
    func plantedClosureIsCaught(line: String) {
        // Given a source with a closure-typed task-local; When it is scanned; Then it is named
        #expect(Self.closureTaskLocals(in: "enum S {\n\(line)\n}") == [line.trimmingCharacters(in: .whitespaces)])
    }

    @Test("a boxed closure passes the scan")
    func boxedClosurePasses() {
        // Given a task-local of a struct that holds the closure; When it is scanned; Then nothing is named
        #expect(Self.closureTaskLocals(in: "@TaskLocal static var output = OutputSink { print($0) }\n@TaskLocal static var load: LoadRunner?") == [])
    }
}
