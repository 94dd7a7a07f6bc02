// Whole-file reads: the same meals.csv and steps.csv (any bytes after a canonical header) analyzed
// through mapped chunks of 7 bytes, one mapped chunk, and the streaming gzip reader gives the same
// outputs (written by the SPEC files' writers: fasting and steps), or the same refusal.
import Datasets
import Foundation
import FuzzSupport

let directory = FuzzSupport.scratch()
let users = "user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity\n"
    + (0..<60).map { "u\(String(repeating: "0", count: 7 - String($0).count))\($0),0,16:8,male,40,70,170,light\n" }.joined()
let header = Array("meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g\n".utf8)
let stepHeader = Array("sample_id,user_id,source,start,end,count\n".utf8)
let specFiles = ["fasting_summary.csv", "fasting_daily.csv", "steps_daily.csv", "totals.json"]

func outputs(_ input: String, chunkBytes: Int) -> String {
    switch FuzzSupport.analyze(input, chunkBytes: chunkBytes) {
    case .success(let files): return specFiles.map { "\($0):\n\(files[$0] ?? "<missing>")" }.joined(separator: "\n")
    case .failure(let refusal): return "refused: \(refusal.line.map(String.init) ?? "-") \(refusal.reason)"
    }
}

/// gzip writes the file itself: reading its output through a Pipe ended the run once, as Foundation's
/// readDataToEndOfFile() traps (try!) on a read interrupted by a signal (EINTR), here SIGCHLD.
func gzipped(_ source: String, to path: String) {
    FileManager.default.createFile(atPath: path, contents: nil)
    let target = FileHandle(forWritingAtPath: path)!
    let packed = Process()
    packed.executableURL = URL(fileURLWithPath: "/bin/gzip")
    packed.arguments = ["-c", "-1", source]
    packed.standardOutput = target
    try! packed.run()
    packed.waitUntilExit()
    try! target.close()
    precondition(packed.terminationStatus == 0, "gzip failed")
}

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    let plain = directory + "/plain", gzip = directory + "/gzip"
    for dir in [plain, gzip] {
        try? FileManager.default.removeItem(atPath: dir)
        try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try! users.write(toFile: dir + "/users.csv", atomically: false, encoding: .utf8)
    }
    let meals = Data(header) + Data(bytes: data, count: size)
    FileManager.default.createFile(atPath: plain + "/meals.csv", contents: meals)
    // The same bytes as steps too, so that the step writer renders what they hold.
    FileManager.default.createFile(atPath: plain + "/steps.csv", contents: Data(stepHeader) + Data(bytes: data, count: size))
    gzipped(plain + "/meals.csv", to: gzip + "/meals.csv.gz")
    gzipped(plain + "/steps.csv", to: gzip + "/steps.csv.gz")
    let small = outputs(plain, chunkBytes: 7)
    let whole = outputs(plain, chunkBytes: 1 << 20)
    let streamed = outputs(gzip, chunkBytes: 64)
    precondition(small == whole, "differential mismatch: 7-byte chunks\n\(small)\nagainst one chunk\n\(whole)")
    precondition(whole == streamed, "differential mismatch: mapped\n\(whole)\nagainst gzip\n\(streamed)")
    return 0
}

FuzzSupport.main(fuzz)
