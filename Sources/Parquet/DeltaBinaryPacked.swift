/// DELTA_BINARY_PACKED: 64-bit integers as a header (block size, miniblocks a block, value count,
/// first value), then blocks of 128 deltas, each block its least delta and four miniblocks of 32
/// deltas bit-packed (LSB first) above that least delta, each at its own bit width. Deltas wrap, as
/// the format says, so every `Int64` sequence round-trips.
enum DeltaBinaryPacked {
    static let blockSize = 128
    static let miniblocksPerBlock = 4
    static let miniblockSize = blockSize / miniblocksPerBlock
    /// The most values a block may declare: larger blocks buy nothing and a hostile header must not
    /// make a reader spin on them.
    static let maxBlockSize = 1 << 16

    // MARK: Writing

    /// Appends `values` (signed integers as bit patterns).
    static func append(_ values: UnsafeBufferPointer<UInt64>, into out: inout [UInt8]) {
        Hybrid.appendVarint(UInt64(blockSize), to: &out)
        Hybrid.appendVarint(UInt64(miniblocksPerBlock), to: &out)
        Hybrid.appendVarint(UInt64(values.count), to: &out)
        Hybrid.appendVarint(zigzag(values.first ?? 0), to: &out)
        guard values.count > 1 else { return }
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: blockSize) { deltas in
            var next = 1
            while next < values.count {
                let n = min(blockSize, values.count - next)
                var least = Int64.max
                for k in 0..<n {
                    let delta = Int64(bitPattern: values[next &+ k] &- values[next &+ k &- 1])
                    deltas[k] = UInt64(bitPattern: delta)
                    least = min(least, delta)
                }
                for k in 0..<blockSize { deltas[k] = k < n ? deltas[k] &- UInt64(bitPattern: least) : 0 }
                Hybrid.appendVarint(zigzag(UInt64(bitPattern: least)), to: &out)
                // The four bit widths, then the miniblocks that hold deltas (none for unused ones).
                let widths = out.count
                for m in 0..<miniblocksPerBlock {
                    var any: UInt64 = 0
                    if m * miniblockSize < n { for k in m * miniblockSize..<(m + 1) * miniblockSize { any |= deltas[k] } }
                    out.append(UInt8(64 - any.leadingZeroBitCount))
                }
                for m in 0..<miniblocksPerBlock where m * miniblockSize < n {
                    pack(UnsafeBufferPointer(rebasing: deltas[m * miniblockSize..<(m + 1) * miniblockSize]), width: Int(out[widths + m]), into: &out)
                }
                next += n
            }
        }
    }

    /// Appends 32 values of `width` bits, least significant bit first: `4 * width` bytes.
    private static func pack(_ values: UnsafeBufferPointer<UInt64>, width: Int, into out: inout [UInt8]) {
        guard width > 0 else { return }
        let at = out.count
        out.append(contentsOf: repeatElement(0, count: miniblockSize * width / 8))
        out.withUnsafeMutableBytes { target in
            var position = at
            var accumulator: UInt64 = 0
            var bits = 0
            for value in values {
                accumulator |= value &<< UInt64(bits)
                bits += width
                if bits >= 64 {
                    target.storeBytes(of: accumulator.littleEndian, toByteOffset: position, as: UInt64.self)
                    position += 8
                    bits -= 64
                    // The value's bits that did not fit.
                    accumulator = bits == 0 ? 0 : value &>> UInt64(width - bits)
                }
            }
            // 32 values fill whole bytes.
            for _ in 0..<bits / 8 {
                target[position] = UInt8(truncatingIfNeeded: accumulator)
                accumulator >>= 8
                position += 1
            }
        }
    }

    static func zigzag(_ value: UInt64) -> UInt64 {
        let signed = Int64(bitPattern: value)
        return UInt64(bitPattern: (signed &<< 1) ^ (signed >> 63))
    }

    static func unzigzag(_ value: UInt64) -> UInt64 { (value >> 1) ^ (0 &- (value & 1)) }

    // MARK: Reading

    /// Decodes exactly `count` values (as bit patterns) from the start of `data` into `out`; returns
    /// the number of bytes they take. Throws when the header is malformed, declares another count,
    /// or the data ends early.
    static func decode(_ data: UnsafeRawBufferPointer, count: Int, into out: inout [UInt64]) throws -> Int {
        var position = 0
        let blockSize = try varint(data, &position)
        let miniblocks = try varint(data, &position)
        let total = try varint(data, &position)
        let first = unzigzag(try varint(data, &position))
        guard blockSize > 0, blockSize % 128 == 0, blockSize <= UInt64(maxBlockSize) else {
            throw ParquetFormatError("DELTA_BINARY_PACKED block of \(blockSize) values (a multiple of 128 up to \(maxBlockSize))")
        }
        guard miniblocks > 0, blockSize % miniblocks == 0, (blockSize / miniblocks) % 32 == 0 else {
            throw ParquetFormatError("DELTA_BINARY_PACKED block of \(blockSize) values in \(miniblocks) miniblocks")
        }
        guard total == UInt64(count) else { throw ParquetFormatError("DELTA_BINARY_PACKED holds \(total) values, the page \(count)") }
        guard count > 0 else { return position }
        let perMiniblock = Int(blockSize / miniblocks)
        let old = out.count
        out.append(contentsOf: repeatElement(0, count: count))
        try out.withUnsafeMutableBufferPointer { target in
            try withUnsafeTemporaryAllocation(byteCount: perMiniblock * 8 + 8, alignment: 8) { scratch in
                target[old] = first
                var previous = first
                var produced = 1
                while produced < count {
                    let least = unzigzag(try varint(data, &position))
                    guard data.count - position >= Int(miniblocks) else { throw ParquetFormatError("DELTA_BINARY_PACKED block truncated") }
                    let widths = position
                    position += Int(miniblocks)
                    for m in 0..<Int(miniblocks) where produced < count {
                        let width = Int(data[widths + m])
                        guard width <= 64 else { throw ParquetFormatError("DELTA_BINARY_PACKED bit width \(width)") }
                        let bytes = perMiniblock * width / 8
                        guard data.count - position >= bytes else { throw ParquetFormatError("DELTA_BINARY_PACKED miniblock truncated") }
                        // Every value is one or two loads: from the page when 8 bytes follow the miniblock,
                        // else from a copy in zeroed memory with 8 spare bytes.
                        let source: UnsafeRawPointer
                        if data.count - position >= bytes + 8 {
                            source = data.baseAddress! + position
                        } else {
                            scratch.initializeMemory(as: UInt8.self, repeating: 0)
                            scratch.copyMemory(from: UnsafeRawBufferPointer(rebasing: data[position..<position + bytes]))
                            source = UnsafeRawPointer(scratch.baseAddress!)
                        }
                        position += bytes
                        let take = min(perMiniblock, count - produced)
                        let mask: UInt64 = width == 64 ? ~0 : (1 &<< UInt64(width)) &- 1
                        for k in 0..<take {
                            let bit = k &* width
                            let offset = bit &>> 3, shift = bit & 7
                            var value = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &>> UInt64(shift)
                            if shift &+ width > 64 {
                                value |= UInt64(source.load(fromByteOffset: offset &+ 8, as: UInt8.self)) &<< UInt64(64 &- shift)
                            }
                            previous = previous &+ least &+ (value & mask)
                            target[old &+ produced &+ k] = previous
                        }
                        produced += take
                    }
                }
            }
        }
        return position
    }

    /// A header or block varint.
    private static func varint(_ data: UnsafeRawBufferPointer, _ position: inout Int) throws -> UInt64 {
        try Hybrid.readVarint(data, &position, truncated: "DELTA_BINARY_PACKED header truncated")
    }
}
