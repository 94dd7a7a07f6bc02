/// How a replayed run's batches were made, before the run started.
@_spi(Tooling) public struct ReplayFigures: Sendable, Equatable {
    /// Events generated (one pass).
    @_spi(Tooling) public var events: Int
    /// Wall time of the generation, in seconds.
    @_spi(Tooling) public var seconds: Double

    /// Figures of all their fields.
    @_spi(Tooling) public init(events: Int, seconds: Double) {
        self.events = events
        self.seconds = seconds
    }
}
