import Foundation
import Testing

/// docs/design.md's claims about formats, checked against the sources: the Parquet encodings its
/// table names are the ones the writer writes.
@Suite("The formats docs/design.md names")
struct DesignFormatsTests {
    /// The encodings of the Parquet format (parquet.thrift's `Encoding`).
    static let parquetEncodings: Set<String> = [
        "PLAIN", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED", "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
        "RLE_DICTIONARY", "BYTE_STREAM_SPLIT",
    ]

    /// The Parquet encodings `text` names.
    static func encodings(namedIn text: Substring) -> Set<String> {
        var words: Set<String> = []
        var word = ""
        for c in text + " " {
            if c.isUppercase || c == "_" { word.append(c) } else {
                if parquetEncodings.contains(word) { words.insert(word) }
                word = ""
            }
        }
        return words
    }

    /// The encodings the writer (`ColumnChunkEncoder`) writes: its `Encoding.camelCase` names in UPPER_SNAKE.
    static func writtenEncodings() throws -> Set<String> {
        let source = try String(contentsOf: repository.appendingPathComponent("Sources/Parquet/ColumnChunkEncoder.swift"), encoding: .utf8)
        var names: Set<String> = []
        var rest = Substring(source)
        while let at = rest.range(of: "Encoding.") {
            let name = rest[at.upperBound...].prefix(while: \.isLetter)
            rest = rest[at.upperBound...]
            guard !name.isEmpty, name.first!.isLowercase else { continue }
            names.insert(name.reduce(into: "") { snake, c in snake += c.isUppercase ? "_" + String(c) : c.uppercased() })
        }
        return names
    }

    /// The `Parquet` row of the design document's module table.
    static func parquetRow() throws -> Substring {
        let design = try String(contentsOf: repository.appendingPathComponent("docs/design.md"), encoding: .utf8)
        let row = try #require(design.split(separator: "\n").first { $0.hasPrefix("| `Parquet` |") })
        return row
    }

    @Test("the Parquet row names exactly the encodings the writer writes")
    func parquetEncodingsMatchWriter() throws {
        // Given the writer's encodings
        let written = try Self.writtenEncodings()
        // When the design document's Parquet row is read
        let claimed = Self.encodings(namedIn: try Self.parquetRow())
        // Then it names those, and the writer writes more than dictionaries
        #expect(claimed == written)
        #expect(written.contains("DELTA_BINARY_PACKED"))
    }

    @Test("the check finds a row that leaves the DELTA encodings out")
    func plantedFalseClaim() throws {
        // Given a row naming only PLAIN and RLE_DICTIONARY (the claim before the DELTA encodings)
        let sut: Substring = "| `Parquet` | `CZlib` | row groups encoded in parallel, PLAIN and RLE_DICTIONARY, page statistics |"
        // Then its encodings differ from the writer's
        #expect(Self.encodings(namedIn: sut) == ["PLAIN", "RLE_DICTIONARY"])
        #expect(Self.encodings(namedIn: sut) != (try Self.writtenEncodings()))
    }
}
