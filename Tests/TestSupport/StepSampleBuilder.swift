@_spi(Tooling) import HealthCore

/// Builds a `StepSample`: by default a phone sample of 100 steps over 10:00–10:10 UTC on
/// `TestTime.referenceDay`.
public struct StepSampleBuilder: Sendable {
    public var start = TestTime.instant(hour: 10)
    public var end = TestTime.instant(hour: 10, minute: 10)
    public var count: Double = 100
    public var source: StepSource = .phone

    public init() {}

    public func watch() -> Self { source(.watch) }
    public func phone() -> Self { source(.phone) }
    public func source(_ value: StepSource) -> Self { modified(self) { $0.source = value } }
    public func count(_ value: Double) -> Self { modified(self) { $0.count = value } }

    /// The sample covers `[start, end)` (UTC instants).
    public func from(_ start: Int64, to end: Int64) -> Self {
        modified(self) {
            $0.start = start
            $0.end = end
        }
    }

    /// The sample covers `[midnight + from, midnight + to)`, `midnight` being the start of local day `day`.
    public func seconds(_ from: Int64, to: Int64, day: Int64 = TestTime.referenceDay, utcOffsetMinutes: Int32 = 0) -> Self {
        let midnight = TestTime.instant(day: day, utcOffsetMinutes: utcOffsetMinutes)
        return self.from(midnight + from, to: midnight + to)
    }

    public func build() -> StepSample { StepSample(start: start, end: end, count: count, source: source) }
}
