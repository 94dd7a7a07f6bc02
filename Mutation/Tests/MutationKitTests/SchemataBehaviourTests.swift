import Foundation
import Testing

@testable import MutationKit

/// Schemata compile, and behave as the original with no mutant active and as the mutant with one.
@Suite struct SchemataBehaviourTests {
    static let snippet = """
        func clamp(_ x: Int, low: Int, high: Int) -> Int {
            guard low <= high else { return x }
            if x < low { return -1 }
            return min(max(x, low), high)
        }

        struct Window {
            var limit: Int64 = 14_400
            func keeps(_ seconds: Int64, strict: Bool) -> Bool {
                if strict && seconds == limit { return false }
                return seconds <= limit && seconds >= 0
            }
        }

        """

    static let driver = """

        var lines: [String] = []
        for x in [-3, 0, 4, 9, 12] { for (low, high) in [(0, 9), (5, 2), (4, 4)] { lines.append("\\(clamp(x, low: low, high: high))") } }
        for seconds: Int64 in [-1, 0, 14_399, 14_400, 14_401] { for strict in [false, true] { lines.append("\\(Window().keeps(seconds, strict: strict))") } }
        print(lines.joined(separator: " "))

        """

    /// Builds `source` as an executable in `directory` and returns a function that runs it with a mutant active.
    private func build(_ source: String, named name: String, in directory: URL) throws -> (Int) throws -> String {
        let file = directory.appending(path: "\(name).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let binary = directory.appending(path: name).path
        let status = try run(["swiftc", "-Onone", "-o", binary, file.path], environment: [:]).status
        try #require(status == 0, "\(name).swift did not compile")
        return { id in try self.run([binary], environment: ["SIMHARNESS_MUTANT": "\(id)"]).output }
    }

    private func run(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func noActiveMutantIsTheOriginalAndEachMutantChangesOnlyItsPlace() throws {
        // Given the original snippet and its schemata, both built
        let directory = FileManager.default.temporaryDirectory.appending(path: "schemata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (schemata, mutants) = try Schemata.rewrite(
            Self.snippet, plan: CopyPlan(file: "Snippet.swift", types: ["clamp", "Window"]), firstID: 1, imports: ""
        )
        let original = try build(Self.snippet + Self.driver, named: "original", in: directory)
        let sut = try build(Schemata.switchSource + schemata + Self.driver, named: "schemata", in: directory)
        let expected = try original(0)

        // When it runs with no mutant, then with each mutant active
        let unmutated = try sut(0)
        let outputs = try mutants.map { try sut($0.id) }

        // Then no mutant is the original, and every mutant here changes some result
        #expect(unmutated == expected)
        #expect(mutants.count >= 15)
        #expect(Set(MutationKind.allCases).subtracting([.equality]).isSubset(of: Set(mutants.map(\.kind))))  // equality: the test below
        let unchanged = zip(mutants, outputs).filter { $0.1 == expected }.map(\.0.key)
        #expect(unchanged.isEmpty)
    }

    @Test func anEqualitySchemaIsTheSynthesizedEqualityUntilAMutantDropsAField() throws {
        // Given a struct with synthesized Equatable, and the same with its equality schema (an extension in the same file)
        let directory = FileManager.default.temporaryDirectory.appending(path: "schemata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let snippet = "struct Key: Hashable {\n    var kind: Int\n    var amount: Int\n    var currency: String\n}\n"
        let driver = """

            let base = Key(kind: 0, amount: 5, currency: "CHF")
            let others = [base, Key(kind: 1, amount: 5, currency: "CHF"), Key(kind: 0, amount: 6, currency: "CHF"), Key(kind: 0, amount: 5, currency: "EUR")]
            print(others.map { $0 == base ? "same" : "conflict" }.joined(separator: " "))

            """
        let (schemata, mutants) = try Schemata.rewrite(snippet, plan: CopyPlan(file: "Snippet.swift", equalities: ["Key"]), firstID: 1, imports: "")
        let original = try build(snippet + driver, named: "original", in: directory)
        let sut = try build(Schemata.switchSource + snippet + schemata + driver, named: "schemata", in: directory)

        // When it runs with no mutant, then with each mutant active
        let unmutated = try sut(0)
        let outputs = try mutants.map { try sut($0.id) }

        // Then no mutant is the original, and each mutant takes the retry differing in its field alone for the same key
        #expect(unmutated == (try original(0)))
        #expect(unmutated == "same conflict conflict conflict\n")
        #expect(outputs == ["same same conflict conflict\n", "same conflict same conflict\n", "same conflict conflict same\n"])
    }
}
