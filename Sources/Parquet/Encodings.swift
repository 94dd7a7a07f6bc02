/// The RLE/bit-packed hybrid encoding (definition levels, dictionary indices) and bit widths.
enum Hybrid {
    /// The number of bits that hold `value` (0 for 0).
    static func bitWidth(_ value: UInt32) -> Int { 32 - value.leadingZeroBitCount }

    /// Appends `values`, each below 2^bitWidth, as RLE runs (8 or more equal values) and bit-packed groups of 8.
    static func encode<T: FixedWidthInteger & UnsignedInteger>(_ values: UnsafeBufferPointer<T>, bitWidth: Int, into out: inout [UInt8]) {
        let n = values.count
        var i = 0
        while i < n {
            let value = values[i]
            var run = 1
            while i + run < n && values[i + run] == value { run += 1 }
            if run >= 8 {
                appendVarint(UInt64(run) << 1, to: &out)
                var v = UInt64(value)
                for _ in 0..<(bitWidth + 7) / 8 {
                    out.append(UInt8(truncatingIfNeeded: v))
                    v >>= 8
                }
                i += run
                continue
            }
            // Bit-packed groups of 8 until a run of 8 equal values starts at a group boundary.
            var end = i
            repeat { end += 8 } while end < n && !startsRun(values, at: end)
            appendVarint(UInt64((end - i) / 8) << 1 | 1, to: &out)
            var acc: UInt64 = 0
            var bits = 0
            for j in i..<end {
                acc |= (j < n ? UInt64(values[j]) : 0) << bits
                bits += bitWidth
                while bits >= 8 {
                    out.append(UInt8(truncatingIfNeeded: acc))
                    acc >>= 8
                    bits -= 8
                }
            }
            i = end
        }
    }

    private static func startsRun<T: FixedWidthInteger>(_ values: UnsafeBufferPointer<T>, at index: Int) -> Bool {
        guard index + 8 <= values.count else { return false }
        let first = values[index]
        for k in index + 1..<index + 8 where values[k] != first { return false }
        return true
    }

    /// An unsigned LEB128 value of at most 10 bytes at `position`, which moves past it; `truncated`
    /// is the reason when the bytes end first.
    static func readVarint(_ bytes: UnsafeRawBufferPointer, _ position: inout Int, truncated: String) throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count, shift < 64 else { throw ParquetFormatError(truncated) }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    /// Decodes exactly `count` values of `bitWidth` bits from `bytes`; throws when the runs end early or a
    /// run is malformed. A last bit-packed run may stop short of its declared groups (some writers trim it).
    static func decode(_ bytes: UnsafeRawBufferPointer, bitWidth: Int, count: Int) throws -> [UInt32] {
        guard (0...32).contains(bitWidth) else { throw ParquetFormatError("bit width \(bitWidth) out of range") }
        // Not an empty array made in place: that writes the shared empty storage (a race for ThreadSanitizer).
        guard count > 0 else { return [] }
        var failure: Error?
        // Written in place: appended one by one, each value paid a capacity and a uniqueness check.
        let result = [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
            do {
                try decode(bytes, bitWidth: bitWidth, into: out)
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return result
    }

    /// Fills all of `out` (uninitialized) with the values of the runs of `bytes`.
    private static func decode(_ bytes: UnsafeRawBufferPointer, bitWidth: Int, into out: UnsafeMutableBufferPointer<UInt32>) throws {
        let count = out.count
        var filled = 0, position = 0
        let valueBytes = (bitWidth + 7) / 8
        while filled < count {
            guard position < bytes.count else { throw ParquetFormatError("RLE/bit-packed data ends after \(filled) of \(count) values") }
            let header = try readVarint(bytes, &position, truncated: "RLE/bit-packed run header truncated")
            let wanted = count - filled
            if header & 1 == 0 {
                let run = header >> 1
                guard run > 0 else { throw ParquetFormatError("RLE run of zero values") }
                guard bytes.count - position >= valueBytes else { throw ParquetFormatError("RLE run value truncated") }
                var value: UInt64 = 0
                for k in 0..<valueBytes { value |= UInt64(bytes[position + k]) << (8 * k) }
                position += valueBytes
                guard value >> bitWidth == 0 else { throw ParquetFormatError("RLE run value \(value) wider than \(bitWidth) bits") }
                let take = Int(min(run, UInt64(wanted)))
                (out.baseAddress! + filled).initialize(repeating: UInt32(value), count: take)
                filled += take
            } else {
                let groups = header >> 1
                guard groups > 0, groups <= UInt64(Int32.max) else { throw ParquetFormatError("bit-packed run of \(groups) groups") }
                let declared = Int(groups) * 8
                if bitWidth == 0 {
                    let take = min(declared, wanted)
                    (out.baseAddress! + filled).initialize(repeating: 0, count: take)
                    filled += take
                    continue
                }
                let available = min(Int(groups) * bitWidth, bytes.count - position)
                let take = min(declared, available * 8 / bitWidth, wanted)
                guard take > 0 else { throw ParquetFormatError("bit-packed run truncated") }
                unpack(UnsafeRawBufferPointer(rebasing: bytes[position..<position + available]), bitWidth: bitWidth,
                       into: UnsafeMutableBufferPointer(rebasing: out[filled..<filled + take]))
                filled += take
                position += available
            }
        }
    }

    /// Unpacks `out.count` values of `bitWidth` (1...32) bits, LSB first, from `bytes` (which hold them):
    /// each from the 8 bytes at its first bit where 8 remain, byte by byte near the end.
    private static func unpack(_ bytes: UnsafeRawBufferPointer, bitWidth: Int, into out: UnsafeMutableBufferPointer<UInt32>) {
        let mask: UInt64 = (1 << UInt64(bitWidth)) - 1
        var bit = 0
        for i in out.indices {
            let byte = bit >> 3, shift = bit & 7
            var word: UInt64
            if byte + 8 <= bytes.count {
                word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: byte, as: UInt64.self))
            } else {
                word = 0
                for k in 0..<min(8, bytes.count - byte) { word |= UInt64(bytes[byte + k]) << (8 * k) }
            }
            // shift <= 7 and bitWidth <= 32: the value lies within the word.
            (out.baseAddress! + i).initialize(to: UInt32(truncatingIfNeeded: (word >> UInt64(shift)) & mask))
            bit += bitWidth
        }
    }
}
