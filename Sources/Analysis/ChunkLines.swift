import Datasets

/// File line numbers (1-based) of the rows of scanned chunks.
struct ChunkLines {
    /// The file line of each chunk's first line, minus one.
    let bases: [Int]

    init<C>(_ chunks: [ScannedChunk<C>]) {
        var bases: [Int] = []
        var total = 0
        for chunk in chunks {
            bases.append(total)
            total += Int(chunk.lineCount)
        }
        self.bases = bases
    }

    func line(chunk: Int, local: UInt32) -> Int { bases[chunk] + Int(local) + 1 }

    /// The local lines of the candidates at `indices` (ascending) of `chunk`: candidates fill the
    /// lines that are neither rejected nor empty, in order.
    static func candidateLines<C>(_ chunk: ScannedChunk<C>, indices: [Int]) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(indices.count)
        var rejected = 0
        var empty = 0
        var line: UInt32 = 0
        var candidate = 0
        for target in indices {
            while true {
                if rejected < chunk.rejections.count, chunk.rejections[rejected].line == line {
                    rejected += 1
                } else if empty < chunk.emptyLines.count, chunk.emptyLines[empty] == line {
                    empty += 1
                } else {
                    candidate += 1
                    if candidate - 1 == target {
                        result.append(line)
                        line += 1
                        break
                    }
                }
                line += 1
            }
        }
        return result
    }
}
