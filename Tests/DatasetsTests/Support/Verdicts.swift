import Datasets
@_spi(Tooling) import HealthCore
import UserProfiles

/// A decoder's verdict with reasons and columns by name, for readable expectations.
enum Decoded<Row: Equatable & Sendable>: Equatable, Sendable {
    case accepted(Row, idHash: UInt64)
    case rejected(_ reason: String, column: String?, user: UInt32)

    /// The accepted row, `nil` when rejected.
    var accepted: Row? {
        guard case .accepted(let row, _) = self else { return nil }
        return row
    }
}

extension RowVerdict where Row: Equatable & Sendable {
    func named(reasons: [String], columns: [String]) -> Decoded<Row> {
        switch self {
        case .accepted(let row, let idHash): .accepted(row, idHash: idHash)
        case .rejected(let reason, let column, let user):
            .rejected(reasons[Int(reason)], column: column < 0 ? nil : columns[Int(column)], user: user)
        }
    }
}

/// The users `u0000001` (index 0) and `u0000002` (index 1).
let twoUsers = UserDirectory(profiles: ["u0000002", "u0000001"].map {
    UserProfile(id: $0, utcOffsetMinutes: 0, fastingProtocol: .sixteenEight, sex: .female, age: 30, weightKg: 60, heightCm: 165, activity: .light)
})

/// Decodes `row` as a meal against `twoUsers`.
func decodeMeal(_ row: CSVRowBuilder) throws -> Decoded<MealCandidate> {
    try withFields(row) {
        RowDecoders.meal($0, users: twoUsers).named(reasons: MealRejection.allCases.map(\.rawValue), columns: DatasetKind.meals.columns)
    }
}

/// Decodes `row` as a step sample against `twoUsers`.
func decodeStep(_ row: CSVRowBuilder) throws -> Decoded<StepCandidate> {
    try withFields(row) {
        RowDecoders.step($0, users: twoUsers).named(reasons: StepRejection.allCases.map(\.rawValue), columns: DatasetKind.steps.columns)
    }
}

func hashOf(_ id: String) -> UInt64 { withBytes(id) { FieldParsing.hash($0) } }
