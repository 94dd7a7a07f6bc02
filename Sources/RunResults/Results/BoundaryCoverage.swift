@_spi(Tooling) import Scenarios

/// Which sides of each `SpecBoundary` the users a check compared reached: how many times the
/// reference's comparison fell exactly on the limit (`inside`) and one unit past it (`outside`).
@_spi(Tooling) public struct BoundaryCoverage: Sendable, Equatable {
    /// Times each entry's inside case occurred, by `SpecBoundary.Key` raw value.
    package private(set) var inside = [Int](repeating: 0, count: SpecBoundary.Key.allCases.count)
    /// Times each entry's outside case occurred.
    package private(set) var outside = [Int](repeating: 0, count: SpecBoundary.Key.allCases.count)

    /// Nothing reached yet.
    package init() {}

    /// Counts of all entries (by raw value), e.g. from a result file.
    package init?(inside: [Int], outside: [Int]) {
        guard inside.count == self.inside.count, outside.count == self.outside.count else { return nil }
        self.inside = inside
        self.outside = outside
    }

    /// Counts one case of `key`: `atLimit` the inside one, else the outside one.
    package mutating func record(_ key: SpecBoundary.Key, atLimit: Bool) {
        if atLimit { inside[key.rawValue] += 1 } else { outside[key.rawValue] += 1 }
    }

    /// Adds another part of the check's counts.
    package mutating func merge(_ other: BoundaryCoverage) {
        for i in inside.indices {
            inside[i] += other.inside[i]
            outside[i] += other.outside[i]
        }
    }

    /// The entries a check counts.
    package var measured: Int { SpecBoundary.measured.count }

    /// Measured entries whose both sides were reached.
    package var exercised: Int { SpecBoundary.measured.filter { inside[$0.key.rawValue] > 0 && outside[$0.key.rawValue] > 0 }.count }

    /// The measured entries not reached on both sides, each with the side(s) missing.
    package var unreached: [(boundary: SpecBoundary, missing: String)] {
        SpecBoundary.measured.compactMap { entry in
            switch (inside[entry.key.rawValue] > 0, outside[entry.key.rawValue] > 0) {
            case (true, true): nil
            case (true, false): (entry, "outside")
            case (false, true): (entry, "inside")
            case (false, false): (entry, "both sides")
            }
        }
    }

    /// `SPEC boundaries exercised: N of M`.
    package var headline: String { "SPEC boundaries exercised: \(exercised) of \(measured)" }

    /// The headline and the entries not reached: `…: 30 of 31; not reached: meals.window_omad (outside)`.
    @_spi(Tooling) public var line: String {
        unreached.isEmpty ? headline : headline + "; not reached: " + unreached.map { "\($0.boundary.id) (\($0.missing))" }.joined(separator: ", ")
    }
}
