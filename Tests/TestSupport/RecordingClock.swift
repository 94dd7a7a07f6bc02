import PaymentsCore

/// A fake simulated clock that records every advance, to check the timing of retries.
public struct RecordingClock: SimulatedClock, Sendable {
    public private(set) var nowMillis: Int64
    public private(set) var advances: [Int64] = []

    public init(nowMillis: Int64 = 0) { self.nowMillis = nowMillis }

    public mutating func advance(byMillis millis: Int64) {
        advances.append(millis)
        nowMillis += millis
    }
}
