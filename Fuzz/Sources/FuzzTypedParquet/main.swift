// The typed Parquet path against the text path: fuzzed rows of users, meals, steps and payments are
// written as CSV files and as the Parquet tables `generate --format parquet` writes (the export's sink,
// typing, dictionaries and `rejected_rows`), both analyzed; the accepted rows, the rejections with
// their reasons and lines, and every SPEC output file must be the same byte for byte.
//
// Input: lines; `U `, `M `, `S ` or `P ` starts a row of users, meals, steps or payments (the rest of
// the line), other lines are skipped. Users u0000000…u0000009 are always there.
//
// SIMHARNESS_FUZZ_PLANT=typed-kcal plants a disagreement: the Parquet side's typed meals carry one
// thousandth more kcal, as a typed path that rounds wrong would read them. scripts/fuzz.sh checks that
// the target then crashes with "differential mismatch" on its seed corpus.
import Datasets
@_spi(Tooling) import Export
import Foundation
import FuzzSupport
@_spi(Tooling) import Generation

let directory = FuzzSupport.scratch()
let planted = ProcessInfo.processInfo.environment["SIMHARNESS_FUZZ_PLANT"] == "typed-kcal"
let prefixes: [UInt8: DatasetKind] = [UInt8(ascii: "U"): .users, UInt8(ascii: "M"): .meals, UInt8(ascii: "S"): .steps, UInt8(ascii: "P"): .payments]
let baseUsers = (0..<10).map { "u000000\($0),\($0 * 60 - 300),\(["16:8", "18:6", "20:4", "omad", "none"][$0 % 5]),female,30,61.5,170,light\n" }.joined()
let outputNames = SpecOutputFile.allCases.map(\.rawValue) + ["rejections.csv"]

/// Runs `body` to its end on a detached task (libFuzzer calls the target on a plain thread).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> T {
    let box = Box<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { box.value = .success(try await body()) } catch { box.value = .failure(error) }
        done.signal()
    }
    done.wait()
    return try! box.value!.get()
}

final class Box<T>: @unchecked Sendable { var value: Result<T, any Error>? }

/// The meals text with every canonical, non-negative kcal one thousandth larger (the planted defect).
func plantedKcal(_ text: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    for (i, line) in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
        if i > 0 { out.append(UInt8(ascii: "\n")) }
        var fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map(Array.init)
        if i > 0, fields.count == 9, let milli = fields[5].withUnsafeBufferPointer({ CanonicalText.decimalMilli($0) }), milli >= 0 {
            let value = milli + 1
            fields[5] = Array("\(value / 1000).\(String(value % 1000 + 1000).dropFirst())".utf8)
        }
        out += Array(fields.joined(separator: [UInt8(ascii: ",")]))
    }
    return out
}

/// The analyze outputs of `input` (file names of the Parquet tables written as the CSV files'), or its refusal.
func analyzed(_ input: String) -> String {
    switch FuzzSupport.analyze(input, chunkBytes: 1 << 20) {
    case .success(let files):
        return outputNames.map { "\($0):\n\(files[$0] ?? "<missing>")" }.joined(separator: "\n")
            .replacingOccurrences(of: ".parquet,", with: ".csv,")
    case .failure(let refusal):
        return "refused: \(refusal.file.replacingOccurrences(of: ".parquet", with: ".csv")) \(refusal.line.map(String.init) ?? "-") \(refusal.reason)"
    }
}

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    var texts: [DatasetKind: [UInt8]] = [:]
    for kind in DatasetKind.allCases { texts[kind] = Array((kind.columns.joined(separator: ",") + "\n").utf8) }
    texts[.users]! += Array(baseUsers.utf8)
    for line in FuzzSupport.lines(UnsafeBufferPointer(start: data, count: size)) {
        guard line.count >= 2, line[1] == UInt8(ascii: " "), let kind = prefixes[line[0]] else { continue }
        // A row of the file: no `\r` (a CR line end is text's, which Parquet keeps verbatim) and no blank line.
        let row = line.dropFirst(2).filter { $0 != UInt8(ascii: "\r") }
        guard !row.isEmpty else { continue }
        texts[kind]! += row + [UInt8(ascii: "\n")]
    }
    let csv = directory + "/csv", parquet = directory + "/parquet"
    for dir in [csv, parquet] {
        try? FileManager.default.removeItem(atPath: dir)
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }
    for (kind, text) in texts { FileManager.default.createFile(atPath: csv + "/\(kind.rawValue).csv", contents: Data(text)) }
    var typed = texts
    if planted { typed[.meals] = plantedKcal(typed[.meals]!) }
    let written = typed
    blocking {
        var options = ExportOptions(directory: parquet, toolVersion: "fuzz", format: .parquet, jobs: 2, compression: .zstd)
        options.rowGroupRows = 7  // several row groups, so that dictionaries and lookups start over
        try await ParquetExport.write(csv: written, options: options, linesPerChunk: 5)
    }
    let fromCSV = analyzed(csv), fromParquet = analyzed(parquet)
    precondition(fromCSV == fromParquet, "differential mismatch: CSV\n\(fromCSV)\nagainst Parquet\n\(fromParquet)")
    return 0
}

FuzzSupport.main(fuzz)
