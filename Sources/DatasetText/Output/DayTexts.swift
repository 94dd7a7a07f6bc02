@_spi(Tooling) import HealthCore

/// The 10 bytes of a `YYYY-MM-DD` date, as stored in memory.
struct DayText: Equatable {
    var head: UInt64
    var tail: UInt16

    /// The text of `day`, `nil` for a year outside 0...9999.
    init?(_ day: LocalDay) {
        let (year, month, dayOfMonth) = day.civil
        guard (0...9999).contains(year) else { return nil }
        var bytes: (UInt64, UInt16) = (0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            var p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            p = NumberWriter.padded(UInt64(year), width: 4, at: p)
            p.pointee = UInt8(ascii: "-")
            p = NumberWriter.padded(UInt64(month), width: 2, at: p + 1)
            p.pointee = UInt8(ascii: "-")
            _ = NumberWriter.padded(UInt64(dayOfMonth), width: 2, at: p + 1)
        }
        (head, tail) = bytes
    }
}

/// A small direct-mapped cache of day texts, by day index: the rows of a partition share a few
/// weeks of days.
struct DayTexts: Sendable {
    private static let size = 64
    private var days = [Int64](repeating: .min, count: size)
    private var texts = [DayText?](repeating: nil, count: size)

    mutating func text(of day: LocalDay) -> DayText? {
        let slot = Int(truncatingIfNeeded: day.index) & (Self.size - 1)
        if days[slot] != day.index {
            days[slot] = day.index
            texts[slot] = DayText(day)
        }
        return texts[slot]
    }
}

extension ByteCursor {
    /// `YYYY-MM-DD` from its `text` (`DayTexts`), or spelled out when `nil` (at most
    /// `numberBytes` bytes, whatever the year).
    @inline(__always) mutating func day(_ day: LocalDay, text: DayText?) {
        guard let text else {
            for b in day.isoString.utf8 { byte(b) }
            return
        }
        UnsafeMutableRawPointer(position).storeBytes(of: text.head, as: UInt64.self)
        UnsafeMutableRawPointer(position + 8).storeBytes(of: text.tail, as: UInt16.self)
        position += 10
    }
}
