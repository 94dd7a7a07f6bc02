// Gzip inflation: any bytes, read as a `.csv.gz` chunk by chunk, end in whole lines or in a refusal
// naming the file; never a crash or a hang.
import Datasets
import Foundation
import FuzzSupport

let directory = FuzzSupport.scratch()
let path = directory + "/meals.csv.gz"

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    FileManager.default.createFile(atPath: path, contents: Data(bytes: data, count: size))
    do {
        let reader = try LineChunkReader(path: path, gzip: true, chunkSize: 64)
        var storage: [UInt8]?
        while let chunk = try reader.next(reusing: storage) { storage = (consume chunk).storage }
    } catch let refusal as InputRefusal {
        precondition(refusal.file == "meals.csv.gz", "the refusal names \(refusal.file)")
    } catch {
        fatalError("reading a gzip file failed otherwise than by refusing it: \(error)")
    }
    return 0
}

FuzzSupport.main(fuzz)
