import DatasetText

/// Splits the lines of a CSV or NDJSON dataset file into the fields of its kind, by column name.
/// One tokenizer per task: it reuses its storage for every row, and the fields it hands out stay
/// valid until the next call.
public final class RowTokenizer {
    /// What a line holds.
    public enum Line: Equatable, Sendable {
        /// Every column has a value in `fields`.
        case row
        /// Nothing to read: a blank line.
        case blank
        /// The row is `malformed`; `column` names the culprit when there is one.
        case malformed(column: Int?)
    }

    /// The kind of file, which names the columns.
    public let kind: DatasetKind
    /// CSV or NDJSON.
    package let format: DatasetFormat
    private let columnNames: [[UInt8]]
    private let optional: [Bool]
    /// CSV: the column of each header field (-1 when ignored) and the header's field count.
    private var columnOfField: [Int] = []
    private var headerFieldCount = 0
    /// The current row's value per column.
    public let fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>
    private let seen: UnsafeMutableBufferPointer<Bool>
    private var scratch: UnsafeMutableBufferPointer<UInt8>

    /// A tokenizer for a CSV file whose header line is `header`; refuses a missing required column.
    public convenience init(kind: DatasetKind, csvHeader header: UnsafeBufferPointer<UInt8>, file: String) throws {
        self.init(kind: kind, format: .csv)
        var line = RowTokenizer.trimmed(header)
        if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF { line = UnsafeBufferPointer(rebasing: line[3...]) }
        var fieldStart = 0
        for i in 0...line.count where i == line.count || line[i] == UInt8(ascii: ",") {
            let name = Array(line[fieldStart..<i])
            columnOfField.append(columnNames.firstIndex(of: name) ?? -1)
            fieldStart = i + 1
        }
        headerFieldCount = columnOfField.count
        for (column, name) in kind.columns.enumerated() where !columnOfField.contains(column) {
            throw InputRefusal(file: file, line: 1, reason: "missing required column '\(name)'")
        }
    }

    /// A tokenizer for NDJSON rows (or any source that names its fields).
    public init(kind: DatasetKind, format: DatasetFormat) {
        self.kind = kind
        self.format = format
        columnNames = kind.columns.map { Array($0.utf8) }
        optional = kind.columns.map { kind.optionalKeys.contains($0) }
        fields = .allocate(capacity: columnNames.count)
        fields.initialize(repeating: UnsafeBufferPointer(start: nil, count: 0))
        seen = .allocate(capacity: columnNames.count)
        seen.initialize(repeating: false)
        scratch = .allocate(capacity: 256)
    }

    deinit {
        fields.deallocate()
        seen.deallocate()
        scratch.deallocate()
    }

    /// Tokenizes one line (without its `\n`; a trailing `\r` is ignored). A blank line (SPEC §0)
    /// is an empty one in CSV, and in NDJSON one that holds only spaces, tabs and CRs.
    @inline(__always) public func tokenize(_ rawLine: UnsafeBufferPointer<UInt8>) -> Line {
        let line = RowTokenizer.trimmed(rawLine)
        if line.isEmpty { return .blank }
        if format == .csv { return tokenizeCSV(line) }
        if line[0] != UInt8(ascii: "{"), RowTokenizer.isJSONWhitespace(line) { return .blank }
        return tokenizeJSON(line)
    }

    /// Whether `line` holds only JSON's insignificant whitespace that a line can hold.
    static func isJSONWhitespace(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
    }

    @inline(__always) static func trimmed(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if let last = line.last, last == UInt8(ascii: "\r") { return UnsafeBufferPointer(rebasing: line.dropLast()) }
        return line
    }

    @inline(__always) private func tokenizeCSV(_ line: UnsafeBufferPointer<UInt8>) -> Line {
        let base = line.baseAddress!
        var field = 0
        var fieldStart = 0
        var i = 0
        let n = line.count
        columnOfField.withUnsafeBufferPointer { columns in
            while true {
                if i == n || base[i] == UInt8(ascii: ",") {
                    if field < headerFieldCount {
                        let column = columns[field]
                        if column >= 0 { fields[column] = UnsafeBufferPointer(start: base + fieldStart, count: i - fieldStart) }
                    }
                    field += 1
                    if i == n { break }
                    fieldStart = i + 1
                }
                i += 1
            }
        }
        if field == headerFieldCount { return .row }
        for missing in field..<max(field, headerFieldCount) where columnOfField[missing] >= 0 {
            fields[columnOfField[missing]] = UnsafeBufferPointer(start: base, count: 0)
        }
        return .malformed(column: nil)
    }

    // MARK: NDJSON

    private func tokenizeJSON(_ line: UnsafeBufferPointer<UInt8>) -> Line {
        if scratch.count < line.count {
            scratch.deallocate()
            scratch = .allocate(capacity: line.count * 2)
        }
        for c in 0..<columnNames.count {
            seen[c] = false
            fields[c] = UnsafeBufferPointer(start: scratch.baseAddress, count: 0)
        }
        var parser = JSONLineParser(line: line, scratch: scratch)
        var badColumn: Int?
        guard parser.skip(UInt8(ascii: "{")) else { return .malformed(column: nil) }
        if !parser.skip(UInt8(ascii: "}")) {
            repeat {
                guard let key = parser.string(), parser.skip(UInt8(ascii: ":")), let value = parser.value() else {
                    return .malformed(column: nil)
                }
                if let column = columnNames.firstIndex(where: { FieldParsing.equal($0.withUnsafeBufferPointer { $0 }, key) }) {
                    seen[column] = true
                    if let text = value { fields[column] = text } else if badColumn == nil { badColumn = column }
                }
            } while parser.skip(UInt8(ascii: ","))
            guard parser.skip(UInt8(ascii: "}")) else { return .malformed(column: nil) }
        }
        guard parser.atEnd else { return .malformed(column: nil) }
        if let badColumn { return .malformed(column: badColumn) }
        for c in 0..<columnNames.count where !seen[c] && !optional[c] { return .malformed(column: c) }
        return .row
    }
}

/// A minimal parser of one flat JSON object per line; string escapes are decoded into `scratch`.
struct JSONLineParser {
    let line: UnsafeBufferPointer<UInt8>
    let scratch: UnsafeMutableBufferPointer<UInt8>
    var i = 0
    var used = 0

    init(line: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutableBufferPointer<UInt8>) {
        self.line = line
        self.scratch = scratch
    }

    var atEnd: Bool {
        mutating get {
            skipSpace()
            return i == line.count
        }
    }

    mutating func skipSpace() {
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 || line[i] == 0x0D || line[i] == 0x0A { i += 1 }
    }

    mutating func skip(_ byte: UInt8) -> Bool {
        skipSpace()
        guard i < line.count, line[i] == byte else { return false }
        i += 1
        return true
    }

    /// A JSON string's decoded bytes, or `nil` if the text here is not a string.
    mutating func string() -> UnsafeBufferPointer<UInt8>? {
        guard skip(UInt8(ascii: "\"")) else { return nil }
        let start = i
        while i < line.count, line[i] != UInt8(ascii: "\""), line[i] != UInt8(ascii: "\\") { i += 1 }
        guard i < line.count else { return nil }
        if line[i] == UInt8(ascii: "\"") {
            i += 1
            return UnsafeBufferPointer(rebasing: line[start..<(i - 1)])
        }
        let outStart = used
        for k in start..<i { put(line[k]) }
        while i < line.count {
            let c = line[i]
            i += 1
            if c == UInt8(ascii: "\"") { return UnsafeBufferPointer(rebasing: UnsafeBufferPointer(scratch)[outStart..<used]) }
            guard c == UInt8(ascii: "\\") else { put(c); continue }
            guard i < line.count else { return nil }
            let e = line[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): put(e)
            case UInt8(ascii: "b"): put(0x08)
            case UInt8(ascii: "f"): put(0x0C)
            case UInt8(ascii: "n"): put(0x0A)
            case UInt8(ascii: "r"): put(0x0D)
            case UInt8(ascii: "t"): put(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4() else { return nil }
                if (0xD800..<0xDC00).contains(scalar) {
                    guard skipLiteral("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }
                for byte in UTF8.encode(unicode)! { put(byte) }
            default: return nil
            }
        }
        return nil
    }

    /// A value: a string's bytes, a number's literal text or empty for `null`; `.some(nil)` for
    /// any other JSON value (`true`, `false`, an object or an array: the field is malformed);
    /// `nil` when the line is not JSON.
    mutating func value() -> UnsafeBufferPointer<UInt8>?? {
        skipSpace()
        guard i < line.count else { return nil }
        let c = line[i]
        if c == UInt8(ascii: "\"") { return string().map { .some($0) } }
        if c == UInt8(ascii: "-") || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) {
            let start = i
            while i < line.count, isNumberByte(line[i]) { i += 1 }
            return .some(UnsafeBufferPointer(rebasing: line[start..<i]))
        }
        if skipLiteral("null") { return .some(UnsafeBufferPointer(start: line.baseAddress, count: 0)) }
        if skipLiteral("true") || skipLiteral("false") { return .some(nil) }
        if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { return skipNested() ? .some(nil) : nil }
        return nil
    }

    /// Skips a nested object or array (so that an extra key may hold one); `false` when it does
    /// not close or holds a bad string.
    private mutating func skipNested() -> Bool {
        var depth = 0
        while i < line.count {
            let c = line[i]
            if c == UInt8(ascii: "\"") {
                guard string() != nil else { return false }
                continue
            }
            i += 1
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                depth += 1
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return true }
            }
        }
        return false
    }

    private func isNumberByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
            || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
    }

    private mutating func skipLiteral(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard i + n <= line.count else { return false }
        for k in 0..<n where line[i + k] != literal.utf8Start[k] { return false }
        i += n
        return true
    }

    private mutating func hex4() -> UInt32? {
        guard i + 4 <= line.count else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = line[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: return nil
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func put(_ byte: UInt8) {
        scratch[used] = byte
        used += 1
    }
}
