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
                    var statement = Substring(line)
                    for attribute in ["@_exported ", "@_spi(Tooling) "] where statement.hasPrefix(attribute) { statement = statement.dropFirst(attribute.count) }
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
        #expect(sut["RunEngine"]?.contains("Analysis") == false)
        #expect(sut["Analysis"]?.contains("RunEngine") == false)
        // And the scenario model knows no generator, the result types no engine nor generator
        #expect(sut["Scenarios"] == ["HealthCore", "PaymentsCore", "UserProfiles", "Yams"])
        #expect(sut["RunResults"]?.isDisjoint(with: ["RunEngine", "Generation", "Analysis"]) == true)
        // And the reports read the result types only
        #expect(sut["Reports"]?.isDisjoint(with: ["RunEngine", "Generation", "Scenarios"]) == true)
        #expect(sut["Reports"]?.contains("RunResults") == true)
    }

    /// The simulation half's rules, each as the modules a module must not import: the worlds know no engine of
    /// `run` nor load mode; load mode knows no `run` engine; the fixtures know neither mode's driver; the
    /// sans-I/O driver and the seeded worlds stay apart; the reference service knows no planted flaw (they are
    /// planted from outside it), and the catalogue of flaws knows no simulator.
    static let simulationRules: [(module: String, mustNotImport: Set<String>)] = [
        ("PaymentService", ["PlantedFlaws", "PaymentSimulation", "ServiceFixtures"]),
        ("PlantedFlaws", ["PaymentSimulation", "ServiceSimulation", "ServiceFixtures", "ServiceLoad"]),
        ("ServiceSimulation", ["RunEngine", "ServiceLoad", "PaymentSimulation", "Generation", "Scenarios", "RunResults"]),
        ("ServiceLoad", ["RunEngine", "PaymentSimulation", "ServiceFixtures"]),
        ("ServiceFixtures", ["RunEngine", "ServiceLoad", "BenchmarkWorkloads"]),
        ("PaymentSimulation", ["ServiceSimulation", "ServiceLoad", "RunEngine"]),
    ]

    /// The rules `graph` breaks, as "Module -> Import".
    static func simulationRulesBroken(_ graph: [String: Set<String>]) -> [String] {
        simulationRules.flatMap { rule in graph[rule.module, default: []].intersection(rule.mustNotImport).sorted().map { "\(rule.module) -> \($0)" } }
    }

    @Test("the simulation half: worlds, load mode, fixtures and the sans-I/O driver import only downward")
    func simulationRulesHold() throws {
        // Given the imports of the sources
        let sut = try Self.actualImports()
        // Then no rule of the simulation half is broken
        #expect(Self.simulationRulesBroken(sut) == [])
    }

    @Test("the simulation rules find load mode importing run's engine, and the worlds importing load mode")
    func simulationRulesBite() {
        // Given a graph where ServiceLoad imports RunEngine and ServiceSimulation imports ServiceLoad
        let sut: [String: Set<String>] = ["ServiceLoad": ["ServiceSimulation", "RunEngine"], "ServiceSimulation": ["PaymentsCore", "ServiceLoad"]]
        // Then both are found
        #expect(Self.simulationRulesBroken(sut) == ["ServiceSimulation -> ServiceLoad", "ServiceLoad -> RunEngine"])
    }

    /// The graph `Package.swift` declares.
    static func declaredGraph() throws -> DeclaredGraph {
        DeclaredGraph(manifest: try String(contentsOf: repository.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    /// What `run`'s in-memory engine must not link: the SQLite library and zstd (the file formats' own).
    static let databaseAndZstd: Set<String> = ["GRDB", "GRDBSQLite", "CZstd"]

    @Test("run's engine (RunEngine) links neither GRDB nor zstd, transitively")
    func harnessLinksNoFileFormats() throws {
        // Given the target graph of Package.swift
        let sut = try Self.declaredGraph()
        // When RunEngine's transitive dependencies are taken
        let reached = sut.closure(of: "RunEngine")
        // Then they hold the generator but none of the file formats' libraries
        #expect(reached.contains("Generation"))
        #expect(reached.isDisjoint(with: Self.databaseAndZstd))
    }

    @Test(
        "the link check finds GRDB or zstd planted under RunEngine",
        arguments: [
            #".target(name: "RunEngine", dependencies: ["Generation"]), .target(name: "Generation", dependencies: ["Datasets"]), .target(name: "Datasets", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),"#,
            #".target(name: "RunEngine", dependencies: [.target(name: "Parquet", condition: .when(platforms: [.linux]))]), .target(name: "Parquet", dependencies: ["CZlib", "CZstd"]),"#,
        ]
    )
    func linkCheckFindsPlanted(manifest: String) {
        // Given a graph where RunEngine reaches GRDB or zstd through other targets
        let sut = DeclaredGraph(manifest: manifest)
        // When RunEngine's transitive dependencies are taken
        let reached = sut.closure(of: "RunEngine")
        // Then the check sees the planted library
        #expect(!reached.isDisjoint(with: Self.databaseAndZstd))
    }

    /// The test targets that may depend on each top module: the one that tests it. (CLITests and RunEngineTests run
    /// the built `simharness`, a process of its own, and depend on the executable, not on the module.)
    static let topModules: [String: Set<String>] = ["SimHarnessKit": ["SimHarnessKitTests"], "BenchmarkWorkloads": ["BenchmarkWorkloadsTests"]]

    /// The test targets of `graph` that depend on a top module without testing it, as "Tests -> Module".
    static func testsReachingUp(_ graph: DeclaredGraph) -> [String] {
        graph.testOnly.sorted().flatMap { test in
            topModules.sorted { $0.key < $1.key }.compactMap { module, testers in
                graph.dependencies[test, default: []].contains(module) && !testers.contains(test) ? "\(test) -> \(module)" : nil
            }
        }
    }

    @Test("no test target depends on SimHarnessKit or BenchmarkWorkloads unless it tests it")
    func testsDoNotReachUp() throws {
        // Given the declared graph
        let sut = try Self.declaredGraph()
        // Then only each top module's own tests depend on it (the fixtures have a module of their own)
        #expect(Self.testsReachingUp(sut) == [])
    }

    @Test("the check finds a low-level test target that depends on SimHarnessKit")
    func reachingUpIsFound() {
        // Given a manifest whose service-simulation tests depend on SimHarnessKit and BenchmarkWorkloads
        let sut = DeclaredGraph(manifest: #"""
            .target(name: "SimHarnessKit"), .target(name: "BenchmarkWorkloads"),
            .testTarget(name: "ServiceSimulationTests", dependencies: ["SimHarnessKit", "BenchmarkWorkloads"]),
            .testTarget(name: "SimHarnessKitTests", dependencies: ["SimHarnessKit"]),
            """#)
        // Then both dependencies are found, and the kit's own tests are not
        #expect(Self.testsReachingUp(sut) == ["ServiceSimulationTests -> BenchmarkWorkloads", "ServiceSimulationTests -> SimHarnessKit"])
    }

    @Test("the design document lists exactly Package.swift's modules, each with its declared dependencies as imports")
    func designMatchesManifest() throws {
        // Given the declared graph and the design document's table
        let declared = try Self.declaredGraph()
        let documented = try Self.documentedImports()
        // When the modules of the sources are taken
        let modules = declared.modules(plugins: ["BuildCommit"])
        // Then the table lists those modules
        #expect(Set(documented.keys) == modules)
        // And each module's listed imports are dependencies it declares (C targets link what they do not import)
        for module in modules.sorted() {
            let undeclared = documented[module, default: []].subtracting(declared.dependencies[module] ?? [])
            #expect(undeclared.isEmpty, "\(module) imports \(undeclared.sorted()) without declaring them")
        }
    }

    @Test("the manifest check finds a module the table lists but Package.swift lacks, and an undeclared import")
    func manifestCheckFindsPlanted() {
        // Given a manifest of two targets, and a table that adds a third module and an import
        let sut = DeclaredGraph(manifest: #".target(name: "A", dependencies: ["B"]), .target(name: "B"), .testTarget(name: "ATests", dependencies: ["A"]),"#)
        let planted: [String: Set<String>] = ["A": ["B", "C"], "B": [], "C": []]
        // Then the modules differ and A's import C is undeclared
        #expect(sut.modules(plugins: []) == ["A", "B"])
        #expect(Set(planted.keys) != sut.modules(plugins: []))
        #expect(planted["A", default: []].subtracting(sut.dependencies["A"] ?? []) == ["C"])
    }
}
