import DatasetText
import Datasets
@_spi(Tooling) import HealthCore
import Parquet
@_spi(Tooling) import Generation

/// One column's values of the rows being typed (`TypedRows`), in memory kept from chunk to chunk:
/// 64-bit words, or string bytes and their ends, and validity bytes when the column is nullable
/// (`ParquetColumnValues`' layout). Strings are written as `ByteCursor` writes them in CSV.
struct ColumnScratch {
    var words = ScratchBuffer<UInt64>()
    var bytes = ScratchBuffer<UInt8>()
    var ends = ScratchBuffer<Int>()
    var validity = ScratchBuffer<UInt8>()
    /// The text of the last ids written (`RecordEncoder`'s, for the same rows).
    private var ids = IdWords()

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
        let word = ids.owner(number) | UInt64(prefix)
        string(maxBytes: 8) { Self.word(word, at: $0) }
    }

    /// An id such as `m0000042-000017` (`ByteCursor.id`), followed by `padding` times `K` (a long
    /// idempotency key); `nullable` adds its validity byte.
    @inline(__always) mutating func id(_ prefix: UInt8, owner: UInt64, ordinal: UInt64, padding: Int = 0, nullable: Bool = false) {
        let word = owner < 10_000_000 ? ids.owner(owner) | UInt64(prefix) : 0
        let text = ordinal < 1_000_000 ? ids.ordinal(ordinal) : 0
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

    /// A gateway script (`RowRendering.script`).
    @inline(__always) mutating func script(_ script: CompactScript) {
        string(maxBytes: RowRendering.scriptBytes) { RowRendering.script(script, at: $0) }
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
