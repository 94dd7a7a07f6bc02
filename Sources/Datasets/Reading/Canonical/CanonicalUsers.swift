@_spi(Tooling) import HealthCore
import UserProfiles

extension CanonicalRows {
    /// Parses the user line that starts at `base + start`, in a chunk that ends at `base + end`:
    /// the profile, the length of its id (the line's first bytes) and the offset of the line's
    /// `\n` (or `end`), or `nil` when the line is not a plainly valid user row (as `meal(…)`: the
    /// general path then decides; `duplicate` is not this parser's business).
    @inlinable
    public static func user(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> (profile: UserProfile, idCount: Int, lineEnd: Int)? {
        typealias F = CanonicalFields
        var p = base + start
        let limit = base + end
        guard let id = F.shortId(&p, limit),
              let offset = F.signedInteger(&p, limit), UserProfile.utcOffsetRange.contains(offset),
              let proto = F.field(&p, limit).flatMap(FastingProtocol.init(field:)),
              let sex = F.field(&p, limit),
              let age = F.integer(&p, limit),
              let weight = F.count(&p, limit), F.skip(UInt8(ascii: ","), &p, limit),
              let height = F.count(&p, limit), F.skip(UInt8(ascii: ","), &p, limit),
              let activity = F.lastField(&p, limit),
              let lineEnd = F.lineEnd(p, limit, from: base)
        else { return nil }
        let profile = UserProfile(
            id: String(decoding: UnsafeBufferPointer(start: base + start, count: id.count), as: UTF8.self),
            utcOffsetMinutes: Int32(offset), fastingProtocol: proto, sex: Sex(field: sex), age: Int(age),
            weightKg: weight, heightCm: height, activity: ActivityLevel(field: activity)
        )
        return (profile, id.count, lineEnd)
    }
}

extension CanonicalFields {
    /// A field of 1 to 16 bytes followed by a comma, as `shortId` reads it: its bytes.
    @inlinable @inline(__always)
    static func field(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let start = p
        guard let field = shortId(&p, end) else { return nil }
        return UnsafeBufferPointer(start: start, count: field.count)
    }

    /// An integer as `integer` reads it, after an optional minus sign.
    @inlinable @inline(__always)
    static func signedInteger(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Int64? {
        let negative = p < end && p.pointee == UInt8(ascii: "-")
        if negative { p += 1 }
        guard let magnitude = integer(&p, end) else { return nil }
        return negative ? -magnitude : magnitude
    }

    /// The last field of a line: its bytes (at most 16, no comma, not ending in `\r`) up to the
    /// line's `\n` or `end`, where it leaves `p`.
    @inlinable @inline(__always)
    static func lastField(_ p: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let start = p
        var count = 0
        while p + count < end, p[count] != UInt8(ascii: "\n") {
            guard count < 16, p[count] != UInt8(ascii: ",") else { return nil }
            count += 1
        }
        guard count == 0 || p[count - 1] != UInt8(ascii: "\r") else { return nil }
        p += count
        return UnsafeBufferPointer(start: start, count: count)
    }
}
