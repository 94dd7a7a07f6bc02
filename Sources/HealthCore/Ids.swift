/// The spelling of the dataset's ids: a one-letter prefix and a zero-padded number, so that byte
/// order and numeric order agree (SPEC §0) — `u0000042` for a user, `m0000042-000017` for the 17th
/// meal of that user (`s` samples, `p` payments). The generator, its writers and the readers use
/// these. (Computed, not `static let`s, which would cost a lazy-initialization check per row in the
/// modules that write them.)
@usableFromInline package enum Ids {
    /// Digits of the user number.
    @inlinable package static var userWidth: Int { 7 }
    /// Digits of a row's ordinal within its user.
    @inlinable package static var ordinalWidth: Int { 6 }
    /// The prefix of a user id.
    @inlinable package static var user: UInt8 { UInt8(ascii: "u") }
    /// The prefix of a meal id.
    @inlinable package static var meal: UInt8 { UInt8(ascii: "m") }
    /// The prefix of a step sample id.
    @inlinable package static var sample: UInt8 { UInt8(ascii: "s") }
    /// The prefix of a payment id.
    @inlinable package static var payment: UInt8 { UInt8(ascii: "p") }

    /// `u` and the user index in `userWidth` digits.
    @usableFromInline package static func user(_ index: UInt32) -> String {
        let digits = String(index)
        return "u" + String(repeating: "0", count: max(0, userWidth - digits.count)) + digits
    }
}
