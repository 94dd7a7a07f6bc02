import Datasets

/// Builds one CSV row of a dataset kind: every column starts with a valid value (SPEC §1–§4),
/// and a test overrides only the columns it is about.
struct CSVRowBuilder {
    let kind: DatasetKind
    private(set) var values: [String: String]

    static var user: CSVRowBuilder {
        CSVRowBuilder(kind: .users, values: [
            "user_id": "u0000001", "utc_offset_minutes": "60", "protocol": "16:8", "sex": "female",
            "age": "34", "weight_kg": "61.5", "height_cm": "168", "activity": "moderate",
        ])
    }

    static var meal: CSVRowBuilder {
        CSVRowBuilder(kind: .meals, values: [
            "meal_id": "m0000001", "user_id": "u0000001", "start": "1700000000", "end": "1700001800",
            "type": "lunch", "kcal": "650.5", "protein_g": "30", "carbs_g": "70.25", "fat_g": "20",
        ])
    }

    static var step: CSVRowBuilder {
        CSVRowBuilder(kind: .steps, values: [
            "sample_id": "s0000001", "user_id": "u0000001", "source": "watch",
            "start": "1700000000", "end": "1700003600", "count": "1234.5",
        ])
    }

    static var payment: CSVRowBuilder {
        CSVRowBuilder(kind: .payments, values: [
            "payment_id": "p0000001", "idempotency_key": "k0000001", "user_id": "u0000001", "kind": "charge",
            "amount_minor": "1999", "currency": "USD", "created_at": "1700000000", "refund_of": "", "gateway": "A",
        ])
    }

    /// A copy with `column` set to `value`.
    func with(_ column: String, _ value: String) -> CSVRowBuilder {
        precondition(kind.columns.contains(column), "\(column) is not a column of \(kind)")
        var copy = self
        copy.values[column] = value
        return copy
    }

    /// The header of the kind's columns in file order.
    static func header(_ kind: DatasetKind) -> String { kind.columns.joined(separator: ",") }

    /// The row under `header(kind)`.
    var line: String { line(columns: kind.columns) }

    /// The row under a header listing `columns` (unknown names get the value `x`).
    func line(columns: [String]) -> String {
        columns.map { values[$0] ?? "x" }.joined(separator: ",")
    }
}

/// Builds one NDJSON row: each member's value is raw JSON text, so a test can write a string,
/// a number, `null` or anything else, or leave a key out.
struct NDJSONRowBuilder {
    private(set) var members: [(key: String, json: String)]

    /// The row of `csv` with integers as JSON numbers and everything else as JSON strings.
    init(_ csv: CSVRowBuilder) {
        members = csv.kind.columns.map { column in
            let value = csv.values[column]!
            let isInteger = !value.isEmpty && value.allSatisfy { $0.isASCII && $0.isNumber }
            return (column, isInteger ? value : "\"\(value)\"")
        }
    }

    /// A copy whose member `key` has the raw JSON `json` (added at the end when new).
    func with(_ key: String, json: String) -> NDJSONRowBuilder {
        var copy = self
        if let index = copy.members.firstIndex(where: { $0.key == key }) {
            copy.members[index].json = json
        } else {
            copy.members.append((key, json))
        }
        return copy
    }

    /// A copy without member `key`.
    func without(_ key: String) -> NDJSONRowBuilder {
        var copy = self
        copy.members.removeAll { $0.key == key }
        return copy
    }

    var line: String { "{" + members.map { "\"\($0.key)\": \($0.json)" }.joined(separator: ", ") + "}" }
}
