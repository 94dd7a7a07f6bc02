import Foundation
import ArgumentParser

/// The typed option values of every command: a bad value is a usage error (exit status 2, as every
/// bad option of every command) that says what is allowed, the same way in every command.
enum OptionValue {
    /// An integer in `range`.
    static func integer(in range: ClosedRange<Int>) -> @Sendable (String) throws -> Int {
        { text in
            guard let value = Int(text), range.contains(value) else {
                throw ValidationError("must be an integer in \(range.lowerBound)...\(range.upperBound), not '\(text)'")
            }
            return value
        }
    }

    /// Degrees of parallelism (`--tasks`).
    static let tasks = integer(in: 1...1024)

    /// Integers in `range`, comma separated (`simulate --kills 120,340`).
    static func integers(in range: ClosedRange<Int>) -> @Sendable (String) throws -> [Int] {
        let one = integer(in: range)
        return { text in try text.split(separator: ",", omittingEmptySubsequences: false).map { try one(String($0)) } }
    }

    /// A seed (`--seed`, `simulate --from`): any unsigned 64-bit integer, decimal or `0x` hex (as
    /// `simulate`'s reproduce lines write it).
    @Sendable static func seed(_ text: String) throws -> UInt64 {
        let value = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let value else { throw ValidationError("must be an integer in 0...\(UInt64.max), decimal or 0x hex, not '\(text)'") }
        return value
    }

    /// A duration (`run --duration`, `simulate --time-limit`): `500ms`, `30s`, `5m`, `2h`, `1h30m`
    /// or seconds; positive, at most a year.
    @Sendable static func duration(_ text: String) throws -> Duration {
        var seconds = 0.0, digits = "", parsed = Double(text)
        var rest = Substring(text)
        while parsed == nil, let c = rest.first {
            if c.isNumber || c == "." {
                digits.append(c)
                rest = rest.dropFirst()
                continue
            }
            let unit = [("ms", 0.001), ("s", 1.0), ("m", 60.0), ("h", 3600.0)].first { rest.hasPrefix($0.0) }
            guard let unit, let value = Double(digits) else { break }
            seconds += value * unit.1
            rest = rest.dropFirst(unit.0.count)
            digits = ""
            if rest.isEmpty { parsed = seconds }
        }
        guard let parsed, parsed > 0, parsed <= 8_760 * 3_600 else {
            throw ValidationError("must be a positive duration up to 8760h such as 500ms, 30s, 5m or 1h30m, not '\(text)'")
        }
        return .seconds(parsed)
    }

    /// `--interval`: a whole number of milliseconds (`ms`), seconds (`s`) or minutes (`m`), from
    /// 100 ms to 1 hour.
    @Sendable static func interval(_ text: String) throws -> Duration {
        let units: [(String, Int)] = [("ms", 1), ("s", 1_000), ("m", 60_000)]
        for (suffix, millis) in units where text.hasSuffix(suffix) {
            if let value = Int(text.dropLast(suffix.count)), case let (total, false) = value.multipliedReportingOverflow(by: millis),
               (100...3_600_000).contains(total) {
                return .milliseconds(total)
            }
        }
        throw ValidationError("must be a duration from 100ms to 60m such as 500ms, 1s or 1m, not '\(text)'")
    }

    /// A share of a whole, above 0 and at most 1 (`--check-sample 0.01`).
    @Sendable static func share(_ text: String) throws -> Double {
        guard let value = Double(text), value > 0, value <= 1 else { throw ValidationError("must be a number above 0 and at most 1, not '\(text)'") }
        return value
    }

    /// The environment variables `--shard env/n` reads its index from, in order: one a CI matrix
    /// sets, and the one Kubernetes Indexed Jobs set.
    static let shardIndexVariables = ["SIMHARNESS_SHARD_INDEX", "JOB_COMPLETION_INDEX"]

    /// `--shard k/n` with `0 <= k < n`, or `env/n` with `k` from the environment.
    @Sendable static func shard(_ text: String) throws -> Shard {
        try shard(text, environment: ProcessInfo.processInfo.environment)
    }

    static func shard(_ text: String, environment: [String: String]) throws -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let n = Int(parts[1]), n >= 1 else {
            throw ValidationError("must be k/n with 0 <= k < n, or env/n, not '\(text)'")
        }
        if parts[0] == "env" {
            let found = shardIndexVariables.lazy.compactMap { name in environment[name].map { (name, $0) } }.first
            guard let (name, value) = found else {
                throw ValidationError("env/\(n) takes the shard from \(shardIndexVariables.joined(separator: " or ")), and neither is set")
            }
            guard let k = Int(value), (0..<n).contains(k) else {
                throw ValidationError("env/\(n): \(name) must be an integer in 0...\(n - 1), not '\(value)'")
            }
            return Shard(index: k, count: n)
        }
        guard let k = Int(parts[0]), (0..<n).contains(k) else {
            throw ValidationError("must be k/n with 0 <= k < n, or env/n, not '\(text)'")
        }
        return Shard(index: k, count: n)
    }
}

/// Shard `index` of `count`: the users (`run`, `generate`) or the worlds (`simulate`) whose index `i`
/// has `i mod count == index`.
struct Shard: Sendable {
    var index = 0
    var count = 1

    /// `--shard`'s help, one wording for every command: which `part` of the work shard k runs, and
    /// where `env/n` finds `k`.
    static func help(_ part: String) -> ArgumentHelp {
        ArgumentHelp("""
            Run only shard k of n: \(part) (as k/n; or env/n, k from \(OptionValue.shardIndexVariables.joined(separator: " or ")), \
            as a CI matrix or a Kubernetes Indexed Job sets it).
            """)
    }
}

/// The degree of parallelism when none is given: the number of cores.
enum Cores {
    static var count: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
