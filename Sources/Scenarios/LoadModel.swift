/// How `simharness run` loads the analyzers (the scenario's `load:` section), like k6's executors.
@_spi(Tooling) public enum LoadModel: Sendable, Equatable {
    /// Every user of the scenario once (users × days), as fast as possible.
    case fixed
    /// Passes over the population, as fast as possible, until the duration has passed.
    case duration(Duration)
    /// A constant rate of events per second paced against the wall clock, for a duration.
    case arrivalRate(eventsPerSecond: Double, duration: Duration)
    /// An arrival rate that moves linearly from one stage's target to the next (stress, spike).
    case ramping(startRate: Double, stages: [RampStage])
    /// Like `duration`, for long runs: fails when resident memory grows faster than the slope.
    case soak(duration: Duration, maxRSSSlopeMBPerMinute: Double)

    /// The name used in scenario files and reports.
    @_spi(Tooling) public var name: String {
        switch self {
        case .fixed: "fixed"
        case .duration: "duration"
        case .arrivalRate: "arrival_rate"
        case .ramping: "ramping"
        case .soak: "soak"
        }
    }

    /// Whether the run makes more than one pass over the population (pass `k` uses seed + k).
    @_spi(Tooling) public var repeats: Bool { self != .fixed }

    /// The wall-clock time after which no new batch starts.
    @_spi(Tooling) public var timeLimit: Duration? {
        switch self {
        case .fixed: nil
        case .duration(let d), .soak(let d, _): d
        case .arrivalRate, .ramping: schedule.map { .seconds($0.totalSeconds) }
        }
    }

    /// The arrival schedule of the paced models.
    @_spi(Tooling) public var schedule: ArrivalSchedule? {
        switch self {
        case .fixed, .duration, .soak: nil
        case .arrivalRate(let rate, let duration):
            ArrivalSchedule(startRate: rate, stages: [RampStage(duration: duration, target: rate)])
        case .ramping(let start, let stages): ArrivalSchedule(startRate: start, stages: stages)
        }
    }

    /// A short description for reports, e.g. `arrival_rate 2000000/s for 10s`.
    @_spi(Tooling) public var summary: String {
        switch self {
        case .fixed: "fixed"
        case .duration(let d): "duration \(d.shortText)"
        case .arrivalRate(let rate, let d): "arrival_rate \(rate.compactText)/s for \(d.shortText)"
        case .ramping(let start, let stages):
            "ramping from \(start.compactText)/s: " + stages.map { "\($0.target.compactText)/s over \($0.duration.shortText)" }.joined(separator: ", ")
        case .soak(let d, let slope): "soak \(d.shortText), RSS slope < \(slope.compactText) MB/min"
        }
    }
}

/// One stage of a ramping load: the rate moves linearly to `target` events/s over `duration`.
@_spi(Tooling) public struct RampStage: Sendable, Equatable {
    /// How long the stage lasts.
    @_spi(Tooling) public var duration: Duration
    /// The rate, in events per second, at its end.
    @_spi(Tooling) public var target: Double

    /// A stage of a ramping load.
    @_spi(Tooling) public init(duration: Duration, target: Double) {
        self.duration = duration
        self.target = target
    }
}

/// A piecewise-linear arrival rate and the instant at which the n-th event is due.
@_spi(Tooling) public struct ArrivalSchedule: Sendable, Equatable {
    /// Each stage as seconds, starting rate and ending rate.
    private let segments: [(seconds: Double, from: Double, to: Double)]

    /// A schedule that starts at `startRate` and follows `stages`.
    @_spi(Tooling) public init(startRate: Double, stages: [RampStage]) {
        var rate = startRate
        var segments: [(Double, Double, Double)] = []
        for stage in stages {
            segments.append((stage.duration.secondsValue, rate, stage.target))
            rate = stage.target
        }
        self.segments = segments
    }

    /// The same segments.
    @_spi(Tooling) public static func == (a: ArrivalSchedule, b: ArrivalSchedule) -> Bool {
        a.segments.elementsEqual(b.segments, by: ==)
    }

    /// The schedule's length in seconds.
    @_spi(Tooling) public var totalSeconds: Double { segments.reduce(0) { $0 + $1.seconds } }

    /// The events the schedule holds in all.
    @_spi(Tooling) public var totalEvents: Double { segments.reduce(0) { $0 + $1.seconds * ($1.from + $1.to) / 2 } }

    /// Seconds from the start at which `events` events have arrived; nil when the schedule ends first.
    @_spi(Tooling) public func dueSeconds(afterEvents events: Double) -> Double? {
        var elapsed = 0.0
        var remaining = events
        for segment in segments {
            let inSegment = segment.seconds * (segment.from + segment.to) / 2
            if remaining <= inSegment, inSegment > 0 {
                return elapsed + Self.time(toReach: remaining, from: segment.from, to: segment.to, over: segment.seconds)
            }
            remaining -= inSegment
            elapsed += segment.seconds
        }
        return remaining <= 0 ? elapsed : nil
    }

    /// Events that have arrived `seconds` after the start (all of them after the end).
    @_spi(Tooling) public func events(bySeconds seconds: Double) -> Double {
        var elapsed = 0.0
        var total = 0.0
        for segment in segments {
            let t = min(max(seconds - elapsed, 0), segment.seconds)
            guard segment.seconds > 0 else { continue }
            total += segment.from * t + (segment.to - segment.from) * t * t / (2 * segment.seconds)
            elapsed += segment.seconds
        }
        return total
    }

    /// The same stages with every rate multiplied by `factor` (a shard's share of the load).
    @_spi(Tooling) public func scaled(by factor: Double) -> ArrivalSchedule {
        ArrivalSchedule(segments: segments.map { ($0.seconds, $0.from * factor, $0.to * factor) })
    }

    private init(segments: [(seconds: Double, from: Double, to: Double)]) {
        self.segments = segments
    }

    /// Solves `n = r0·t + (r1 − r0)·t² / (2T)` for t in [0, T].
    private static func time(toReach n: Double, from r0: Double, to r1: Double, over span: Double) -> Double {
        let a = (r1 - r0) / (2 * span)
        if abs(a) < 1e-12 { return n / r0 }
        let t = (-r0 + (r0 * r0 + 4 * a * n).squareRoot()) / (2 * a)
        return min(max(t, 0), span)
    }
}

extension Duration {
    /// `500ms`, `10s`, `5m`, `1h30m`: the shortest exact spelling.
    package var shortText: String {
        let millis = Int64((secondsValue * 1000).rounded())
        if millis % 1000 != 0 { return "\(millis)ms" }
        var s = millis / 1000
        var text = ""
        if s >= 3600 { text += "\(s / 3600)h"; s %= 3600 }
        if s >= 60 { text += "\(s / 60)m"; s %= 60 }
        if s > 0 || text.isEmpty { text += "\(s)s" }
        return text
    }
}

extension Duration {
    /// The duration in seconds.
    var secondsValue: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}

extension Double {
    /// An integer without a fraction when it is one (`2000000`), else the shortest decimal.
    package var compactText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}

extension LoadModel {
    /// This load with its duration and/or constant arrival rate replaced (`run --duration`,
    /// `run --rate`); a message saying why when the model has no such setting. A duration turns
    /// `fixed` into `duration`; a rate turns `duration` into `arrival_rate` (so does a rate with a
    /// duration on `fixed`); `ramping` keeps its stages and `soak` its as-fast-as-possible pace.
    @_spi(Tooling) public func overriding(duration: Duration?, rate: Double?) -> Result<LoadModel, LoadOverrideError> {
        switch (self, duration, rate) {
        case (_, nil, nil): .success(self)
        case (.ramping, _, _): .failure(LoadOverrideError(message: "the ramping model's stages set their own durations and rates; edit load.stages"))
        case (.soak, _, _?): .failure(LoadOverrideError(message: "--rate does not apply to the soak model (it runs as fast as possible)"))
        case (.soak(_, let slope), let d?, nil): .success(.soak(duration: d, maxRSSSlopeMBPerMinute: slope))
        case (.fixed, let d?, nil), (.duration, let d?, nil): .success(.duration(d))
        case (.fixed, nil, _?): .failure(LoadOverrideError(message: "--rate needs a duration with the fixed model: give --duration too"))
        case (.fixed, let d?, let r?), (.duration, let d?, let r?), (.arrivalRate, let d?, let r?): .success(.arrivalRate(eventsPerSecond: r, duration: d))
        case (.duration(let d), nil, let r?), (.arrivalRate(_, let d), nil, let r?): .success(.arrivalRate(eventsPerSecond: r, duration: d))
        case (.arrivalRate(let r, _), let d?, nil): .success(.arrivalRate(eventsPerSecond: r, duration: d))
        }
    }
}

/// A `--duration` or `--rate` that the scenario's load model has no place for.
@_spi(Tooling) public struct LoadOverrideError: Error, Equatable, CustomStringConvertible, Sendable {
    /// Why, naming the option and the model.
    @_spi(Tooling) public var message: String

    /// An error saying `message`.
    @_spi(Tooling) public init(message: String) { self.message = message }

    /// The message.
    @_spi(Tooling) public var description: String { message }
}
