/// The four dataset files of SPEC §1–§4 and their columns.
public enum DatasetKind: String, CaseIterable, Sendable {
    case users, meals, steps, payments

    /// The columns, in the order `generate` writes them.
    public var columns: [String] {
        switch self {
        case .users: ["user_id", "utc_offset_minutes", "protocol", "sex", "age", "weight_kg", "height_cm", "activity"]
        case .meals: ["meal_id", "user_id", "start", "end", "type", "kcal", "protein_g", "carbs_g", "fat_g"]
        case .steps: ["sample_id", "user_id", "source", "start", "end", "count"]
        case .payments: ["payment_id", "idempotency_key", "user_id", "kind", "amount_minor", "currency", "created_at", "refund_of", "gateway"]
        }
    }

    /// Columns an NDJSON row may leave out (read as empty).
    package var optionalKeys: Set<String> { self == .payments ? ["refund_of"] : [] }
}

/// How a dataset is encoded: what `generate --format` writes and `analyze` finds.
public enum DatasetFormat: String, Sendable, CaseIterable {
    case csv, ndjson, sqlite, parquet
}
