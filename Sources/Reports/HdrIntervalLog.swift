import CZlib
import Foundation
@_spi(Tooling) import RunResults

/// The series' latency histograms in HdrHistogram's interval-log format (version 1.3), which
/// HdrHistogram's own tools read (HistogramLogProcessor, HistogramLogAnalyzer, Python `hdrh`): one
/// line per interval and tag, `Tag=service` for the processing time of the batches that ended in
/// it and `Tag=response` for their time from due to done (paced loads). Values are microseconds;
/// the `Interval_Max` column is in milliseconds. Timestamps are seconds since the run started.
package enum HdrIntervalLog {
    /// The log of `result.series`; only the header lines when it has none.
    package static func render(_ result: RunResult) -> String {
        var text = "#[Histogram log format version 1.3]\n"
        text += "#[StartTime: 0.000 (seconds since the start of the run; values in microseconds)]\n"
        text += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
        let width = result.series.intervalSeconds
        for interval in result.series.intervals {
            for (tag, counts) in [("service", interval.serviceLatency[3]), ("response", interval.responseLatency)] where counts.count > 0 {
                let start = Double(interval.index) * width
                text += "Tag=\(tag),\(fixed(start)),\(fixed(width)),\(fixed(Double(counts.max) / 1000)),"
                text += CompressedHistogram.encode(counts).base64EncodedString() + "\n"
            }
        }
        return text
    }

    private static func fixed(_ value: Double) -> String { String(format: "%.3f", value) }
}

/// HdrHistogram's V2 compressed encoding of an interval histogram (1 significant digit, values
/// 1…2³²): the 40-byte header, the counts as ZigZag LEB128 with runs of zeros as negative counts,
/// all deflated (zlib) behind an 8-byte header.
enum CompressedHistogram {
    static let digits: Int32 = 1
    static let lowest: Int64 = 1
    static let highest: Int64 = 1 << 32
    /// 32 sub-buckets for one significant digit (2 × 10¹ rounded up to a power of two).
    static let subBucketHalfCountMagnitude = 4
    static let subBucketHalfCount = 16
    static let subBucketMask: UInt64 = 31

    static func encode(_ counts: SparseCounts) -> Data {
        var dense: [Int64] = []
        for bucket in counts.buckets {
            let index = countsIndex(bucket.value)
            if dense.count <= index { dense += [Int64](repeating: 0, count: index + 1 - dense.count) }
            dense[index] += Int64(bucket.count)
        }
        var payload = Data()
        var position = 0
        while position < dense.count {
            if dense[position] == 0 {
                var zeros = 0
                while position < dense.count, dense[position] == 0 { zeros += 1; position += 1 }
                appendZigZag(zeros > 1 ? -Int64(zeros) : 0, to: &payload)
            } else {
                appendZigZag(dense[position], to: &payload)
                position += 1
            }
        }
        var plain = Data()
        appendBigEndian(Int32(bitPattern: 0x1c84_9313), to: &plain)  // V2 encoding cookie, word-size bits 0x10
        appendBigEndian(Int32(payload.count), to: &plain)
        appendBigEndian(Int32(0), to: &plain)  // normalizing index offset
        appendBigEndian(digits, to: &plain)
        appendBigEndian(lowest, to: &plain)
        appendBigEndian(highest, to: &plain)
        appendBigEndian(Int64(bitPattern: (1.0).bitPattern), to: &plain)  // integer-to-double ratio
        plain.append(payload)

        let deflated = deflate(plain)
        var out = Data()
        appendBigEndian(Int32(bitPattern: 0x1c84_9314), to: &out)  // V2 compressed encoding cookie
        appendBigEndian(Int32(deflated.count), to: &out)
        out.append(deflated)
        return out
    }

    /// The index of `value`'s bucket in HdrHistogram's counts array.
    static func countsIndex(_ value: UInt64) -> Int {
        let bucket = 64 - subBucketHalfCountMagnitude - 1 - (value | subBucketMask).leadingZeroBitCount
        let subBucket = Int(value >> UInt64(bucket))
        return ((bucket + 1) << subBucketHalfCountMagnitude) + subBucket - subBucketHalfCount
    }

    private static func appendZigZag(_ value: Int64, to data: inout Data) {
        var zigzag = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        repeat {
            let byte = UInt8(zigzag & 0x7f)
            zigzag >>= 7
            data.append(zigzag == 0 ? byte : byte | 0x80)
        } while zigzag != 0
    }

    private static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    /// `data` deflated in the zlib format.
    private static func deflate(_ data: Data) -> Data {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = data.withUnsafeBytes { input in
            compress2(&out, &size, input.bindMemory(to: Bytef.self).baseAddress, uLong(data.count), Z_DEFAULT_COMPRESSION)
        }
        precondition(status == Z_OK, "zlib compress2 failed with \(status)")
        return Data(out.prefix(Int(size)))
    }
}
