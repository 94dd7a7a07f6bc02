@_spi(Tooling) import PlantedFlaws
import Testing

@Suite("The catalogue of planted flaws: one name per defect, each in a fixture that has it")
struct PlantedFlawTests {
    @Test("every name is lower-case words joined by hyphens, as --flaw and reproduce files spell it", arguments: PlantedFlaw.allCases)
    func wording(sut: PlantedFlaw) {
        // Given a flaw of the catalogue
        // When its name is read
        let words = sut.rawValue.split(separator: "-", omittingEmptySubsequences: false)
        // Then it is words of lower-case letters only, and it names the flaw again
        #expect(words.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase && $0.isLetter } }, "\(sut.rawValue)")
        #expect(PlantedFlaw(rawValue: sut.rawValue) == sut)
    }

    @Test("each flaw is planted in at least one fixture, and the fixtures' lists cover the catalogue")
    func fixtures() {
        // Given the catalogue
        // When the flaws of each fixture are listed
        let reference = PlantedFlaw.planted(in: .referenceService)
        let ledger = PlantedFlaw.planted(in: .ledgerService)
        // Then every flaw is in one list or both, and the two both fixtures have are the shared ones
        #expect(Set(reference).union(ledger) == Set(PlantedFlaw.allCases))
        #expect(Set(reference).intersection(ledger) == [.retryWithoutKey, .intentAfterCall])
    }

    @Test("flaws sort by name")
    func order() {
        #expect(PlantedFlaw.allCases.sorted().map(\.rawValue) == PlantedFlaw.allCases.map(\.rawValue).sorted())
    }
}
