import Foundation
import Testing

/// `public` without SPI is SimHarnessKit's API and what it re-exports; docs/versioning.md records how many
/// such declarations each module has, and these tests keep every module at or under that ceiling.
@Suite("Public declarations per module, as docs/versioning.md records them")
struct PublicAPITests {
    @Test("no module has more public declarations than its ceiling in docs/versioning.md")
    func modulesStayUnderTheirCeilings() throws {
        // Given the ceilings of docs/versioning.md
        let versioning = try String(contentsOf: repository.appendingPathComponent("docs/versioning.md"), encoding: .utf8)
        let ceilings = PublicDeclarations.ceilings(markdown: versioning)
        #expect(!ceilings.isEmpty)
        // When the sources are counted
        let counts = try PublicDeclarations.perModule(sources: repository.appendingPathComponent("Sources"))
        // Then no module is over
        let sut = PublicDeclarations.overruns(counts: counts, ceilings: ceilings)
        #expect(sut.isEmpty, "\(sut.joined(separator: "\n"))")
    }

    @Test("import SimHarnessKit reaches at most 200 public declarations: what a user's code conforms to and passes")
    func reachableStaysSmall() throws {
        // Given the sources' counts and the modules SimHarnessKit re-exports
        let sources = repository.appendingPathComponent("Sources")
        let counts = try PublicDeclarations.perModule(sources: sources)
        let modules = try PublicDeclarations.reexported(sources: sources)
        #expect(modules == ["SimHarnessKit", "HealthCore", "PaymentsCore", "ServiceSimulation", "UserAlgorithms"])
        // When what an import reaches is added up
        let sut = PublicDeclarations.reachable(counts: counts, modules: modules)
        // Then it is within the ceiling docs/versioning.md states
        #expect(sut <= 200, "import SimHarnessKit reaches \(sut) public declarations")
    }

    @Test("a module re-exported on top of the others is counted in what the import reaches")
    func reachableCountsEveryReexport() {
        // Given counts where a tooling module would be re-exported beside the API modules
        let counts = ["SimHarnessKit": 4, "HealthCore": 46, "Datasets": 112, "Parquet": 70]
        // When the reach is added up with and without it
        let without = PublicDeclarations.reachable(counts: counts, modules: ["SimHarnessKit", "HealthCore"])
        let sut = PublicDeclarations.reachable(counts: counts, modules: ["SimHarnessKit", "HealthCore", "Datasets"])
        // Then the re-export puts it over the ceiling
        #expect(without == 50)
        #expect(sut == 162)
        #expect(PublicDeclarations.reachable(counts: counts, modules: ["SimHarnessKit", "HealthCore", "Datasets", "Parquet"]) > 200)
    }

    @Test("the counter counts public and open declarations, whatever their attributes, and nothing else")
    func countsPlantedDeclarations() {
        // Given a source text with three public declarations among others
        let text = """
            /// A public type, said in a comment.
            public struct Planted {
                @inlinable public func inlined() {}
                @available(*, deprecated) open class Old {}
                package func shared() {}
                @_spi(Tooling) public func tooling() {}
                @inlinable package func hot() {}
                let publicLooking = 1
                func internalOne() {}
            }
            """
        // When it is counted
        let sut = PublicDeclarations.count(in: text)
        // Then the struct, the inlinable function and the open class count
        #expect(sut == 3)
    }

    @Test("a module that grows past its ceiling is named, as is one the table leaves out")
    func overrunNamesTheModule() {
        // Given counts with one module over its ceiling and one without a ceiling
        let counts = ["Datasets": 41, "Harness": 3, "Newcomer": 1]
        let ceilings = ["Datasets": 40, "Harness": 3]
        // When they are compared
        let sut = PublicDeclarations.overruns(counts: counts, ceilings: ceilings)
        // Then the two are named, with their counts
        #expect(sut == [
            "Datasets: 41 public declarations, over its ceiling of 40 in docs/versioning.md",
            "Newcomer: 1 public declarations, over its ceiling of 0 in docs/versioning.md",
        ])
    }

    @Test("the ceilings are read from the table between the public-api markers")
    func readsTheTable() {
        // Given a table between the markers and a row outside them
        let markdown = """
            | `Outside` | 9 |
            <!-- public-api -->
            | module | public declarations | why |
            | --- | --- | --- |
            | `Datasets` | 40 | the readers |
            | `Harness` | 0 | |
            <!-- /public-api -->
            """
        // When it is read
        let sut = PublicDeclarations.ceilings(markdown: markdown)
        // Then the rows inside are the ceilings
        #expect(sut == ["Datasets": 40, "Harness": 0])
    }
}

@Suite("An @inlinable member of a package type is inlined into the package's other modules")
struct InlinableMembersTests {
    @Test("every package type with an @inlinable member is @usableFromInline")
    func sourcesHaveNone() throws {
        // Given the sources
        // When their @inlinable members are looked at
        let sut = try InlinableMembers.neverInlined(sources: repository.appendingPathComponent("Sources"))
        // Then none sits in a package type that is not @usableFromInline
        #expect(sut.isEmpty, "\(sut.joined(separator: "\n"))")
    }

    @Test("an @inlinable member of a plain package type is named, in the type and in an extension of it; one of a @usableFromInline type is not")
    func plantedMembersAreFound() {
        // Given a plain package type and a @usableFromInline one, each with inlinable members
        let text = """
        package struct Row {
            package var fault: Int
            @inlinable package var isBad: Bool { fault != 0 }
        }

        @usableFromInline package struct Kept {
            @usableFromInline package var x: Int
            @inlinable package var twice: Int { x * 2 }
            package struct Inner {
                @inlinable package var one: Int { 1 }
            }
        }

        extension Row {
            @inlinable
            package func check() -> Bool { isBad }
        }
        """
        let hidden = InlinableMembers.hiddenTypes(in: [text])
        // When the members are looked at
        let sut = InlinableMembers.neverInlined(in: text, file: "M/Row.swift", hidden: hidden)
        // Then the plain types' members are named, with their lines, and the kept type's are not
        #expect(hidden == ["Row", "Inner"])
        #expect(sut.map { $0.prefix { $0 != " " } } == ["M/Row.swift:3:", "M/Row.swift:10:", "M/Row.swift:15:"])
    }
}
