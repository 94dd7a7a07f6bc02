// A resumed simulation's loading: any bytes as the store a killed `simulate --db` left and its
// gateway truth file (a corrupt file, wrong types, unknown kinds or phases, missing or extra rows, a
// truncated line) end in a refusal (`SimulationError`) or a world run to its end, never a trap.
// Input: two bytes (little-endian) giving the truth file's length, the truth file, then the store.
import Foundation
import FuzzSupport
@_spi(Tooling) import PaymentSimulation

let directory = FuzzSupport.scratch()
let store = directory + "/store.sqlite"
/// The world of the seed corpus (Fuzz/Corpus/FuzzStoreLoading, written by `simharness simulate --seed 4
/// --payments 40 --clients 4 --faults lost=0.2,timeout=0.2 --store sqlite --db FILE`).
let configuration = WorldConfiguration(seed: 4, payments: 40, clients: 4, faults: FaultMix(permille: [.timeout: 200, .lost: 200]))

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let input, size >= 2 else { return 0 }
    let bytes = UnsafeBufferPointer(start: input, count: size)
    let length = min(Int(bytes[0]) | Int(bytes[1]) << 8, size - 2)
    for suffix in ["", "-wal", "-shm", ".gateway"] { try? FileManager.default.removeItem(atPath: store + suffix) }
    FileManager.default.createFile(atPath: store + ".gateway", contents: Data(bytes[2..<(2 + length)]))
    FileManager.default.createFile(atPath: store, contents: Data(bytes[(2 + length)...]))
    _ = try? PaymentWorldSimulator.run(configuration, store: .init(kind: .sqlite, database: store, resume: true))
    return 0
}

FuzzSupport.main(fuzz)
