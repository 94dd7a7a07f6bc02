import Simulation

/// Parsing of option values shared by `generate`, `run` and `baseline`; a bad value is an
/// `InvalidInput` (exit status 2) that names the option.
enum OptionValues {
    /// An integer option within `range`.
    static func integer(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw InvalidInput(message: "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// `--seed`: any unsigned 64-bit integer.
    static func seed(_ text: String) throws -> UInt64 {
        guard let value = UInt64(text) else { throw InvalidInput(message: "--seed must be an integer in 0...\(UInt64.max), not '\(text)'") }
        return value
    }

    /// `--shard k/n` with `0 <= k < n`.
    static func shard(_ text: String) throws -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(k) else {
            throw InvalidInput(message: "--shard must be k/n with 0 <= k < n, not '\(text)'")
        }
        return (k, n)
    }

    /// Applies `--users` and `--days` to a scenario.
    static func override(_ scenario: inout Scenario, users: String?, days: String?) throws {
        if let users { scenario.users = try integer(users, "--users", 1...Scenario.maximumUsers) }
        if let days { scenario.days = try integer(days, "--days", 1...Scenario.maximumDays) }
    }
}
