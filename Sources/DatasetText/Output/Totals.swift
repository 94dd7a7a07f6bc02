
/// The counts of one input file for `totals.json` (SPEC §5).
public struct FileTotals: Equatable, Sendable {
    /// Rows read (blank lines and the header are not rows).
    public var read = 0
    /// Rejected rows per reason, in the reasons' SPEC order; reasons that never occurred are absent.
    public var rejected: [(reason: String, count: Int)] = []
    /// Final states of payments, all six of them (payments only).
    public var states: [(state: String, count: Int)]? = nil

    /// Totals of a file of `read` rows, none rejected yet.
    public init(read: Int = 0) { self.read = read }

    /// Rejected rows, all reasons together.
    package var rejectedCount: Int { rejected.reduce(0) { $0 + $1.count } }
    /// `read` less the rejected rows.
    package var accepted: Int { read - rejectedCount }

    /// Sets the rejection counts from per-reason counters indexed like `reasons`.
    public mutating func setRejected(_ counts: [Int], reasons: [String]) {
        rejected = zip(reasons, counts).filter { $0.1 > 0 }.map { ($0.0, $0.1) }
    }

    /// Equal counts, reason by reason and state by state.
    public static func == (a: FileTotals, b: FileTotals) -> Bool {
        a.read == b.read && a.rejected.elementsEqual(b.rejected, by: ==)
            && (a.states ?? []).elementsEqual(b.states ?? [], by: ==) && (a.states == nil) == (b.states == nil)
    }

    func json() -> String {
        var parts = ["\"read\": \(read)", "\"accepted\": \(accepted)"]
        parts.append("\"rejected\": {" + rejected.map { "\"\($0.reason)\": \($0.count)" }.joined(separator: ", ") + "}")
        if let states {
            parts.append("\"states\": {" + states.map { "\"\($0.state)\": \($0.count)" }.joined(separator: ", ") + "}")
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }
}

/// The counts of a whole `analyze` run: one entry per input file present.
public struct AnalysisTotals: Equatable, Sendable {
    /// The totals of each input file present.
    public var files: [DatasetKind: FileTotals] = [:]

    /// No file yet.
    public init() {}

    /// `totals.json`, keys in SPEC order.
    public func json() -> String {
        let entries = DatasetKind.allCases.compactMap { kind in files[kind].map { "  \"\(kind.rawValue)\": \($0.json())" } }
        return "{\n" + entries.joined(separator: ",\n") + "\n}\n"
    }
}

/// Rejected rows with their file, line, reason and culprit column, for `rejections.csv`.
package struct RejectionLog: Sendable {
    /// The file `analyze` writes the log to.
    package static let fileName = "rejections.csv"
    static let header = "file,line,reason,column"
    /// The bytes of `rejections.csv`, header included.
    package let buffer = ByteBuffer(capacity: 1 << 16)

    /// An empty log (the header only).
    package init() { buffer.line(Self.header) }

    /// Logs one rejected row.
    package func add(file: String, line: Int, reason: String, column: String) {
        buffer.row(maxBytes: file.utf8.count + reason.utf8.count + column.utf8.count + ByteCursor.numberBytes + 4) { row in
            row.text(file)
            row.comma()
            row.int(line)
            row.comma()
            row.text(reason)
            row.comma()
            row.text(column)
            row.newline()
        }
    }
}
