/// What running one world found, for both simulators: the world (its configuration), the steps it ran,
/// the crashes of its service, the first invariant it broke, and what its runner counts besides
/// (`Counts`: the sans-I/O worlds' faults and payment states, a seeded world's trace hash and virtual
/// time). A runner's counts read as the report's own members: `report.faults`, `report.traceHash`.
@dynamicMemberLookup
@_spi(Tooling) public struct WorldReport<Configuration: Sendable, Counts: WorldCounts>: Sendable {
    /// The world.
    @_spi(Tooling) public var configuration: Configuration
    /// Steps it ran: the sans-I/O driver's events, the seeded executor's jobs.
    @_spi(Tooling) public var steps = 0
    /// Crashes of the service.
    @_spi(Tooling) public var crashes = 0
    /// The first broken invariant, nil when every one held.
    @_spi(Tooling) public var violation: Violation?
    /// What this runner counts besides.
    @_spi(Tooling) public var counts = Counts()

    /// The report of `configuration`'s world before it runs.
    @_spi(Tooling) public init(configuration: Configuration) { self.configuration = configuration }

    /// One of the runner's counts, changed in place (`report.states[state, default: 0] += 1` copies no
    /// dictionary: a getter and a setter would, once for every change).
    @_spi(Tooling) public subscript<Value>(dynamicMember path: WritableKeyPath<Counts, Value>) -> Value {
        get { counts[keyPath: path] }
        _modify { yield &counts[keyPath: path] }
    }
}

extension WorldReport: Equatable where Configuration: Equatable, Counts: Equatable {}
extension WorldReport: Hashable where Configuration: Hashable, Counts: Hashable {}

/// What a runner counts in a world besides its steps and crashes: zero before the world runs.
@_spi(Tooling) public protocol WorldCounts: Sendable {
    /// Nothing counted yet.
    init()
}
