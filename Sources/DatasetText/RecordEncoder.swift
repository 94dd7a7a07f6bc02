@_spi(Tooling) import HealthCore

/// The two text encodings of dataset rows (SPEC §0).
@usableFromInline package enum TextRecordFormat: String, Sendable, CaseIterable {
    /// Comma separated, no quoting, a header row, `\n` line ends.
    case csv
    /// One JSON object per line with the CSV column names as keys.
    case ndjson
}

/// Writes the rows of one dataset file as CSV or NDJSON bytes straight into a `ByteBuffer`.
/// Call `beginRecord()`, the field methods in column order, then `endRecord()`. Between the two,
/// the encoder writes through a `ByteCursor` (no access to the buffer object per byte). Values
/// never need quoting or escaping (SPEC §0: no field holds a comma or a quote), so none is done.
@usableFromInline package struct RecordEncoder {
    /// CSV or NDJSON.
    @usableFromInline package let format: TextRecordFormat
    /// The column names, in the order fields are written.
    package let columns: [String]
    /// Where the records go.
    @usableFromInline package let buffer: ByteBuffer
    /// NDJSON: the bytes before each field (`{"a":`, `,"b":`, …), concatenated, with their ends.
    @usableFromInline let prefixes: [UInt8]
    @usableFromInline let prefixEnds: [Int]
    @usableFromInline var column = 0
    @usableFromInline var cursor: ByteCursor
    /// The text of the last ids written (rows come grouped by user).
    @usableFromInline var ids = IdWords()

    /// The most bytes one record may take; `beginRecord` reserves this much.
    @usableFromInline package static let maximumRecordBytes = 2048

    /// An encoder of records of `columns` into `buffer`.
    package init(format: TextRecordFormat, columns: [String], buffer: ByteBuffer) {
        self.format = format
        self.columns = columns
        self.buffer = buffer
        var prefixes: [UInt8] = []
        var ends: [Int] = []
        for (i, name) in columns.enumerated() {
            prefixes.append(i == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
            prefixes.append(UInt8(ascii: "\""))
            prefixes.append(contentsOf: Array(name.utf8))
            prefixes.append(contentsOf: Array("\":".utf8))
            ends.append(prefixes.count)
        }
        self.prefixes = prefixes
        prefixEnds = ends
        cursor = ByteCursor(buffer.storage + buffer.count)
    }

    /// The header line (CSV only; NDJSON files have none).
    package func writeHeader() {
        guard format == .csv else { return }
        buffer.append(columns.joined(separator: ",") + "\n")
    }

    /// Reserves room for one record.
    @inlinable @inline(__always) package mutating func beginRecord() {
        buffer.reserve(Self.maximumRecordBytes)
        cursor = ByteCursor(buffer.storage + buffer.count)
        column = 0
    }

    /// Ends the record with a line feed.
    @inlinable @inline(__always) package mutating func endRecord() {
        if format == .ndjson { put(UInt8(ascii: "}")) }
        put(UInt8(ascii: "\n"))
        buffer.count = cursor.position - buffer.storage
    }

    @inlinable mutating func put(_ byte: UInt8) { cursor.byte(byte) }

    @inlinable @inline(__always) mutating func separator() {
        switch format {
        case .csv:
            if column > 0 { put(UInt8(ascii: ",")) }
        case .ndjson:
            let start = column == 0 ? 0 : prefixEnds[column - 1]
            let end = prefixEnds[column]
            prefixes.withUnsafeBufferPointer { p in cursor.bytes(UnsafeBufferPointer(rebasing: p[start..<end])) }
        }
        column &+= 1
    }

    @inlinable @inline(__always) mutating func quote() {
        if format == .ndjson { put(UInt8(ascii: "\"")) }
    }

    /// An integer field (a JSON number in NDJSON).
    @inlinable @inline(__always) package mutating func int(_ value: Int64) {
        separator()
        cursor.int(value)
    }

    /// A decimal field given in thousandths: at most 3 digits after the point, trailing zeros
    /// dropped (`1234500` → `1234.5`, `7000` → `7`). A JSON number in NDJSON.
    @inlinable @inline(__always) package mutating func milli(_ value: Int64) {
        separator()
        cursor.shortMilli(value)
    }

    /// An id such as `u0000042` (`Ids`; a JSON string).
    @inlinable @inline(__always) package mutating func id(_ prefix: UInt8, _ number: UInt64) {
        separator()
        quote()
        ownerId(prefix, number)
        quote()
    }

    /// An id such as `m0000042-000017` (`Ids`; a JSON string).
    @inlinable @inline(__always) package mutating func id(_ prefix: UInt8, owner: UInt64, ordinal: UInt64) {
        separator()
        quote()
        ownerId(prefix, owner)
        ordinalText(ordinal)
        quote()
    }

    /// An id such as `k0000042-000017` followed by `count` times `byte`, in one field (a JSON string).
    @inlinable package mutating func id(_ prefix: UInt8, owner: UInt64, ordinal: UInt64, padding byte: UInt8, count: Int) {
        separator()
        quote()
        ownerId(prefix, owner)
        ordinalText(ordinal)
        cursor.repeated(byte, count: count)
        quote()
    }

    /// `-` and `ordinal` in `Ids.ordinalWidth` digits (from `ids` below 10⁶).
    @inlinable @inline(__always) mutating func ordinalText(_ ordinal: UInt64) {
        guard ordinal < 1_000_000 else {
            cursor.byte(UInt8(ascii: "-"))
            return cursor.padded(ordinal, width: Ids.ordinalWidth)
        }
        // Eight bytes, of which the last (a zero) is written over by what follows.
        cursor.word(ids.ordinal(ordinal))
        cursor.position -= 1
    }

    /// `prefix` and `number` in `Ids.userWidth` digits (from `ids` below 10⁷).
    @inlinable @inline(__always) mutating func ownerId(_ prefix: UInt8, _ number: UInt64) {
        guard number < 10_000_000 else { return cursor.id(prefix, number) }
        cursor.word(ids.owner(number) | UInt64(prefix))
    }

    /// A text field such as an enum value (a JSON string). At most 1024 bytes.
    @inlinable @inline(__always) package mutating func text(_ value: StaticString) {
        text(UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
    }

    /// A text field from bytes (a JSON string). At most 1024 bytes.
    @inlinable @inline(__always) package mutating func text(_ value: UnsafeBufferPointer<UInt8>) {
        separator()
        quote()
        cursor.bytes(value)
        quote()
    }

    /// An integer written as text between a prefix and a suffix (a JSON string), such as the
    /// malformed `+60` or `1736150400.5`.
    @inlinable package mutating func decoratedInt(_ value: Int64, prefix: StaticString = "", suffix: StaticString = "") {
        separator()
        quote()
        appendRaw(prefix)
        cursor.int(value)
        appendRaw(suffix)
        quote()
    }

    @inlinable mutating func appendRaw(_ value: StaticString) { cursor.bytes(value) }

    /// A text field of `count` copies of `byte` (a JSON string). At most 1024 bytes.
    @inlinable package mutating func repeated(_ byte: UInt8, count: Int) {
        separator()
        quote()
        cursor.repeated(byte, count: count)
        quote()
    }
}
