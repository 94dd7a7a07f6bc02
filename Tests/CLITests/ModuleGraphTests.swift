import Foundation
import Testing

/// `docs/design.md` lists every module and what it imports; these tests keep that table true and
/// hold the rules the design stands on.
@Suite("The module graph as docs/design.md draws it")
struct ModuleGraphTests {
    /// Modules of the platform, not of the design.
    static let system: Set<String> = ["Glibc", "Darwin", "Foundation", "Synchronization", "Dispatch"]

    /// What each target under `Sources/` imports, system modules left out.
    static func actualImports() throws -> [String: Set<String>] {
        let sources = repository.appendingPathComponent("Sources")
        var graph: [String: Set<String>] = [:]
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path) {
            var imports: Set<String> = []
            let files = FileManager.default.enumerator(atPath: sources.appendingPathComponent(module).path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: sources.appendingPathComponent(module).appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let statement = line.hasPrefix("@_exported ") ? line.dropFirst("@_exported ".count) : line
                    guard statement.hasPrefix("import ") else { continue }
                    imports.insert(String(statement.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces))
                }
            }
            graph[module] = imports.subtracting(system)
        }
        return graph
    }

    /// The table of `docs/design.md` between the `module-graph` markers: `| Module | Imports, comma separated | … |`.
    static func documentedImports() throws -> [String: Set<String>] {
        let design = try String(contentsOf: repository.appendingPathComponent("docs/design.md"), encoding: .utf8)
        let start = try #require(design.range(of: "<!-- module-graph -->"))
        let end = try #require(design.range(of: "<!-- /module-graph -->"))
        var graph: [String: Set<String>] = [:]
        for line in design[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3, cells[1].hasPrefix("`") else { continue }
            let imports = cells[2].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            graph[cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = Set(imports.filter { !$0.isEmpty && $0 != "—" })
        }
        return graph
    }

    @Test("the design document's table lists every module with exactly the modules it imports")
    func designMatchesSources() throws {
        // Given the imports of the sources and the table of the design document
        let actual = try Self.actualImports()
        // When they are compared
        let documented = try Self.documentedImports()
        // Then they are the same graph
        #expect(documented == actual)
    }

    @Test("the algorithms depend on nothing; the engines do not reach into each other; reports read results only")
    func rules() throws {
        // Given the imports of the sources
        let sut = try Self.actualImports()
        // Then the pure cores import nothing of the project or beyond
        #expect(sut["HealthCore"] == [])
        #expect(sut["PaymentsCore"] == [])
        // And the per-user kernel knows only the algorithms
        #expect(sut["SpecKernel"] == ["HealthCore", "PaymentsCore", "UserAlgorithms"])
        #expect(sut["UserAlgorithms"] == ["HealthCore", "PaymentsCore"])
        // And neither engine imports the other
        #expect(sut["Harness"]?.contains("Analysis") == false)
        #expect(sut["Analysis"]?.contains("Harness") == false)
        // And the scenario model knows no generator, the result types no engine nor generator
        #expect(sut["Scenarios"] == ["HealthCore", "PaymentsCore", "Yams"])
        #expect(sut["RunResults"]?.isDisjoint(with: ["Harness", "Simulation", "Analysis"]) == true)
        // And the reports read the result types only
        #expect(sut["Reports"]?.isDisjoint(with: ["Harness", "Simulation", "Scenarios"]) == true)
        #expect(sut["Reports"]?.contains("RunResults") == true)
    }
}
