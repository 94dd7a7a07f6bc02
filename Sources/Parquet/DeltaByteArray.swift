/// DELTA_BYTE_ARRAY (front coding): each string as the length of the prefix it shares with the string
/// before it in the page and the rest; the prefix lengths, then the suffix lengths, as
/// DELTA_BINARY_PACKED, then the suffixes back to back. Ids that count up (`s0000042-000017`) keep
/// a byte or two each. DELTA_LENGTH_BYTE_ARRAY, its second half alone, is read as well.
enum DeltaByteArray {
    /// The most bytes a page's strings may expand to for each byte of the page's data (and at least
    /// `minExpansionLimit`): prefixes repeat bytes, so a few hostile bytes could otherwise ask for gigabytes.
    static let maxExpansion = 256
    static let minExpansionLimit = 1 << 26

    // MARK: Writing

    /// Appends the non-null values of `rows`, which may span several runs; `lengths` is scratch
    /// memory (the prefix lengths, then the suffix lengths).
    static func append(_ values: ColumnRuns, rows: Range<Int>, scratch lengths: inout [UInt64], into out: inout [UInt8]) {
        var count = 0, suffixBytes = 0
        lengths.removeAll(keepingCapacity: true)
        forEachValue(values, rows: rows) { previous, value in
            let shared = commonPrefix(previous, value)
            lengths.append(UInt64(shared))
            suffixBytes += value.count - shared
            count += 1
        }
        var i = 0
        forEachValue(values, rows: rows) { _, value in
            lengths.append(UInt64(value.count) - lengths[i])
            i += 1
        }
        lengths.withUnsafeBufferPointer { lengths in
            DeltaBinaryPacked.append(UnsafeBufferPointer(rebasing: lengths[..<count]), into: &out)
            DeltaBinaryPacked.append(UnsafeBufferPointer(rebasing: lengths[count...]), into: &out)
        }
        // The suffixes, written in place.
        var at = out.count
        out.append(contentsOf: repeatElement(0, count: suffixBytes))
        i = 0
        out.withUnsafeMutableBytes { target in
            forEachValue(values, rows: rows) { _, value in
                let shared = Int(lengths[i])
                if value.count > shared {
                    (target.baseAddress! + at).copyMemory(from: value.baseAddress! + shared, byteCount: value.count - shared)
                }
                at += value.count - shared
                i += 1
            }
        }
    }

    /// Calls `body` with each non-null value of `rows` and the one before it (empty for the first).
    @inline(__always)
    private static func forEachValue(
        _ values: ColumnRuns, rows: Range<Int>, _ body: (_ previous: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Void
    ) {
        // The value before, carried from run to run.
        var carried: [UInt8] = []
        values.forEachPart(of: rows) { run, part in
            run.bytes.withUnsafeBytes { bytes in
                run.ends.withUnsafeBufferPointer { ends in
                    run.validity.withUnsafeBufferPointer { validity in
                        carried.withUnsafeBytes { carried in
                            var previous = carried
                            for row in part where !run.nullable || validity[row] != 0 {
                                let value = UnsafeRawBufferPointer(rebasing: bytes[(row == 0 ? 0 : ends[row - 1])..<ends[row]])
                                body(previous, value)
                                previous = value
                            }
                        }
                    }
                }
            }
            if let last = part.reversed().first(where: { !run.nullable || run.validity[$0] != 0 }) {
                run.withUTF8(last) { carried = Array($0) }
            }
        }
    }

    /// The number of leading bytes `a` and `b` share, eight at a time.
    @inline(__always)
    private static func commonPrefix(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let limit = min(a.count, b.count)
        var shared = 0
        while shared + 8 <= limit {
            let difference = a.loadUnaligned(fromByteOffset: shared, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: shared, as: UInt64.self)
            if difference != 0 { return shared + UInt64(littleEndian: difference).trailingZeroBitCount / 8 }
            shared += 8
        }
        while shared < limit && a[shared] == b[shared] { shared += 1 }
        return shared
    }

    // MARK: Reading

    /// Appends `count` DELTA_BYTE_ARRAY strings from `data` to `values` as non-null rows.
    static func decode(_ data: UnsafeRawBufferPointer, count: Int, into values: inout ParquetColumnValues) throws {
        try decode(data, count: count, prefixed: true, into: &values)
    }

    /// Appends `count` DELTA_LENGTH_BYTE_ARRAY strings from `data` to `values` as non-null rows.
    static func decodeLengths(_ data: UnsafeRawBufferPointer, count: Int, into values: inout ParquetColumnValues) throws {
        try decode(data, count: count, prefixed: false, into: &values)
    }

    private static func decode(_ data: UnsafeRawBufferPointer, count: Int, prefixed: Bool, into values: inout ParquetColumnValues) throws {
        // The prefix and suffix lengths go to the column's `words`, unused by strings: memory reused from
        // page to page and chunk to chunk, not fresh pages to fault in for each.
        var lengths: [UInt64] = []
        swap(&lengths, &values.words)
        defer {
            lengths.removeAll(keepingCapacity: true)
            swap(&lengths, &values.words)
        }
        lengths.removeAll(keepingCapacity: true)
        var position = 0
        if prefixed {
            position = try DeltaBinaryPacked.decode(data, count: count, into: &lengths)
        } else {
            lengths.append(contentsOf: repeatElement(0, count: count))
        }
        position += try DeltaBinaryPacked.decode(UnsafeRawBufferPointer(rebasing: data[position...]), count: count, into: &lengths)
        let limit = max(minExpansionLimit, data.count.multipliedReportingOverflow(by: maxExpansion).partialValue)
        try lengths.withUnsafeBufferPointer { lengths in
            try append(
                prefixes: UnsafeBufferPointer(rebasing: lengths[0..<count]), suffixLengths: UnsafeBufferPointer(rebasing: lengths[count...]),
                suffixes: UnsafeRawBufferPointer(rebasing: data[position...]), limit: limit, into: &values)
        }
    }

    /// Appends each string: the `prefixes[i]` first bytes of the one before and its suffix.
    private static func append(
        prefixes: UnsafeBufferPointer<UInt64>, suffixLengths: UnsafeBufferPointer<UInt64>, suffixes: UnsafeRawBufferPointer, limit: Int,
        into values: inout ParquetColumnValues
    ) throws {
        let count = prefixes.count
        // Check every length and the whole size first, then copy with the room reserved.
        var suffixTotal = 0, total = 0, previous = 0
        for i in 0..<count {
            let prefix = prefixes[i], length = suffixLengths[i]
            guard prefix <= UInt64(previous) else {
                throw ParquetFormatError("DELTA_BYTE_ARRAY prefix of \(Int64(bitPattern: prefix)) bytes, the string before has \(previous)")
            }
            guard length <= UInt64(suffixes.count - suffixTotal) else {
                throw ParquetFormatError("DELTA_BYTE_ARRAY string of \(Int64(bitPattern: length)) bytes past the page's end")
            }
            suffixTotal += Int(length)
            previous = Int(prefix) + Int(length)
            total += previous
            guard total <= limit else { throw ParquetFormatError("DELTA_BYTE_ARRAY strings expand past \(limit) bytes") }
        }
        let first = values.bytes.count, firstRow = values.ends.count
        // 32 spare bytes, removed at the end: short strings are copied as two words.
        values.bytes.append(contentsOf: repeatElement(0, count: total + 32))
        // Written through a pointer: an append a row checked the array's uniqueness and capacity each time.
        values.ends.append(contentsOf: repeatElement(0, count: count))
        if values.nullable { values.validity.append(contentsOf: repeatElement(1, count: count)) }
        values.bytes.withUnsafeMutableBytes { out in
            values.ends.withUnsafeMutableBufferPointer { ends in
                let base = out.baseAddress!
                var at = first, from = 0
                // The first 16 bytes of the string before, kept in a register: reading them back from where
                // they were just stored, in overlapping parts, would stall on the stores.
                var previous: UInt128 = 0
                for i in 0..<count {
                    let prefix = Int(prefixes[i]), length = Int(suffixLengths[i])
                    let target = base + at
                    if prefix &+ length <= 16, suffixes.count &- from >= 16 {
                        // The prefix's bytes of the string before, then the suffix's (and what follows it, masked off).
                        let suffix = UInt128(littleEndian: suffixes.loadUnaligned(fromByteOffset: from, as: UInt128.self))
                        let string = (previous & Self.bytesBelow(prefix) | suffix << (8 &* prefix)) & Self.bytesBelow(prefix &+ length)
                        // All 16 bytes: those past the string land where later strings or the spare bytes go.
                        target.storeBytes(of: string.littleEndian, as: UInt128.self)
                        previous = string
                    } else {
                        if prefix > 0 { target.copyMemory(from: base + at - Self.previousLength(i, prefixes, suffixLengths), byteCount: prefix) }
                        if length > 0 { (target + prefix).copyMemory(from: suffixes.baseAddress! + from, byteCount: length) }
                        previous = UInt128(littleEndian: target.loadUnaligned(as: UInt128.self)) & Self.bytesBelow(prefix + length)
                    }
                    from += length
                    at += prefix + length
                    ends[firstRow &+ i] = at
                }
            }
        }
        values.bytes.removeLast(32)
    }

    /// The mask of the `count` (0...16, or more for all) low bytes of a 128-bit word.
    @inline(__always)
    private static func bytesBelow(_ count: Int) -> UInt128 {
        count >= 16 ? ~0 : (1 << (8 &* count)) &- 1
    }

    /// The length of string `i - 1` (0 for the first).
    @inline(__always)
    private static func previousLength(_ i: Int, _ prefixes: UnsafeBufferPointer<UInt64>, _ suffixLengths: UnsafeBufferPointer<UInt64>) -> Int {
        i == 0 ? 0 : Int(prefixes[i - 1] + suffixLengths[i - 1])
    }
}

