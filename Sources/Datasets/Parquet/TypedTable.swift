import Parquet

/// The typed columns of rows of one dataset file, filled from CSV lines: a line goes in only when
/// every field is well-formed for its column (`TypedColumn`), else nothing is appended and the
/// caller keeps the line verbatim (`rejected_rows`).
public struct TypedTable: Sendable {
    /// The file the rows are of.
    public let kind: DatasetKind
    /// One column of values per column of `kind`.
    public private(set) var columns: [ParquetColumnValues]
    private let codes: [Code]
    private let categories: [[[UInt8]]]

    private enum Code: UInt8, Sendable { case id, optionalId, text, category, script, integer, time, decimal }

    /// Empty columns for `kind`, with room for `capacity` rows.
    public init(kind: DatasetKind, reservingCapacity capacity: Int = 0) {
        self.kind = kind
        let types = kind.typedColumns
        columns = types.map { ParquetColumnValues(type: $0.parquetType, nullable: $0.nullable, reservingCapacity: capacity) }
        codes = types.map { type in
            switch type {
            case .id: .id
            case .optionalId: .optionalId
            case .text: .text
            case .category: .category
            case .script: .script
            case .integer: .integer
            case .time: .time
            case .decimal: .decimal
            }
        }
        categories = types.map { type in
            if case .category(let values) = type { return values.map { Array($0.utf8) } }
            return []
        }
    }

    /// The rows held.
    public var rows: Int { columns.first?.count ?? 0 }

    /// Appends the row of a CSV line (no `\n`) when it has one field per column and every field is
    /// well-formed; returns whether it did.
    public mutating func append(csvLine line: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = codes.count
        return withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: count) { fields in
            var field = 0
            var start = 0
            for i in 0...line.count where i == line.count || line[i] == UInt8(ascii: ",") {
                guard field < count else { return false }
                fields[field] = UnsafeBufferPointer(rebasing: line[start..<i])
                field += 1
                start = i + 1
            }
            guard field == count else { return false }
            return append(fields: UnsafeBufferPointer(fields))
        }
    }

    /// Appends a row given as one field per column when every field is well-formed; returns
    /// whether it did.
    public mutating func append(fields: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>) -> Bool {
        precondition(fields.count == codes.count, "one field per column")
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: codes.count) { numbers in
            for (c, code) in codes.enumerated() {
                let field = fields[c]
                switch code {
                case .id: guard !field.isEmpty else { return false }
                case .optionalId, .text: break
                case .category: guard categories[c].contains(where: { $0.elementsEqual(field) }) else { return false }
                case .script: guard CanonicalText.isScript(field) else { return false }
                case .integer:
                    guard let v = CanonicalText.integer(field) else { return false }
                    numbers[c] = v
                case .time:
                    guard let v = CanonicalText.integer(field), v.magnitude <= CanonicalText.maximumSeconds.magnitude else { return false }
                    numbers[c] = v * CanonicalText.microsPerSecond
                case .decimal:
                    guard let v = CanonicalText.decimalMilli(field) else { return false }
                    numbers[c] = v
                }
            }
            for (c, code) in codes.enumerated() {
                switch code {
                case .id, .text, .category, .script: columns[c].append(utf8: fields[c])
                case .optionalId: if fields[c].isEmpty { columns[c].appendNull() } else { columns[c].append(utf8: fields[c]) }
                case .integer, .time: columns[c].append(numbers[c])
                case .decimal: columns[c].append(CanonicalText.double(milli: numbers[c]))
                }
            }
            return true
        }
    }

    /// Appends the rows of `other` (of the same kind).
    public mutating func append(contentsOf other: TypedTable) {
        for c in columns.indices { columns[c].append(contentsOf: other.columns[c]) }
    }

    /// Removes the rows, keeping the storage.
    public mutating func removeAll() {
        for c in columns.indices { columns[c].removeAll(keepingCapacity: true) }
    }
}
