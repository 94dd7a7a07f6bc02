import Datasets
import Parquet

/// One column's values of the rows being typed (`TypedRows`), in memory kept from chunk to chunk:
/// 64-bit words, or string bytes and their ends, and validity bytes when the column is nullable
/// (`ParquetColumnValues`' layout). Strings are written as `ByteCursor` writes them in CSV.
struct ColumnScratch {
    var words = ScratchBuffer<UInt64>()
    var bytes = ScratchBuffer<UInt8>()
    var ends = ScratchBuffer<Int>()
    var validity = ScratchBuffer<UInt8>()
    /// The owner number of the last id written, and its `Ids.userWidth` digits in bytes 1 to 7 of
    /// a little-endian word (rows come grouped by user: an owner is formatted once, as
    /// `RecordEncoder` does).
    private var owner = UInt64.max
    private var ownerDigits: UInt64 = 0
    /// The ordinal of the last owned id written, and `-` and its `Ids.ordinalWidth` digits in bytes 0
    /// to 6 of a little-endian word: a user's rows mostly count up by one, so the next ordinal's text
    /// is this word with its last digit raised (as `RecordEncoder` does).
    private var ordinal = UInt64.max
    private var ordinalText: UInt64 = 0

    mutating func removeAll() {
        words.count = 0
        bytes.count = 0
        ends.count = 0
        validity.count = 0
    }

    /// Frees the memory; the scratch is not used after.
    func deallocate() {
        words.deallocate()
        bytes.deallocate()
        ends.deallocate()
        validity.deallocate()
    }

    @inline(__always) mutating func int(_ value: Int64) { words.append(UInt64(bitPattern: value)) }

    /// Seconds, as microseconds.
    @inline(__always) mutating func time(_ seconds: Int64) { int(seconds * CanonicalText.microsPerSecond) }

    /// A decimal given in thousandths.
    @inline(__always) mutating func milli(_ value: Int32) { words.append(CanonicalText.double(milli: Int64(value)).bitPattern) }

    /// A string of at most `maxBytes` bytes that `write` writes from the pointer it gets, returning
    /// where it stopped; `nullable` adds its validity byte.
    @inline(__always) mutating func string(maxBytes: Int, nullable: Bool = false, _ write: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>) {
        bytes.reserve(maxBytes)
        bytes.count = write(bytes.storage + bytes.count) - bytes.storage
        ends.append(bytes.count)
        if nullable { validity.append(1) }
    }

    @inline(__always) mutating func text(_ value: StaticString) {
        string(maxBytes: value.utf8CodeUnitCount) { p in
            p.update(from: value.utf8Start, count: value.utf8CodeUnitCount)
            return p + value.utf8CodeUnitCount
        }
    }

    /// An id such as `u0000042` (`ByteCursor.id`).
    @inline(__always) mutating func id(_ prefix: UInt8, _ number: UInt64) {
        guard number < 10_000_000 else { return string(maxBytes: 32) { Self.id(prefix, number, at: $0) } }
        let word = ownerWord(prefix, number)
        string(maxBytes: 8) { Self.word(word, at: $0) }
    }

    /// An id such as `m0000042-000017` (`ByteCursor.id`), followed by `padding` times `K` (a long
    /// idempotency key); `nullable` adds its validity byte.
    @inline(__always) mutating func id(_ prefix: UInt8, owner: UInt64, ordinal: UInt64, padding: Int = 0, nullable: Bool = false) {
        let word = owner < 10_000_000 ? ownerWord(prefix, owner) : 0
        let text = ordinal < 1_000_000 ? ordinalWord(ordinal) : 0
        string(maxBytes: 64 + padding, nullable: nullable) { p in
            var q = owner < 10_000_000 ? Self.word(word, at: p) : Self.id(prefix, owner, at: p)
            if ordinal < 1_000_000 {
                // Eight bytes, of which the last (a zero) is written over by what follows.
                q = Self.word(text, at: q) - 1
            } else {
                q.pointee = UInt8(ascii: "-")
                q = NumberWriter.padded(ordinal, width: Ids.ordinalWidth, at: q + 1)
            }
            q.update(repeating: UInt8(ascii: "K"), count: padding)
            return q + padding
        }
    }

    /// `-` and `number` (below 10⁶) in `Ids.ordinalWidth` digits, in bytes 0 to 6 of a word.
    @inline(__always) private mutating func ordinalWord(_ number: UInt64) -> UInt64 {
        let lastDigit: UInt64 = 0xFF << 48
        if number != ordinal {
            if ordinal != .max, number == ordinal + 1, ordinalText & lastDigit != UInt64(UInt8(ascii: "9")) << 48 {
                ordinalText &+= 1 << 48
            } else {
                var text: UInt64 = 0
                withUnsafeMutableBytes(of: &text) { raw in
                    let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    p.pointee = UInt8(ascii: "-")
                    _ = NumberWriter.padded(number, width: Ids.ordinalWidth, at: p + 1)
                }
                ordinalText = UInt64(littleEndian: text)
            }
            ordinal = number
        }
        return ordinalText
    }

    /// A gateway script, as `RowRendering.script`: `A`, `D`, `T`, `L` tokens joined by `;`.
    @inline(__always) mutating func script(_ script: CompactScript) {
        string(maxBytes: 2 * CompactScript.capacity) { p in
            var q = p
            for i in 0..<script.count {
                if i > 0 {
                    q.pointee = UInt8(ascii: ";")
                    q += 1
                }
                switch script.response(at: i) {
                case .approved: q.pointee = UInt8(ascii: "A")
                case .declined: q.pointee = UInt8(ascii: "D")
                case .timedOut: q.pointee = UInt8(ascii: "T")
                case .lost: q.pointee = UInt8(ascii: "L")
                }
                q += 1
            }
            return q
        }
    }

    /// A null string.
    mutating func null() {
        ends.append(bytes.count)
        validity.append(0)
    }

    @inline(__always) private static func word(_ word: UInt64, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        UnsafeMutableRawPointer(p).storeBytes(of: word.littleEndian, as: UInt64.self)
        return p + 8
    }

    private static func id(_ prefix: UInt8, _ number: UInt64, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        p.pointee = prefix
        return NumberWriter.padded(number, width: Ids.userWidth, at: p + 1)
    }

    /// `prefix` and `number` (below 10⁷) in `Ids.userWidth` digits, as eight bytes.
    @inline(__always) private mutating func ownerWord(_ prefix: UInt8, _ number: UInt64) -> UInt64 {
        if number != owner {
            owner = number
            var digits: UInt64 = 0
            withUnsafeMutableBytes(of: &digits) { raw in
                _ = NumberWriter.padded(number, width: Ids.userWidth, at: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + 1)
            }
            ownerDigits = UInt64(littleEndian: digits)
        }
        return ownerDigits | UInt64(prefix)
    }

    /// Appends the one row of `values` (a row typed from its text).
    mutating func append(_ values: ParquetColumnValues) {
        if values.nullable { validity.append(values.isNull(0) ? 0 : 1) }
        switch values.type {
        case .string:
            values.withUTF8(0) { text in
                string(maxBytes: text.count) { p in
                    if let base = text.baseAddress { p.update(from: base, count: text.count) }
                    return p + text.count
                }
            }
        case .double: words.append(values.double(0).bitPattern)
        case .int64, .timestampMicros: words.append(UInt64(bitPattern: values.int64(0)))
        }
    }

    /// Appends the values to `column`, of their type.
    func copy(to column: inout ParquetColumnValues) {
        if column.type == .string {
            column.append(utf8: bytes.buffer, ends: ends.buffer, validity: validity.buffer)
        } else {
            column.append(words: words.buffer, validity: validity.buffer)
        }
    }
}

/// A growable run of trivial values written in place (one column's words, bytes, ends or validity),
/// kept from chunk to chunk: a value, not an object, so that writing through it costs no reference
/// counting; its owner frees it (`deallocate()`).
struct ScratchBuffer<Element: BitwiseCopyable> {
    private(set) var storage: UnsafeMutablePointer<Element>
    private var capacity = 1 << 12
    /// Values written; set to 0 to forget them.
    var count = 0

    init() { storage = .allocate(capacity: capacity) }

    func deallocate() { storage.deallocate() }

    /// The values written.
    var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: storage, count: count) }

    @inline(__always) mutating func append(_ value: Element) {
        if count == capacity { grow(to: count + 1) }
        storage[count] = value
        count += 1
    }

    /// Makes room for `extra` more values.
    @inline(__always) mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to minimum: Int) {
        capacity = max(minimum, capacity * 2)
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        larger.initialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
    }
}

/// The scratch columns of one `TypedRows`, freed with it.
final class ColumnScratchStorage: @unchecked Sendable {
    @exclusivity(unchecked) var columns: [ColumnScratch]

    init(count: Int) { columns = (0..<count).map { _ in ColumnScratch() } }

    deinit { for column in columns { column.deallocate() } }
}
