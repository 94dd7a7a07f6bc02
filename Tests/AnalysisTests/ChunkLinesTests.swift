@_spi(Tooling) @testable import Analysis
@testable import Datasets
import Testing

@Suite("ChunkLines: the lines of a chunk's candidates, past its rejected and empty lines")
struct ChunkLinesTests {
    /// What a line of a chunk holds.
    enum Line: CaseIterable { case candidate, rejected, empty }

    /// A chunk with `layout`'s rejected and empty lines (a candidate line needs no entry).
    static func chunk(_ layout: [Line]) -> ScannedChunk<MealCandidate> {
        var chunk = ScannedChunk<MealCandidate>(index: 0)
        for (line, kind) in layout.enumerated() {
            switch kind {
            case .candidate: break
            case .rejected: chunk.rejections.append(RowRejection(line: UInt32(line), reason: 0, column: -1, user: .max))
            case .empty: chunk.emptyLines.append(UInt32(line))
            }
        }
        chunk.lineCount = UInt32(layout.count)
        return chunk
    }

    /// Every layout of up to `length` lines.
    static func layouts(upTo length: Int) -> [[Line]] {
        var all: [[Line]] = [[]]
        var last: [[Line]] = [[]]
        for _ in 0..<length {
            last = last.flatMap { layout in Line.allCases.map { layout + [$0] } }
            all += last
        }
        return all
    }

    @Test("every candidate, or every other one, is found on its own line in every layout of up to 7 lines",
          arguments: [1, 2])
    func everyLayout(stride step: Int) {
        for layout in Self.layouts(upTo: 7) {
            // Given a chunk laid out so, and the indices of every `step`-th candidate
            let candidateLines = layout.indices.filter { layout[$0] == .candidate }
            let indices = Array(stride(from: 0, to: candidateLines.count, by: step))
            // When their lines are found
            let lines = ChunkLines.candidateLines(Self.chunk(layout), indices: indices)
            // Then each is the line of that candidate
            #expect(lines == indices.map { UInt32(candidateLines[$0]) }, "layout \(layout)")
        }
    }

    @Test("a candidate after long runs of rejected and empty lines, and the file lines of two chunks")
    func longRunsAndFileLines() {
        // Given a chunk of 1,000 rejected lines, a candidate, 500 empty lines and a candidate, after a chunk of 7 lines
        let layout = [Line](repeating: .rejected, count: 1_000) + [.candidate] + [Line](repeating: .empty, count: 500) + [.candidate]
        var first = ScannedChunk<MealCandidate>(index: 0)
        first.lineCount = 7
        let sut = ChunkLines([first, Self.chunk(layout)])
        // When the candidates' lines are found
        let lines = ChunkLines.candidateLines(Self.chunk(layout), indices: [0, 1])
        // Then they follow the runs, and their file lines (1-based) count the first chunk's lines
        #expect(lines == [1_000, 1_501])
        #expect(lines.map { sut.line(chunk: 1, local: $0) } == [1_008, 1_509])
    }
}
