import Datasets
import Testing

/// Calls `body` with the UTF-8 bytes of `text`.
func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try Array(text.utf8).withUnsafeBufferPointer(body)
}

/// Calls `body` with the bytes of `a` and `b`.
func withBytes<R>(_ a: String, _ b: String, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    try withBytes(a) { x in try withBytes(b) { y in try body(x, y) } }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes as text, for readable expectations.
    var text: String { String(decoding: self, as: UTF8.self) }
}

/// What a tokenizer made of one line, with every field's text: a value to compare in `#expect`.
struct TokenizedLine: Equatable, CustomStringConvertible {
    var line: RowTokenizer.Line
    var fields: [String: String]

    var description: String { "\(line) \(fields.sorted { $0.key < $1.key })" }
}

extension RowTokenizer {
    /// Tokenizes `text` (one line, without its `\n`) and reads back every field.
    func tokenizing(_ text: String) -> TokenizedLine {
        withBytes(text) { bytes in
            let line = tokenize(bytes)
            var fields: [String: String] = [:]
            for (index, column) in kind.columns.enumerated() { fields[column] = self.fields[index].text }
            return TokenizedLine(line: line, fields: fields)
        }
    }

    /// A CSV tokenizer for the kind's columns in file order.
    static func csv(_ kind: DatasetKind) throws -> RowTokenizer {
        try withBytes(CSVRowBuilder.header(kind)) { try RowTokenizer(kind: kind, csvHeader: $0, file: "\(kind.rawValue).csv") }
    }
}

/// Tokenizes `row` under its kind's standard CSV header and calls `body` with the fields.
func withFields<R>(
    _ row: CSVRowBuilder, _ body: (UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) throws -> R
) throws -> R {
    let tokenizer = try RowTokenizer.csv(row.kind)
    return try withBytes(row.line) { bytes in
        try #require(tokenizer.tokenize(bytes) == .row)
        return try body(tokenizer.fields)
    }
}
