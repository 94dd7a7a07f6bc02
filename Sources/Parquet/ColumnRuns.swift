/// One column's values over consecutive runs of rows (the chunks a row group gathers), encoded
/// as one column without joining them first: rows are numbered across the runs.
struct ColumnRuns {
    /// The runs, in row order, each of the same type and nullability.
    let runs: [ParquetColumnValues]
    /// The first row of each run, then the row count.
    let starts: [Int]

    init(_ runs: [ParquetColumnValues]) {
        self.runs = runs
        var starts = [0]
        for run in runs { starts.append(starts.last! + run.count) }
        self.starts = starts
    }

    var type: ParquetType { runs[0].type }
    var nullable: Bool { runs[0].nullable }
    /// The number of rows, nulls included.
    var count: Int { starts.last! }

    /// Calls `body` with each run holding some of `rows`, and those rows numbered within the run.
    @inline(__always)
    func forEachPart(of rows: Range<Int>, _ body: (ParquetColumnValues, Range<Int>) -> Void) {
        var r = 0
        while starts[r + 1] <= rows.lowerBound && r + 1 < runs.count { r += 1 }
        while r < runs.count && starts[r] < rows.upperBound {
            let lower = max(rows.lowerBound, starts[r]), upper = min(rows.upperBound, starts[r + 1])
            if lower < upper { body(runs[r], lower - starts[r]..<upper - starts[r]) }
            r += 1
        }
    }
}
