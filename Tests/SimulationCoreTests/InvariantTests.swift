@_spi(Tooling) import SimulationCore
import Testing

@Suite("The invariant catalogue: one wording for both simulators")
struct InvariantTests {
    @Test("every name is lower-case words joined by hyphens, as reports and JSON print it", arguments: Invariant.allCases)
    func wording(sut: Invariant) {
        // Given an invariant of the catalogue
        // When its name is read
        let words = sut.rawValue.split(separator: "-", omittingEmptySubsequences: false)
        // Then it is words of lower-case letters only
        #expect(!words.isEmpty)
        #expect(words.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase && $0.isLetter } }, "\(sut.rawValue)")
    }

    @Test("no two invariants share a name, and the order is the names' order")
    func namesAreDistinct() {
        // Given the catalogue
        let sut = Invariant.allCases
        // When its names are collected
        let names = sut.map(\.rawValue)
        // Then each is used once, and sorting invariants sorts their names
        #expect(Set(names).count == names.count)
        #expect(sut.sorted().map(\.rawValue) == names.sorted())
    }
}
