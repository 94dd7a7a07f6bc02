#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import ServiceSimulation

/// What one client of a pass did: its answers in its lane's order, its latencies, and how far it got.
package struct ClientFigures: Sendable {
    /// The answer to each request of the lane sent, nil for one that threw.
    package var answers: [ServiceAnswer?]
    /// Requests sent.
    package var sent = 0
    /// The first error a request threw, with its request's index.
    package var firstError: (index: Int, message: String)?
    /// Service time of each request (from its send to its answer), in nanoseconds.
    package var serviceNanos = LatencyHistogram()
    /// The same in microseconds: a request is the run table's batch.
    package var serviceMicros = LatencyHistogram()
    /// Open loads: time from when each request was due to its answer, in microseconds (the coordinated
    /// omission correction: a request the client could not send on time waits in this figure).
    package var responseMicros = LatencyHistogram()
    /// The most a request of an open load was sent after it was due, in seconds.
    package var behindSeconds = 0.0
}

/// Drives one pass of a workload through a service: one child task per client, on the global executor,
/// each sending its lane's requests one after another (closed load), or each when it is due (open load).
/// The loop allocates nothing per request: the requests are built before, the answers and histograms are
/// the task's own, sized before it starts, and merged when it ends. No actor or lock sits in the loop.
package struct LoadDriver<Service: ServiceUnderSimulation>: Sendable {
    /// Requests between two looks at the clock's deadline and at cancellation.
    static var checkEvery: Int { 256 }

    let workload: LoadWorkload
    /// The open load's arrivals, nil for a closed one.
    let schedule: ArrivalSchedule?
    /// Requests of earlier passes: the arrival rank of this pass's first request.
    let rankOffset: Int
    /// Monotonic nanoseconds at which the run began (time 0 of the schedule).
    let start: UInt64
    /// Monotonic nanoseconds after which no request is sent; nil to send them all.
    let deadline: UInt64?

    package init(workload: LoadWorkload, schedule: ArrivalSchedule?, rankOffset: Int, start: UInt64, deadline: UInt64?) {
        self.workload = workload
        self.schedule = schedule
        self.rankOffset = rankOffset
        self.start = start
        self.deadline = deadline
    }

    /// Runs every client to the end of its lane (or the deadline, or the schedule's end); the figures of each.
    package func run(_ service: Service) async -> [ClientFigures] {
        await withTaskGroup(of: (Int, ClientFigures).self) { group in
            for lane in workload.lanes.indices {
                group.addTask { (lane, await client(lane, service)) }
            }
            var figures = [ClientFigures?](repeating: nil, count: workload.lanes.count)
            for await (lane, done) in group { figures[lane] = done }
            return figures.map { $0! }
        }
    }

    private func client(_ lane: Int, _ service: Service) async -> ClientFigures {
        let indices = workload.lanes[lane]
        let arrivals = workload.arrivals[lane]
        var figures = ClientFigures(answers: [ServiceAnswer?](repeating: nil, count: indices.count))
        for position in indices.indices {
            if position % Self.checkEvery == 0, position > 0 {
                // A service that never suspends would keep this thread from every other task.
                await Task.yield()
                if Task.isCancelled { break }
            }
            // Every client sends its first requests whatever the time: a pass is never empty.
            if position % Self.checkEvery == 0, position > 0, let deadline, monotonicNanos() >= deadline { break }
            var due: UInt64?
            if let schedule {
                guard let seconds = schedule.dueSeconds(afterEvents: Double(rankOffset + Int(arrivals[position]) + 1)) else { break }
                let dueAt = start &+ UInt64(seconds * 1e9)
                if await !wait(until: dueAt) { break }
                due = dueAt
            }
            let index = Int(indices[position])
            let sent = monotonicNanos()
            do {
                figures.answers[position] = try await service.submit(workload.requests[index])
            } catch {
                if figures.firstError == nil { figures.firstError = (index, "\(error)") }
            }
            let answered = monotonicNanos()
            figures.serviceNanos.record(answered &- sent)
            figures.serviceMicros.record((answered &- sent) / 1_000)
            if let due {
                figures.responseMicros.record((answered &- min(due, answered)) / 1_000)
                figures.behindSeconds = max(figures.behindSeconds, Double(sent &- min(due, sent)) * 1e-9)
            }
            figures.sent = position + 1
        }
        return figures
    }

    /// Waits until `due` (monotonic nanoseconds): sleeps when it is more than a millisecond away, then
    /// spins; false when cancelled.
    private func wait(until due: UInt64) async -> Bool {
        var now = monotonicNanos()
        while now < due {
            if due - now > 1_000_000 {
                do { try await Task.sleep(nanoseconds: due - now - 500_000) } catch { return false }
            }
            now = monotonicNanos()
        }
        return true
    }
}

/// Nanoseconds of the monotonic clock.
@inline(__always) package func monotonicNanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}
