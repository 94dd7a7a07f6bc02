import DatasetText

/// The typed views of a `--format sqlite` dataset (`meals_typed`, …): over the rows of the TEXT
/// table whose every field is well-formed for its column (`TypedColumn`, the same rule as the
/// Parquet tables: ids non-empty, enums known, integers and decimals in canonical text), with
/// INTEGER and REAL columns (times in seconds, `refund_of` NULL when empty). Plain SQL (`GLOB`,
/// `CAST`), so any SQLite client and DuckDB's SQLite reader can use them.
package enum SQLiteTypedViews {
    /// The view's name: `meals_typed`.
    package static func name(_ kind: DatasetKind) -> String { kind.rawValue + "_typed" }

    /// The statement creating the view of `kind` (dropping an older one).
    package static func createStatement(_ kind: DatasetKind) -> String {
        let pairs = zip(kind.columns, kind.typedColumns).map { column, type in (column: "\"\(column)\"", type: type) }
        let selected = pairs.map { "\(value($0.column, $0.type)) AS \($0.column)" }.joined(separator: ", ")
        let wellFormed = pairs.compactMap { check($0.column, $0.type) }.joined(separator: " AND ")
        return "DROP VIEW IF EXISTS \(name(kind)); CREATE VIEW \(name(kind)) AS SELECT \(selected) FROM \"\(kind.rawValue)\" WHERE \(wellFormed)"
    }

    static func value(_ c: String, _ type: TypedColumn) -> String {
        switch type {
        case .integer, .time: "CAST(\(c) AS INTEGER)"
        case .decimal: "CAST(\(c) AS REAL)"
        case .optionalId: "NULLIF(\(c), '')"
        case .id, .text, .category, .script: c
        }
    }

    /// The SQL condition that `c` is well-formed for `type`, `nil` when any text is.
    static func check(_ c: String, _ type: TypedColumn) -> String? {
        switch type {
        case .id: return "\(c) <> ''"
        case .optionalId, .text: return nil
        case .category(let values): return "\(c) IN (" + values.map { "'\($0)'" }.joined(separator: ", ") + ")"
        case .script:
            // Letters at even places, `;` at odd ones, an odd length.
            let letters = "replace(replace(replace(replace(\(c), 'A', 'X'), 'D', 'X'), 'T', 'X'), 'L', 'X')"
            return "(\(c) NOT GLOB '*[^ADTL;]*' AND length(\(c)) % 2 = 1 AND \(letters) = substr(replace(hex(zeroblob(length(\(c)))), '00', 'X;'), 1, length(\(c))))"
        case .integer: return "CAST(CAST(\(c) AS INTEGER) AS TEXT) = \(c)"
        case .time:
            let bound = CanonicalText.maximumSeconds
            return "(CAST(CAST(\(c) AS INTEGER) AS TEXT) = \(c) AND CAST(\(c) AS INTEGER) BETWEEN -\(bound) AND \(bound))"
        case .decimal:
            let body = "(CASE WHEN substr(\(c), 1, 1) = '-' THEN substr(\(c), 2) ELSE \(c) END)"
            let integer = "(CASE WHEN instr(\(body), '.') > 0 THEN substr(\(body), 1, instr(\(body), '.') - 1) ELSE \(body) END)"
            let fraction = "(CASE WHEN instr(\(body), '.') > 0 THEN substr(\(body), instr(\(body), '.') + 1) END)"
            return "(\(c) <> '-0' AND \(integer) <> '' AND \(integer) NOT GLOB '*[^0-9]*' AND (\(integer) = '0' OR \(integer) NOT GLOB '0*')"
                + " AND length(\(integer)) <= \(CanonicalText.maximumDecimalDigits)"
                + " AND (\(fraction) IS NULL OR (length(\(fraction)) BETWEEN 1 AND 3 AND \(fraction) NOT GLOB '*[^0-9]*' AND \(fraction) GLOB '*[1-9]')))"
        }
    }
}
