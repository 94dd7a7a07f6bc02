import Testing

@testable import MutationKit

/// The list of equivalents and the seeded sample.
@Suite struct SelectionTests {
    private static func mutant(_ id: Int, occurrence: Int = 0) -> Mutant {
        Mutant(id: id, file: "A/B.swift", line: id, function: "f()", kind: .relational, original: "<", replacement: "<=", occurrence: occurrence)
    }

    @Test func aListedMutantIsKnownByItsKey() throws {
        // Given a list with a comment and one mutant
        let text = "# comment\nA/B.swift f() < -> <= #1 -- only ties reach it, and they are copies\n"

        // When it is read
        let sut = try Equivalents(parsing: text)

        // Then the mutant of that occurrence is listed, another occurrence is not
        #expect(sut.contains(Self.mutant(7, occurrence: 1)))
        #expect(!sut.contains(Self.mutant(7, occurrence: 0)))
    }

    @Test(arguments: ["A/B.swift f() < -> <= #1", "A/B.swift f() < -> <= #1 --   "])
    func aLineWithoutAReasonIsAnErrorNamingTheLine(line: String) throws {
        // Given a list whose second line has no reason
        let text = "# equivalents\n\(line)\n"

        // When it is read, then the error names the file and line
        let error = try #require(throws: MutationError.self) { try Equivalents(parsing: text, file: "eq.txt") }
        #expect(error.description.hasPrefix("eq.txt:2: "))
    }

    @Test func theSampleDependsOnTheSeedOnly() throws {
        // Given 50 mutants, and the same ones numbered otherwise
        let mutants = (1...50).map { Self.mutant($0, occurrence: $0) }
        let renumbered = mutants.map { var copy = $0; copy.id += 1000; return copy }

        // When 10 are drawn by one seed from each, and by another seed
        let sut = MutantSample.draw(10, of: mutants, seed: "abc")
        let again = MutantSample.draw(10, of: renumbered, seed: "abc")
        let other = MutantSample.draw(10, of: mutants, seed: "abd")

        // Then one seed draws the same mutants whatever their ids, and 10 distinct ones; another seed draws others
        #expect(sut.map(\.key) == again.map(\.key))
        #expect(Set(sut.map(\.id)).count == 10)
        #expect(sut.map(\.key) != other.map(\.key))
    }

    @Test func theScoreListsEachSurvivorWithItsPlace() {
        // Given a killed mutant, a survivor and an equivalent one
        let results = [
            MutantResult(mutant: Self.mutant(1), verdict: .killed, status: 1),
            MutantResult(mutant: Self.mutant(2, occurrence: 1), verdict: .survived, status: 0),
            MutantResult(mutant: Self.mutant(3, occurrence: 2), verdict: .equivalent, status: 0),
        ]

        // When scored
        let sut = Score(results: results, seconds: 90).report

        // Then the figures and the survivor's file:line and change are printed
        #expect(sut.contains("3 mutants, 1 killed (0 of them timed out), 1 survived, 1 equivalent, 0 known open (50.0 % of the non-equivalent killed), 1.5 minutes"))
        #expect(sut.contains("  A/B.swift:2 f(): < -> <=  [A/B.swift f() < -> <= #1]"))
    }

    @Test(arguments: [
        (equivalent: true, open: false, verdict: Verdict.equivalent),
        (equivalent: false, open: true, verdict: Verdict.open),
        (equivalent: true, open: true, verdict: Verdict.equivalent),
        (equivalent: false, open: false, verdict: Verdict.survived),
    ])
    func aSurvivorInNeitherListFailsTheGate(equivalent: Bool, open: Bool, verdict: Verdict) throws {
        // Given a mutant that survived, listed as equivalent, as known open, in both lists or in neither
        let mutant = Self.mutant(7)
        let line = "\(mutant.key) -- a reason\n"
        let equivalents = try Equivalents(parsing: equivalent ? line : "")
        let openList = try Equivalents(parsing: open ? line : "")

        // When judged
        let sut = MutantRunner.survivor(mutant, equivalents: equivalents, open: openList)

        // Then only a survivor in neither list counts as a survivor (the gate's failure)
        #expect(sut == verdict)
        #expect(Score(results: [MutantResult(mutant: mutant, verdict: sut, status: 0)], seconds: 1).survivors.isEmpty == (verdict != .survived))
    }

    @Test func theScoreReportsKnownOpenSurvivorsLoudly() {
        // Given a killed mutant and a known open survivor
        let results = [
            MutantResult(mutant: Self.mutant(1), verdict: .killed, status: 1),
            MutantResult(mutant: Self.mutant(2, occurrence: 1), verdict: .open, status: 0),
        ]

        // When scored
        let sut = Score(results: results, seconds: 60)

        // Then it counts as open, not as a survivor, and is listed as OPEN
        #expect(sut.survivors.isEmpty)
        #expect(sut.report.contains("0 survived, 0 equivalent, 1 known open (50.0 % of the non-equivalent killed)"))
        #expect(sut.report.contains("  OPEN A/B.swift:2 f(): < -> <=  [A/B.swift f() < -> <= #1]"))
    }
}
