import Testing
@_spi(Tooling) @testable import RunEngine

@Suite("The ordinals a user's rows have shown")
struct OrdinalSetTests {
    @Test("an ordinal is new once per user", arguments: [UInt32(0), 7, 1023])
    func newOncePerUser(ordinal: UInt32) {
        // Given a set and its first user
        let sut = OrdinalSet()
        var first = sut.nextUser()
        // When the user shows `ordinal` twice, and the next user once
        let shown = first.insert(ordinal)
        let again = first.insert(ordinal)
        var second = sut.nextUser()
        let shownToNext = second.insert(ordinal)
        // Then only the second time is a duplicate
        #expect(shown)
        #expect(!again)
        #expect(shownToNext)
    }

    @Test("growing the table keeps what the user has shown", arguments: [UInt32(1024), 5000, 70_000])
    func growthKeepsStamps(large: UInt32) {
        // Given a user who has shown ordinal 5, in the first table
        let sut = OrdinalSet()
        var user = sut.nextUser()
        let small = user.insert(5)
        // When an ordinal past the table's end makes it grow, and both show again
        let grown = user.insert(large)
        let smallAgain = user.insert(5)
        let largeAgain = user.insert(large)
        // And the next user, handed the grown table, shows both
        var next = sut.nextUser()
        let nextLarge = next.insert(large)
        let nextSmall = next.insert(5)
        // Then the user's value kept both stamps across the growth, and the next user had shown neither
        #expect(small && grown)
        #expect(!smallAgain)
        #expect(!largeAgain)
        #expect(nextLarge && nextSmall)
    }
}
