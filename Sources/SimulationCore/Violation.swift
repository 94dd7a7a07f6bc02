/// A broken invariant, as both simulators report it: which one, what is wrong, the payments it concerns,
/// and, where the runner saw it during the world, when.
@_spi(Tooling) public struct Violation: Hashable, Sendable, CustomStringConvertible {
    /// The invariant broken.
    @_spi(Tooling) public var invariant: Invariant
    /// What is wrong, with the values that show it.
    @_spi(Tooling) public var detail: String
    /// The payments concerned, as the world names them (ids, and keys): the world's events that name one
    /// are the history around the violation.
    @_spi(Tooling) public var subjects: [String]
    /// The world's step at which it was seen; nil when only the end's checks saw it.
    @_spi(Tooling) public var step: Int?
    /// The virtual time at which it was seen; nil when only the end's checks saw it.
    @_spi(Tooling) public var time: Duration?
    /// The events of the payment concerned before it, oldest first, where the runner keeps them with the
    /// violation (the sans-I/O worlds; a seeded world's report holds the events of the whole world).
    @_spi(Tooling) public var history: [String]

    /// `invariant` broken as `detail` says, about `subjects`, seen at `step` and `time`.
    @_spi(Tooling) public init(
        _ invariant: Invariant, _ detail: String, subjects: [String] = [], step: Int? = nil, time: Duration? = nil, history: [String] = []
    ) {
        self.invariant = invariant
        self.detail = detail
        self.subjects = subjects
        self.step = step
        self.time = time
        self.history = history
    }

    /// `ledger-differs: u01 USD captured 2500, the gateway captured 1250`.
    @_spi(Tooling) public var description: String { "\(invariant.rawValue): \(detail)" }
}

extension Duration {
    /// The whole milliseconds of a duration (rounded toward zero): how the worlds print their time.
    @_spi(Tooling) public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
