#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import DatasetText
import Parquet

/// The typed columns of rows of one dataset file, filled from CSV lines: a line goes in only when
/// every field is well-formed for its column (`TypedColumn`), else nothing is appended and the
/// caller keeps the line verbatim (`rejected_rows`).
package struct TypedTable: Sendable {
    /// The file the rows are of.
    package let kind: DatasetKind
    /// One column of values per column of `kind`.
    package private(set) var columns: [ParquetColumnValues]
    private let codes: [Code]
    private let categories: [[[UInt8]]]

    private enum Code: UInt8, Sendable { case id, optionalId, text, category, script, integer, time, decimal }

    /// Empty columns for `kind`, with room for `capacity` rows.
    package init(kind: DatasetKind, reservingCapacity capacity: Int = 0) {
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
    package var rows: Int { columns.first?.count ?? 0 }

    /// Appends the row of a CSV line (no `\n`) when it has one field per column and every field is
    /// well-formed; returns whether it did.
    package mutating func append(csvLine line: UnsafeBufferPointer<UInt8>) -> Bool {
        var typed = false
        append(csvLines: UnsafeBufferPointer(start: line.baseAddress, count: line.count)) { _, _ in } typed: { typed = true }
        return typed
    }

    /// Types each `\n`-ended line of `text` (the last may lack its `\n`): appends its row when it has
    /// one field per column and every field is well-formed (`typed`), else calls `rejected` with the
    /// line's index and text. Returns the number of lines.
    @discardableResult
    package mutating func append(
        csvLines text: UnsafeBufferPointer<UInt8>, rejected: (Int, UnsafeBufferPointer<UInt8>) -> Void, typed: () -> Void = {}
    ) -> Int {
        guard let base = text.baseAddress, !text.isEmpty else { return 0 }
        let count = codes.count
        var lines = 0
        withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: count) { fields in
            withUnsafeTemporaryAllocation(of: Int64.self, capacity: count) { numbers in
                var start = 0
                while start < text.count {
                    let newline = memchr(base + start, Int32(UInt8(ascii: "\n")), text.count - start)
                    let end = newline.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? text.count
                    let line = UnsafeBufferPointer(start: base + start, count: end - start)
                    if split(line, into: fields), parse(fields, into: numbers) {
                        store(fields, numbers)
                        typed()
                    } else {
                        rejected(lines, line)
                    }
                    lines += 1
                    start = end + 1
                }
            }
        }
        return lines
    }

    /// Points `fields` at the fields of `line`; false unless it has exactly one field per column.
    private func split(_ line: UnsafeBufferPointer<UInt8>, into fields: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let base = line.baseAddress else { return false }
        var start = 0
        for f in 0..<fields.count {
            let comma = memchr(base + start, Int32(UInt8(ascii: ",")), line.count - start)
            let end = comma.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? line.count
            fields[f] = UnsafeBufferPointer(start: base + start, count: end - start)
            if comma == nil { return f == fields.count - 1 }
            start = end + 1
        }
        return false
    }

    /// Appends a row given as one field per column when every field is well-formed; returns
    /// whether it did.
    package mutating func append(fields: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>) -> Bool {
        precondition(fields.count == codes.count, "one field per column")
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: codes.count) { numbers in
            guard parse(fields, into: numbers) else { return false }
            store(fields, numbers)
            return true
        }
    }

    /// Checks every field, and parses the numbers into `numbers`.
    @inline(__always)
    private func parse(_ fields: some Collection<UnsafeBufferPointer<UInt8>>, into numbers: UnsafeMutableBufferPointer<Int64>) -> Bool {
        var c = 0
        for field in fields {
            switch codes[c] {
            case .id: guard !field.isEmpty else { return false }
            case .optionalId, .text: break
            case .category: guard isCategory(field, of: c) else { return false }
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
            c += 1
        }
        return true
    }

    @inline(__always)
    private func isCategory(_ field: UnsafeBufferPointer<UInt8>, of c: Int) -> Bool {
        for value in categories[c] where value.count == field.count {
            if value.withUnsafeBufferPointer({ memcmp($0.baseAddress!, field.baseAddress!, field.count) == 0 }) { return true }
        }
        return false
    }

    /// Appends the row of well-formed `fields` (numbers parsed by `parse`).
    @inline(__always)
    private mutating func store(_ fields: some Collection<UnsafeBufferPointer<UInt8>>, _ numbers: UnsafeMutableBufferPointer<Int64>) {
        let codes = codes
        columns.withUnsafeMutableBufferPointer { columns in
            var c = 0
            for field in fields {
                switch codes[c] {
                case .id, .text, .category, .script: columns[c].append(utf8: field)
                case .optionalId: if field.isEmpty { columns[c].appendNull() } else { columns[c].append(utf8: field) }
                case .integer, .time: columns[c].append(numbers[c])
                case .decimal: columns[c].append(CanonicalText.double(milli: numbers[c]))
                }
                c += 1
            }
        }
    }

    /// Calls `body` with the columns, to append rows whose values are well-formed by construction
    /// (a generator's): one value to every column a row, as the row's canonical text would type.
    package mutating func withColumns<R>(_ body: (UnsafeMutableBufferPointer<ParquetColumnValues>) throws -> R) rethrows -> R {
        try columns.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// Removes the rows, keeping the storage.
    package mutating func removeAll() {
        for c in columns.indices { columns[c].removeAll(keepingCapacity: true) }
    }
}
