import Foundation
@_spi(Tooling) import RunEngine
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
import Synchronization

/// The one progress line of the tool, on stderr while `generate` or `run` works (only when
/// stderr is a terminal): elapsed time, what was done, its rate, a bar and the share done.
final class ProgressLine: Sendable {
    let enabled: Bool
    private let unit: String
    private let state = Mutex((drawn: false, lastDraw: ContinuousClock.now))

    init(unit: String, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.unit = unit
        self.enabled = enabled
    }

    /// Redraws the line (at most every 100 ms, and always when `share` reaches 1).
    func show(elapsed: Duration, done: Int, share: Double) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let due = state.withLock { s in
            guard now - s.lastDraw > .milliseconds(100) || share >= 1 || !s.drawn else { return false }
            s.lastDraw = now
            s.drawn = true
            return true
        }
        guard due else { return }
        let seconds = max(elapsed.seconds, 1e-9)
        let share = min(1, max(0, share))
        let filled = Int(share * 30)
        let line = "\r\u{1B}[K" + String(format: "%7.1f s  %@ %@  %@ %@/s  [", seconds, Summary.compact(Double(done)), unit,
                                          Summary.compact(Double(done) / seconds), unit)
            + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + String(format: "] %3.0f%%", share * 100)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Erases the line.
    func clear() {
        guard state.withLock({ $0.drawn }) else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
