/// A committed list of mutants, each with its reason: one `KEY -- REASON` a line, `#` starts a comment.
/// Mutation/equivalent-mutants.txt: those judged equivalent (no input can tell them from the original);
/// Mutation/open-survivors.txt: known open survivors, the reason saying what input would kill each.
public struct Equivalents: Sendable {
    /// Reasons, by mutant key.
    public private(set) var reasons: [String: String] = [:]

    /// The list in `text`; a line without a reason is an error naming the line.
    public init(parsing text: String, file: String = "equivalent-mutants.txt") throws {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let separator = line.range(of: " -- ") else {
                throw MutationError("\(file):\(number + 1): expected 'KEY -- REASON' (the reason is required)")
            }
            let reason = line[separator.upperBound...].trimmingCharacters(in: .whitespaces)
            guard !reason.isEmpty else { throw MutationError("\(file):\(number + 1): the reason is empty") }
            reasons[String(line[..<separator.lowerBound])] = reason
        }
    }

    /// Whether `mutant` is listed.
    public func contains(_ mutant: Mutant) -> Bool { reasons[mutant.key] != nil }
}

/// A deterministic sample of the mutants: the same seed, the same mutants, whatever their ids.
public enum MutantSample {
    /// `count` mutants drawn by `seed` (all of them when `count` is at least their number), in id order.
    public static func draw(_ count: Int, of mutants: [Mutant], seed: String) -> [Mutant] {
        guard count < mutants.count else { return mutants }
        var state = seed.utf8.reduce(UInt64(0xCBF2_9CE4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        var pool = mutants.sorted { $0.key < $1.key }
        for i in 0..<count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            pool.swapAt(i, i + Int(z % UInt64(pool.count - i)))
        }
        return pool[..<count].sorted { $0.id < $1.id }
    }
}
