/// The spelling of the simulator's ids: a one-letter prefix and a zero-padded number, so that byte
/// order and numeric order agree (SPEC §0) — `u0000042` for a user, `m0000042-000017` for the 17th
/// meal of that user (`s` samples, `p` payments). (Computed, not `static let`s, which would cost
/// a lazy-initialization check per row in the modules that write them.)
public enum Ids {
    /// Digits of the user number.
    @inlinable public static var userWidth: Int { 7 }
    /// Digits of a row's ordinal within its user.
    @inlinable public static var ordinalWidth: Int { 6 }
    /// The prefix of a user id.
    @inlinable public static var user: UInt8 { UInt8(ascii: "u") }
    /// The prefix of a meal id.
    @inlinable public static var meal: UInt8 { UInt8(ascii: "m") }
    /// The prefix of a step sample id.
    @inlinable public static var sample: UInt8 { UInt8(ascii: "s") }
    /// The prefix of a payment id.
    @inlinable public static var payment: UInt8 { UInt8(ascii: "p") }

    /// `u` and the user index in `userWidth` digits.
    public static func user(_ index: UInt32) -> String {
        let digits = String(index)
        return "u" + String(repeating: "0", count: max(0, userWidth - digits.count)) + digits
    }
}

extension ByteCursor {
    /// An id of one prefix and a number in `Ids.userWidth` digits: `u0000042`.
    @inlinable @inline(__always) public mutating func id(_ prefix: UInt8, _ number: UInt64) {
        byte(prefix)
        padded(number, width: Ids.userWidth)
    }

    /// An id of a row that a user owns: `p0000042-000017`.
    @inlinable @inline(__always) public mutating func id(_ prefix: UInt8, owner: UInt64, ordinal: UInt64) {
        id(prefix, owner)
        byte(UInt8(ascii: "-"))
        padded(ordinal, width: Ids.ordinalWidth)
    }
}
