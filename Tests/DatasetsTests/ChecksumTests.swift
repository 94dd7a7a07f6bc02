import CZlib
import Datasets
import Testing

@Suite("Checksum.crc32: zlib's CRC-32, 16-byte blocks folded by carry-less multiplication")
struct ChecksumTests {
    /// Seeded bytes, with room to start at any offset below 16.
    static let bytes: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<(1 << 16) + 16).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }()

    static func zlibCRC(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: CZlib.crc32(UInt(crc), $0.baseAddress, UInt32($0.count))) }
    }

    @Test("equals zlib's for every length to 300, at every alignment, from any running value", arguments: 0..<16)
    func matchesZlib(offset: Int) {
        for length in 0...300 {
            // Given bytes at an offset and a running CRC
            let slice = Self.bytes[offset..<(offset + length)]
            let running = UInt32(truncatingIfNeeded: length &* 2_654_435_761)
            // When checksummed
            let sut = slice.withUnsafeBufferPointer { Checksum.crc32($0, continuing: running) }
            // Then it is zlib's value
            #expect(sut == Self.zlibCRC(slice, continuing: running), "length \(length)")
        }
    }

    @Test("a large buffer, and the same bytes checksummed in uneven parts, give zlib's value")
    func largeAndInParts() {
        // Given 64 KiB of bytes
        let whole = Self.bytes[3..<(3 + (1 << 16))]
        // When checksummed at once and in parts of 1, 63, 64, 1000 and the rest
        let once = whole.withUnsafeBufferPointer { Checksum.crc32($0) }
        var parts: UInt32 = 0
        var start = whole.startIndex
        for size in [1, 63, 64, 1_000, whole.count - 1_128] {
            parts = whole[start..<(start + size)].withUnsafeBufferPointer { Checksum.crc32($0, continuing: parts) }
            start += size
        }
        // Then both are zlib's value
        #expect(once == Self.zlibCRC(whole, continuing: 0))
        #expect(parts == once)
    }
}
