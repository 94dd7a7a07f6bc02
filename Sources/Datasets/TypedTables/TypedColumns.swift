import DatasetText
@_spi(Tooling) import HealthCore
import Parquet
import PaymentsCore

/// How a dataset column is typed in Parquet (and in the typed SQLite views). A field is
/// well-formed for its column when it parses as the type and the typed value renders back to
/// exactly the field's text (`CanonicalText`), so a typed table loses and changes nothing.
public enum TypedColumn: Sendable, Equatable {
    /// A non-empty id (SPEC §0: an empty id is malformed); `dictionary` for low cardinality.
    case id(dictionary: Bool)
    /// An id that may be empty (`refund_of`): empty is null.
    case optionalId
    /// Any text (`idempotency_key`, `currency`, `sex`, `activity`).
    case text(dictionary: Bool)
    /// One of SPEC's enum values (`type`, `source`, `kind`, `protocol`).
    case category([String])
    /// A gateway script: `A`, `D`, `T`, `L` tokens joined by `;`.
    case script
    /// A canonical integer `-?(0|[1-9][0-9]*)` in the signed 64-bit range.
    case integer
    /// Seconds since the epoch, a canonical integer, stored as microseconds (so at most
    /// `Int64.max / 1_000_000` in magnitude).
    case time
    /// A canonical decimal `-?(0|[1-9][0-9]*)(\.[0-9]{0,2}[1-9])?`, at most 12 integer digits, not
    /// `-0`: exactly a number of thousandths, stored as a DOUBLE; `dictionary` for low cardinality
    /// (step counts: whole numbers of a small range).
    case decimal(dictionary: Bool)

    /// The Parquet type of the column.
    public var parquetType: ParquetType {
        switch self {
        case .id, .optionalId, .text, .category, .script: .string
        case .integer: .int64
        case .time: .timestampMicros
        case .decimal: .double
        }
    }

    /// Whether the column holds nulls (an empty field).
    public var nullable: Bool { self == .optionalId }

    /// Whether the column is dictionary-encoded.
    public var dictionary: Bool {
        switch self {
        case .id(let d), .text(let d), .decimal(let d): d
        case .category, .script: true
        case .optionalId, .integer, .time: false
        }
    }
}

extension DatasetKind {
    /// The type of each column, in `columns` order.
    public var typedColumns: [TypedColumn] {
        switch self {
        case .users:
            [.id(dictionary: false), .integer, .category(FastingProtocol.allCases.map(\.name)), .text(dictionary: true), .integer,
             .decimal(dictionary: false), .decimal(dictionary: false), .text(dictionary: true)]
        case .meals:
            [.id(dictionary: false), .id(dictionary: true), .time, .time, .category(MealType.allCases.map(\.name)),
             .decimal(dictionary: false), .decimal(dictionary: false), .decimal(dictionary: false), .decimal(dictionary: false)]
        case .steps:
            [.id(dictionary: false), .id(dictionary: true), .category([StepSource.watch, .phone].map(\.name)), .time, .time, .decimal(dictionary: true)]
        case .payments:
            [.id(dictionary: false), .text(dictionary: false), .id(dictionary: true), .category(PaymentKind.allCases.map(\.name)), .integer,
             .text(dictionary: true), .time, .optionalId, .script]
        }
    }

    /// The Parquet schema of the typed table.
    public var parquetSchema: ParquetSchema {
        ParquetSchema(columns: zip(columns, typedColumns).map { name, type in
            ParquetColumnSchema(name: name, type: type.parquetType, nullable: type.nullable, dictionary: type.dictionary)
        })
    }
}

/// The companion table of rows that could not be typed: `table`, `line` (the row's line in the
/// CSV file of the same seed and shard, the header being line 1) and `raw` (that line's text).
package enum RejectedRows {
    /// The table's base name.
    package static let name = "rejected_rows"
    /// Its columns.
    package static let columns = ["table", "line", "raw"]
    /// Its Parquet schema.
    package static var schema: ParquetSchema {
        ParquetSchema(columns: [
            ParquetColumnSchema(name: "table", type: .string, dictionary: true),
            ParquetColumnSchema(name: "line", type: .int64),
            ParquetColumnSchema(name: "raw", type: .string),
        ])
    }
}
