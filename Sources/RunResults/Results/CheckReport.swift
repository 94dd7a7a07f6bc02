/// What the differential check found: the implementations under test against the SPEC reference,
/// on the same users (`run --check-against reference`).
@_spi(Tooling) public struct CheckReport: Sendable, Equatable {
    /// What the implementations were checked against.
    @_spi(Tooling) public var against = "reference"
    /// The implementations that are not the reference's (`fasting MyAnalyzer`).
    @_spi(Tooling) public var implementations: [String] = []
    /// The share of the users checked.
    @_spi(Tooling) public var sample: Double
    /// Users of the scenario checked.
    @_spi(Tooling) public var users = 0
    /// Users of the `BoundaryPopulation` checked besides them (0 on shards other than 0).
    @_spi(Tooling) public var boundaryUsers = 0
    /// Fields that differ from the reference's, a row missing or extra counting as one.
    @_spi(Tooling) public var mismatches = 0
    /// Mismatches per output field (`fasting_daily.eating_window_s`).
    @_spi(Tooling) public var byField: [String: Int] = [:]
    /// The first mismatches, in user order.
    @_spi(Tooling) public var listed: [Mismatch] = []
    /// Wall time of the check, in seconds (not part of the run's duration).
    @_spi(Tooling) public var seconds = 0.0
    /// The sides of each SPEC boundary the checked users reached.
    @_spi(Tooling) public var boundaries = BoundaryCoverage()

    /// A report of a check on `sample` of the users.
    @_spi(Tooling) public init(sample: Double) {
        self.sample = sample
    }

    /// Adds another shard's check: counts add up, the listed mismatches stay in user order.
    package mutating func merge(_ other: CheckReport) {
        let limit = max(listed.count, other.listed.count)
        implementations = Array(Set(implementations + other.implementations)).sorted()
        users += other.users
        boundaryUsers += other.boundaryUsers
        mismatches += other.mismatches
        byField.merge(other.byField, uniquingKeysWith: +)
        listed = Array((listed + other.listed).sorted { $0.user < $1.user }.prefix(limit))
        seconds = max(seconds, other.seconds)
        boundaries.merge(other.boundaries)
    }
}

/// One field of one output row where an implementation and the reference differ.
@_spi(Tooling) public struct Mismatch: Sendable, Equatable, Codable {
    /// The user id (`u0000042`).
    @_spi(Tooling) public var user: String
    /// The row: `day 2026-01-05`, `summary`, `payment p0000042-000003`, `ledger EUR`.
    @_spi(Tooling) public var row: String
    /// The output file's column (`fasting_daily.eating_window_s`), or the file's name when the row
    /// is missing on one side.
    @_spi(Tooling) public var field: String
    /// The implementation's value (`no row` when it has none).
    @_spi(Tooling) public var value: String
    /// The reference's value (`no row` when it has none).
    @_spi(Tooling) public var reference: String
    /// The user's UTC offset in minutes (`users.csv`), when known.
    @_spi(Tooling) public var utcOffsetMinutes: Int?
    /// The user's fasting protocol (`16:8`, `none`, …), when known.
    @_spi(Tooling) public var fastingProtocol: String?
    /// True for a user of the boundary population every check adds (`BoundaryPopulation`).
    @_spi(Tooling) public var boundaryUser: Bool?

    /// A mismatch of all its fields.
    @_spi(Tooling) public init(
        user: String, row: String, field: String, value: String, reference: String, utcOffsetMinutes: Int? = nil, fastingProtocol: String? = nil,
        boundaryUser: Bool? = nil
    ) {
        self.user = user
        self.row = row
        self.field = field
        self.value = value
        self.reference = reference
        self.utcOffsetMinutes = utcOffsetMinutes
        self.fastingProtocol = fastingProtocol
        self.boundaryUser = boundaryUser
    }

    private enum CodingKeys: String, CodingKey {
        case user, row, field, value, reference
        case utcOffsetMinutes = "utc_offset_min"
        case fastingProtocol = "protocol"
        case boundaryUser = "boundary_user"
    }

    /// The user's index in the scenario (`u0000042` is 42), nil for an id of another form.
    @_spi(Tooling) public var userIndex: Int? { user.first == "u" ? Int(user.dropFirst()) : nil }

    /// `UTC offset +345 min, protocol 16:8` (after `boundary user, ` for one), or nil when nothing is known.
    @_spi(Tooling) public var profileText: String? {
        let parts = [boundaryUser == true ? "boundary user" : nil, utcOffsetMinutes.map { "UTC offset \($0 < 0 ? "" : "+")\($0) min" }, fastingProtocol.map { "protocol \($0)" }].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// `u0000042 (UTC offset +60 min, protocol 16:8) day 2026-01-05 fasting_daily.eating_window_s: 3600, reference 7200`.
    @_spi(Tooling) public var text: String { "\(user)\(profileText.map { " (\($0))" } ?? "") \(row) \(field): \(value), reference \(reference)" }
}
