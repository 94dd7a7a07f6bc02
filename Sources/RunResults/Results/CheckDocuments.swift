import Foundation
import PaymentsCore
import Scenarios

// The run result's check documents (`ResultJSON`): the replay, the differential check and the
// boundaries it reached. Property names are the JSON keys.
struct ReplayDocument: Codable {
    var events: Int
    var generation_s: Double
}

/// `check`: the differential check against the reference.
struct CheckDocument: Codable {
    var against: String
    var implementations: [String]
    var sample: Double
    var users: Int
    /// Absent when 0 (shards other than 0, results before the boundary population).
    var boundary_users: Int?
    var mismatches: Int
    var by_field: [String: Int]
    var listed: [Mismatch]
    var seconds: Double
    var boundaries: BoundariesDocument?

    init(_ report: CheckReport) {
        against = report.against
        implementations = report.implementations
        sample = report.sample
        users = report.users
        boundary_users = report.boundaryUsers > 0 ? report.boundaryUsers : nil
        mismatches = report.mismatches
        by_field = report.byField
        listed = report.listed
        seconds = report.seconds
        boundaries = BoundariesDocument(report.boundaries)
    }

    func report() throws -> CheckReport {
        guard sample > 0, sample <= 1 else { throw ResultDecodingError(message: "check.sample must be in (0, 1], not \(sample)") }
        guard users >= 0, boundary_users ?? 0 >= 0, mismatches >= 0, by_field.values.allSatisfy({ $0 >= 0 }) else {
            throw ResultDecodingError(message: "check counts must not be negative")
        }
        var report = CheckReport(sample: sample)
        report.against = against
        report.implementations = implementations
        report.users = users
        report.boundaryUsers = boundary_users ?? 0
        report.mismatches = mismatches
        report.byField = by_field
        report.listed = listed
        report.seconds = seconds
        if let boundaries { report.boundaries = try boundaries.coverage() }
        return report
    }
}

/// `check.boundaries`: the SPEC boundaries the checked users reached (absent in results before them).
struct BoundariesDocument: Codable {
    var exercised: Int
    var measured: Int
    var unreached: [String]
    /// Each measured entry's `[inside, outside]` counts, by id.
    var sides: [String: [Int]]

    init(_ coverage: BoundaryCoverage) {
        exercised = coverage.exercised
        measured = coverage.measured
        unreached = coverage.unreached.map { "\($0.boundary.id) (\($0.missing))" }
        sides = Dictionary(uniqueKeysWithValues: SpecBoundary.measured.map {
            ($0.id, [coverage.inside[$0.key.rawValue], coverage.outside[$0.key.rawValue]])
        })
    }

    func coverage() throws -> BoundaryCoverage {
        var inside = [Int](repeating: 0, count: SpecBoundary.catalogue.count), outside = inside
        for entry in SpecBoundary.catalogue {
            guard let counts = sides[entry.id] else { continue }
            guard counts.count == 2, counts.allSatisfy({ $0 >= 0 }) else {
                throw ResultDecodingError(message: "check.boundaries.sides.\(entry.id) must be [inside, outside] counts >= 0")
            }
            inside[entry.key.rawValue] = counts[0]
            outside[entry.key.rawValue] = counts[1]
        }
        return BoundaryCoverage(inside: inside, outside: outside)!
    }
}

/// The spellings of the payment states, in `PaymentState.allCases` order.
enum PaymentStateNames {
    static let all = PaymentState.allCases.map(\.rawValue)
}

/// The time series: each interval with figures, per stream.
