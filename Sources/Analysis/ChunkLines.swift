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
    /// lines that are neither rejected nor empty, in order. The walk steps over those other lines
    /// only (the candidate at index `t` lies `t` lines after the start plus the other lines before
    /// it), not over every line up to the last index.
    static func candidateLines<C>(_ chunk: ScannedChunk<C>, indices: [Int]) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(indices.count)
        var rejected = 0
        var empty = 0
        for target in indices {
            var line = target + rejected + empty
            while true {
                if rejected < chunk.rejections.count, Int(chunk.rejections[rejected].line) <= line {
                    rejected += 1
                } else if empty < chunk.emptyLines.count, Int(chunk.emptyLines[empty]) <= line {
                    empty += 1
                } else {
                    break
                }
                line += 1
            }
            result.append(UInt32(line))
        }
        return result
    }
}
