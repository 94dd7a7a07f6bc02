/// Writes bytes and numbers at a pointer, into room reserved in a `ByteBuffer` (`ByteBuffer.row`
/// or `RecordEncoder.beginRecord`): the one way this package formats text, without a `String` per
/// field.
public struct ByteCursor {
    /// The most bytes an integer, a number with 3 decimals or a day takes.
    package static let numberBytes = 24

    @usableFromInline package var position: UnsafeMutablePointer<UInt8>

    @inlinable package init(_ start: UnsafeMutablePointer<UInt8>) { position = start }

    /// One byte.
    @inlinable @inline(__always) public mutating func byte(_ b: UInt8) {
        position.pointee = b
        position += 1
    }

    /// Eight bytes: `word`'s, lowest first.
    @inlinable @inline(__always) public mutating func word(_ word: UInt64) {
        UnsafeMutableRawPointer(position).storeBytes(of: word.littleEndian, as: UInt64.self)
        position += 8
    }

    /// The eight bytes `body` writes, as a little-endian word.
    @inlinable @inline(__always) package static func word(_ body: (inout ByteCursor) -> Void) -> UInt64 {
        var bytes: UInt64 = 0
        withUnsafeMutableBytes(of: &bytes) { raw in
            var cursor = ByteCursor(raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            body(&cursor)
            precondition(cursor.position - raw.baseAddress!.assumingMemoryBound(to: UInt8.self) == 8)
        }
        return UInt64(littleEndian: bytes)
    }

    /// A field separator.
    @inlinable @inline(__always) package mutating func comma() { byte(UInt8(ascii: ",")) }
    /// A line end.
    @inlinable @inline(__always) package mutating func newline() { byte(UInt8(ascii: "\n")) }

    /// Raw bytes (room for them must be reserved). Up to 16 bytes (enum values, short texts) by
    /// two overlapping word copies rather than a call to `memmove`.
    @inlinable @inline(__always) public mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        let count = source.count, from = UnsafeRawPointer(base), to = UnsafeMutableRawPointer(position)
        func copy<Word>(_: Word.Type) {
            let size = MemoryLayout<Word>.size
            to.storeBytes(of: from.loadUnaligned(as: Word.self), as: Word.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: count - size, as: Word.self), toByteOffset: count - size, as: Word.self)
        }
        switch count {
        case 8...16: copy(UInt64.self)
        case 4..<8: copy(UInt32.self)
        case 2..<4: copy(UInt16.self)
        default: position.update(from: base, count: count)
        }
        position += count
    }

    /// The bytes of a static string.
    @inlinable @inline(__always) public mutating func bytes(_ text: StaticString) {
        bytes(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `count` copies of `b`.
    @inlinable @inline(__always) public mutating func repeated(_ b: UInt8, count: Int) {
        position.update(repeating: b, count: count)
        position += count
    }

    /// The UTF-8 bytes of `s` (room for `s.utf8.count` bytes must be reserved).
    @inlinable @inline(__always) package mutating func text(_ s: String) {
        // The bytes at once (byte by byte, the UTF-8 view cost a few ns a byte).
        var s = s
        s.withUTF8 { bytes($0) }
    }

    /// A signed integer in decimal.
    @inlinable @inline(__always) public mutating func int(_ value: Int64) { position = NumberWriter.signed(value, at: position) }

    /// A signed integer in decimal.
    @inlinable @inline(__always) package mutating func int(_ value: Int) { int(Int64(value)) }

    /// An unsigned integer in decimal.
    @inlinable @inline(__always) public mutating func unsigned(_ value: UInt64) { position = NumberWriter.unsigned(value, at: position) }

    /// `value` in exactly `width` digits, zero padded (more when it does not fit).
    @inlinable @inline(__always) public mutating func padded(_ value: UInt64, width: Int) {
        position = NumberWriter.padded(value, width: width, at: position)
    }

    /// A fixed-point value given in thousandths, with 3 decimals.
    @inlinable @inline(__always) public mutating func milli(_ thousandths: Int64) {
        if thousandths < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = thousandths.magnitude
        unsigned(magnitude / 1000)
        byte(UInt8(ascii: "."))
        position = NumberWriter.threeDigits(magnitude % 1000, at: position)
    }

    /// A value in thousandths with at most 3 decimals, trailing zeros dropped (`1234500` → `1234.5`).
    @inlinable @inline(__always) public mutating func shortMilli(_ thousandths: Int64) {
        position = NumberWriter.milli(thousandths, at: position)
    }

    /// Millionths printed with 3 decimals, rounded half away from zero: any `Int64`, `.min` and
    /// `.max` included (the quotient is taken first, so nothing overflows).
    @inlinable @inline(__always) package mutating func micros3(_ micros: Int64) {
        let (quotient, remainder) = micros.quotientAndRemainder(dividingBy: 1000)
        milli(remainder >= 500 ? quotient + 1 : remainder <= -500 ? quotient - 1 : quotient)
    }

    /// The most bytes `decimal3` writes: a sign, the 309 digits of `Double.greatestFiniteMagnitude`
    /// and `.000`.
    package static let decimal3Bytes = 320

    /// A `Double` printed with 3 decimals (rounded half away from zero). Any value: past 2⁵³
    /// thousandths (9.007 × 10¹²), where `value × 1000` is no longer exact, its exact decimal digits
    /// are printed, all of them (`decimal3Wide`); an infinity is `inf` or `-inf`, a NaN `nan`. Writes
    /// at most `decimal3Bytes`.
    @inlinable @inline(__always) package mutating func decimal3(_ value: Double) {
        let thousandths = (value * 1000).rounded()
        // NaN fails the comparison too.
        if thousandths.magnitude < 0x1p53 { milli(Int64(thousandths)) } else { decimal3Wide(value) }
    }

    /// `decimal3` of a value past ±2⁵³ thousandths or not finite.
    @usableFromInline package mutating func decimal3Wide(_ value: Double) {
        if value.isNaN { return bytes("nan") }
        if value.sign == .minus { byte(UInt8(ascii: "-")) }
        if value.isInfinite { return bytes("inf") }
        let magnitude = value.magnitude
        guard magnitude < 0x1p63 else {
            // A whole number (its ulp is 2048 or more), past UInt64's digits.
            position = NumberWriter.wholeDouble(magnitude, at: position)
            return bytes(".000")
        }
        // Below 2⁶³ and past 2⁵³/1000 the fraction has at most 9 bits: × 1000 is exact.
        let whole = magnitude.rounded(.towardZero)
        var units = UInt64(whole)
        var thousandths = UInt64(((magnitude - whole) * 1000).rounded())
        if thousandths == 1000 {
            units += 1
            thousandths = 0
        }
        unsigned(units)
        byte(UInt8(ascii: "."))
        position = NumberWriter.threeDigits(thousandths, at: position)
    }
}

extension ByteBuffer {
    /// Appends what `body` writes through a cursor, at most `maxBytes` bytes.
    @inlinable @inline(__always) public func row(maxBytes: Int, _ body: (inout ByteCursor) -> Void) {
        reserve(maxBytes)
        var cursor = ByteCursor(storage + count)
        body(&cursor)
        count = cursor.position - storage
    }

    /// Appends one line of text and a line feed (for headers and rare lines, not per row).
    package func line(_ text: String) {
        append(text)
        append(StaticString("\n"))
    }

    /// Appends the bytes of a static string.
    package func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
