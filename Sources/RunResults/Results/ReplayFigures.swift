/// How a replayed run's batches were made, before the run started.
public struct ReplayFigures: Sendable, Equatable {
    /// Events generated (one pass).
    public var events: Int
    /// Wall time of the generation, in seconds.
    public var seconds: Double

    /// Figures of all their fields.
    public init(events: Int, seconds: Double) {
        self.events = events
        self.seconds = seconds
    }
}
