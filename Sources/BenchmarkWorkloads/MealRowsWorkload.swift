// The one-pass reading of canonical meals.csv rows (`CanonicalRows.meal`), the heart of `analyze`'s
// scan: a fixed, seeded text of one million lines held in memory, so only the parsing is timed.
import Datasets
@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore

/// `lines` valid meal lines of `users` numbered users (`u000000`…), as `simharness generate` and
/// the polars comparison's dataset write them, and the directory that resolves their users.
@_spi(Tooling) public struct MealRowsWorkload: Sendable {
    /// The canonical `meals.csv` lines.
    package let text: [UInt8]
    /// The users they name.
    package let users: UserDirectory
    /// Lines in `text`.
    @_spi(Tooling) public let lines: Int

    /// `lines` lines of `userCount` users, from `seed`.
    @_spi(Tooling) public init(lines: Int, users userCount: Int, seed: UInt64) {
        users = UserDirectory(profiles: (0..<userCount).map {
            UserProfile(id: Self.userId($0), utcOffsetMinutes: 0, fastingProtocol: .sixteenEight, sex: .female, age: 40,
                        weightKg: 60, heightCm: 165, activity: .light)
        })
        var random = SplitMix64(seed: seed)
        var text: [UInt8] = []
        text.reserveCapacity(lines * 72)
        let types = ["breakfast", "lunch", "dinner", "snack"]
        for i in 0..<lines {
            let start = 1_772_000_000 + Int(random.next() % 2_600_000)
            let kcal = Double(random.next() % 9_000) / 10 + 50
            let line = "m\(100_000_000 + i),\(Self.userId(Int(random.next() % UInt64(userCount)))),\(start),\(start + 600 + Int(random.next() % 1_800)),"
                + "\(types[i % 4]),\(kcal),\(Double(random.next() % 600) / 10),\(Double(random.next() % 900) / 10),\(Double(random.next() % 400) / 10)\n"
            text.append(contentsOf: line.utf8)
        }
        self.text = text
        self.lines = lines
    }

    static func userId(_ n: Int) -> String { "u" + String(String(n + 1_000_000).dropFirst()) }

    /// Reads every line; returns a checksum of the candidates (and stops on a line the fast path declines).
    /// A per-user regression adds nothing: the text is read as one, with no user's start to allocate at.
    @_spi(Tooling) public func run(injecting regression: InjectedRegression) -> UInt64 {
        text.withUnsafeBufferPointer { bytes in
            var checksum: UInt64 = 0
            var position = 0
            var line = 0
            while position < bytes.count {
                guard let (meal, idHash, lineEnd) = CanonicalRows.meal(bytes.baseAddress!, start: position, end: bytes.count, users: users) else {
                    preconditionFailure("the fast path declined line \(line + 1)")
                }
                checksum &+= idHash ^ UInt64(meal.user) ^ UInt64(bitPattern: meal.kcalMicros) ^ regression.perEvent(line)
                position = lineEnd + 1
                line += 1
            }
            return checksum
        }
    }
}
