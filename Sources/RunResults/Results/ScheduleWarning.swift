/// A paced run (arrival_rate, ramping) that fell behind its schedule or dropped events while no
/// threshold judges either: it must not read as a plain pass. Summary and reports show it as a
/// warning; `run --strict` (or `load.strict: true`) turns the same limits into thresholds that fail.
@_spi(Tooling) public struct ScheduleWarning: Sendable, Equatable {
    /// The most a batch started after it was due, in seconds.
    @_spi(Tooling) public var behindSeconds: Double
    /// Events due before the end that were never analyzed.
    @_spi(Tooling) public var droppedEvents: Int

    /// Lag up to this many seconds is not worth a warning (a batch always starts a little after it is due).
    @_spi(Tooling) public static let lagToleranceSeconds = 1.0

    /// The thresholds `--strict` adds to a paced plan that has none on these metrics.
    @_spi(Tooling) public static let strictThresholds = [
        Threshold(metric: "dropped_events", comparison: .equal, value: 0),
        Threshold(metric: "behind_schedule_s", comparison: .lessOrEqual, value: lagToleranceSeconds),
    ]

    /// The thresholds of `strictThresholds` whose concern none of `metrics` judges: drops are judged
    /// by any `dropped_events` metric (`dropped_events`, `meals.dropped_events`, …), lag by `behind_schedule_s`.
    @_spi(Tooling) public static func unjudged(by metrics: [String]) -> [Threshold] {
        strictThresholds.filter { strict in
            !metrics.contains { strict.metric == "dropped_events" ? $0.hasSuffix("dropped_events") : $0 == strict.metric }
        }
    }

    /// The warning `result` deserves: events dropped while no threshold is on a `dropped_events`
    /// metric, or more than `lagToleranceSeconds` behind while none is on `behind_schedule_s`.
    @_spi(Tooling) public init?(_ result: RunResult) {
        let unjudged = Set(Self.unjudged(by: result.thresholds.map(\.threshold.metric)).map(\.metric))
        let dropped = result.metrics.total.dropped
        let behind = result.metrics.behindScheduleSeconds
        let unjudgedDrops = dropped > 0 && unjudged.contains("dropped_events")
        let unjudgedLag = behind > Self.lagToleranceSeconds && unjudged.contains("behind_schedule_s")
        guard unjudgedDrops || unjudgedLag else { return nil }
        behindSeconds = behind
        droppedEvents = dropped
    }

    /// `the paced load fell 9.600 s behind its schedule and dropped 1,460,000 events, and no threshold …`.
    @_spi(Tooling) public var text: String {
        "the paced load fell \(Summary.fixed(behindSeconds, 3)) s behind its schedule and dropped \(Summary.count(droppedEvents)) events, "
            + "and no threshold judges that: add thresholds on dropped_events and behind_schedule_s, "
            + "or make it fail with run --strict (or load.strict: true)"
    }
}

extension RunResult {
    /// The warning of a paced run that missed its schedule unjudged, nil otherwise.
    @_spi(Tooling) public var scheduleWarning: ScheduleWarning? { ScheduleWarning(self) }
}
