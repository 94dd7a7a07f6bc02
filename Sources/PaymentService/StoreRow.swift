import GRDB
import PaymentsCore

/// A row of the SQLite store read with every value checked: a missing column, a value of another
/// type, out of its type's range, or naming no known case is a `StoreFailure` that names the
/// table, the row and the column; nothing read from the file can trap.
struct StoreRow {
    let row: Row
    /// Where the row is, for messages: `payments row 12`.
    let place: String

    init(_ row: Row, _ place: String) {
        self.row = row
        self.place = place
    }

    func failure(_ column: String, _ why: String) -> StoreFailure {
        StoreFailure("\(place): column \(column) \(why)")
    }

    private func value(_ column: String) throws(StoreFailure) -> DatabaseValue {
        guard row.hasColumn(column) else { throw failure(column, "is missing") }
        return row[column]
    }

    /// The integer in `column`, nil for NULL.
    func optionalInteger<T: FixedWidthInteger>(_ column: String, as type: T.Type = T.self) throws(StoreFailure) -> T? {
        switch try value(column).storage {
        case .null: return nil
        case .int64(let number):
            guard let value = T(exactly: number) else { throw failure(column, "holds \(number), outside \(T.min)...\(T.max)") }
            return value
        case .double(let number): throw failure(column, "holds the real \(number), not an integer")
        case .string(let text): throw failure(column, "holds the text '\(text.prefix(40))', not an integer")
        case .blob(let data): throw failure(column, "holds a blob of \(data.count) bytes, not an integer")
        }
    }

    /// The integer in `column`, which may not be NULL.
    func integer<T: FixedWidthInteger>(_ column: String, as type: T.Type = T.self) throws(StoreFailure) -> T {
        guard let value = try optionalInteger(column, as: T.self) else { throw failure(column, "is NULL, not an integer") }
        return value
    }

    /// The text in `column`, nil for NULL.
    func optionalText(_ column: String) throws(StoreFailure) -> String? {
        switch try value(column).storage {
        case .null: return nil
        case .string(let text): return text
        case .int64(let number): throw failure(column, "holds the integer \(number), not a text")
        case .double(let number): throw failure(column, "holds the real \(number), not a text")
        case .blob(let data): throw failure(column, "holds a blob of \(data.count) bytes, not a text")
        }
    }

    /// The text in `column`, which may not be NULL.
    func text(_ column: String) throws(StoreFailure) -> String {
        guard let value = try optionalText(column) else { throw failure(column, "is NULL, not a text") }
        return value
    }

    /// The case of `E` whose number `column` holds, nil for NULL.
    func optionalEnumCase<E: RawRepresentable & CaseIterable>(_ column: String, _ type: E.Type) throws(StoreFailure) -> E? where E.RawValue: FixedWidthInteger {
        guard let number = try optionalInteger(column, as: Int64.self) else { return nil }
        guard let raw = E.RawValue(exactly: number), let value = E(rawValue: raw) else { throw unknown(column, String(number), E.self) }
        return value
    }

    /// The case of `E` whose number `column` holds.
    func enumCase<E: RawRepresentable & CaseIterable>(_ column: String, _ type: E.Type) throws(StoreFailure) -> E where E.RawValue: FixedWidthInteger {
        guard let value = try optionalEnumCase(column, E.self) else { throw failure(column, "is NULL, not a \(Self.name(of: E.self))") }
        return value
    }

    /// The case of `E` whose name `column` holds, nil for NULL.
    func optionalEnumCase<E: RawRepresentable & CaseIterable>(_ column: String, _ type: E.Type) throws(StoreFailure) -> E? where E.RawValue == String {
        guard let text = try optionalText(column) else { return nil }
        guard let value = E(rawValue: text) else { throw unknown(column, "'\(text.prefix(40))'", E.self) }
        return value
    }

    /// The case of `E` whose name `column` holds.
    func enumCase<E: RawRepresentable & CaseIterable>(_ column: String, _ type: E.Type) throws(StoreFailure) -> E where E.RawValue == String {
        guard let value = try optionalEnumCase(column, E.self) else { throw failure(column, "is NULL, not a \(Self.name(of: E.self))") }
        return value
    }

    private func unknown<E: RawRepresentable & CaseIterable>(_ column: String, _ value: String, _ type: E.Type) -> StoreFailure {
        failure(column, "holds \(value), no \(Self.name(of: E.self)) (known: \(E.allCases.map { "\($0.rawValue)" }.joined(separator: ", ")))")
    }

    private static func name<E>(of type: E.Type) -> String { String(describing: type) }
}

extension GatewayScript {
    /// The script written as `script.text` (`T;L;D`; an empty text is an empty script); nil when a
    /// token is no response, or there are more than `capacity`.
    init?(parsing text: String) {
        var responses: [GatewayResponse] = []
        for token in text.split(separator: ";") {
            guard let response = GatewayResponse.allCases.first(where: { String($0.token) == token }) else { return nil }
            responses.append(response)
        }
        guard responses.count <= Self.capacity else { return nil }
        self.init(responses)
    }
}
