// SQLite datasets: any bytes as dataset.sqlite (a corrupt file, wrong types, missing tables) end in
// outputs or a refusal, never a crash.
import Datasets
import Foundation
import FuzzSupport

let directory = FuzzSupport.scratch()

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    let input = directory + "/in"
    try? FileManager.default.removeItem(atPath: input)
    try! FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: true)
    FileManager.default.createFile(atPath: input + "/dataset.sqlite", contents: Data(bytes: data, count: size))
    _ = FuzzSupport.analyze(input, chunkBytes: 1 << 20)
    return 0
}

FuzzSupport.main(fuzz)
