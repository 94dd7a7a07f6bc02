/// How the pages of a column chunk are compressed.
public enum ParquetCompression: String, Sendable, CaseIterable {
    /// Pages stored as encoded (codec UNCOMPRESSED).
    case none
    /// zlib's deflate in a gzip wrapper (codec GZIP).
    case gzip
    /// Zstandard at a fast level (codec ZSTD).
    case zstd
}

/// The value types a column may hold: each is one physical Parquet type with its logical type.
public enum ParquetType: Sendable, Equatable {
    /// INT64, logical type INTEGER(64, signed).
    case int64
    /// INT64, logical type TIMESTAMP(isAdjustedToUTC: true, unit: MICROS): microseconds since the Unix epoch.
    case timestampMicros
    /// DOUBLE (IEEE 754 binary64).
    case double
    /// BYTE_ARRAY, logical type STRING: UTF-8 bytes.
    case string
}

/// One column of a flat schema.
public struct ParquetColumnSchema: Sendable, Equatable {
    /// The column's name (its path in the schema).
    public var name: String
    /// The column's value type.
    public var type: ParquetType
    /// Whether rows may be null: OPTIONAL with definition levels, otherwise REQUIRED.
    public var nullable: Bool
    /// Whether the writer tries dictionary encoding (RLE_DICTIONARY); it falls back to PLAIN when the
    /// dictionary of a column chunk grows past 1 MiB.
    public var dictionary: Bool

    /// A column named `name` of `type`.
    public init(name: String, type: ParquetType, nullable: Bool = false, dictionary: Bool = false) {
        self.name = name
        self.type = type
        self.nullable = nullable
        self.dictionary = dictionary
    }
}

/// A flat schema: the file's columns in order (no nesting, no repetition).
public struct ParquetSchema: Sendable, Equatable {
    /// The columns, in file order.
    public var columns: [ParquetColumnSchema]

    /// A schema of `columns`.
    public init(columns: [ParquetColumnSchema]) {
        self.columns = columns
    }
}

/// Why a Parquet file could not be read or written: the file, the byte offset when known, and the reason.
public struct ParquetError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file's path or name.
    public var file: String
    /// The byte offset in the file where the problem was found, when known.
    public var offset: Int?
    /// What is wrong, in words.
    public var reason: String

    /// An error about `file` at `offset`.
    public init(file: String, offset: Int? = nil, reason: String) {
        self.file = file
        self.offset = offset
        self.reason = reason
    }

    /// "file: offset N: reason", or "file: reason" without an offset.
    public var description: String {
        if let offset { return "\(file): offset \(offset): \(reason)" }
        return "\(file): \(reason)"
    }
}

/// A reason without a file: what the inner layers throw; the reader and writer add the file and offset.
struct ParquetFormatError: Error, Equatable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
