import Foundation
import PaymentsCore
@_spi(Tooling) import ProcessMetrics
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
@_spi(Tooling) import ServiceSimulation

/// Load mode (`run` of `SimHarness.main(service:)`): a scenario's payment stream through a user's service
/// from concurrent clients, under the scenario's load model, into a `RunResult` (latency, throughput, CPU,
/// allocations, peak memory, thresholds) with a differential check against the SPEC reference.
///
/// A pass sends the whole stream to a service started afresh on a fresh environment. The fixed model makes
/// one pass; the others make passes until their time is up (an open model's arrivals go on from one pass
/// to the next). Only the passes' driving is measured: starting the service, reading its ledger and
/// checking are not in the duration, the CPU time or the allocations.
package enum ServiceLoadRunner {
    /// What a load run is asked for.
    package struct Options: Sendable {
        /// Concurrent clients.
        package var clients: Int
        /// The root seed.
        package var seed: UInt64
        /// Gateway attempts per payment in the reference (SPEC §4's `max_attempts`).
        package var maxAttempts = 3

        /// Options of `clients` clients and `seed`.
        package init(clients: Int, seed: UInt64) {
            self.clients = clients
            self.seed = seed
        }
    }

    /// A service start or a ledger read that threw.
    package struct Failure: Error, CustomStringConvertible {
        /// What threw.
        package var description: String
    }

    /// Runs `plan` through `service`; throws `Failure` when the service cannot start.
    package static func run<Service: ServiceUnderSimulation>(_ service: Service.Type, _ plan: RunPlan, options: Options) async throws -> RunResult {
        let workload = LoadWorkload(scenario: plan.scenario, seed: options.seed, clients: options.clients, maxAttempts: options.maxAttempts)
        let schedule = plan.load.schedule
        let origin = ContinuousClock.now
        let start = monotonicNanos()
        let deadline = plan.load.timeLimit.map { start &+ UInt64($0.components.seconds) &* 1_000_000_000 &+ UInt64($0.components.attoseconds / 1_000_000_000) }
        var metrics = RunMetrics()
        var check = CheckReport(sample: 1)
        var drivenNanos: UInt64 = 0
        var cpu = (user: Duration.zero, system: Duration.zero)
        var allocations: (count: Int?, bytes: Int?) = (0, 0)
        var pass = 0
        ResidentMemory.resetPeak()
        repeat {
            let (environment, gateway) = ServiceEnvironment.load(scripts: workload.scripts, origin: origin)
            let started: Service
            do { started = try await Service.start(in: environment) } catch { throw Failure(description: "start threw: \(error)") }
            let driver = LoadDriver<Service>(workload: workload, schedule: schedule, rankOffset: pass * workload.requests.count, start: start, deadline: deadline)
            let usage = ResourceUsage.current()
            let allocated = AllocationStatistics.current()
            let began = monotonicNanos()
            let clients = await driver.run(started)
            drivenNanos += monotonicNanos() - began
            let delta = AllocationStatistics.current().delta(since: allocated)
            let after = ResourceUsage.current()
            cpu = (cpu.user + after.userCPU - usage.userCPU, cpu.system + after.systemCPU - usage.systemCPU)
            allocations = (sum(allocations.count, delta.allocations), sum(allocations.bytes, delta.allocatedBytes))
            var ledger: [ServiceLedgerLine]?
            var ledgerError: String?
            do { ledger = try await started.ledger() } catch { ledgerError = "\(error)" }
            let passCheck = LoadCheck(workload: workload).check(clients, ledger: ledger, ledgerError: ledgerError, acts: gateway.acts)
            if pass == 0 { check = passCheck } else { check.merge(passCheck) }
            record(clients, of: workload, into: &metrics)
            pass += 1
            if clients.contains(where: { $0.sent < $0.answers.count }) || Task.isCancelled { break }
        } while plan.load.repeats && deadline.map { monotonicNanos() < $0 } ?? false
        let seconds = Double(drivenNanos) * 1e-9
        if let schedule {
            let due = Int(schedule.events(bySeconds: min(seconds, schedule.totalSeconds)).rounded(.down))
            metrics.payments.dropped = max(0, due - metrics.payments.events)
            metrics.total.dropped = metrics.payments.dropped
        }
        check.users = workload.users
        check.implementations = ["the service"]
        var process = ProcessFigures()
        process.cpuUserSeconds = cpu.user.seconds
        process.cpuSystemSeconds = cpu.system.seconds
        process.peakRSSBytes = ResidentMemory.current()?.peakBytes ?? ResourceUsage.current().maxResidentBytes
        process.allocations = allocations.count
        process.allocatedBytes = allocations.bytes
        var result = RunResult(
            scenario: plan.scenario.name, seed: options.seed, users: plan.scenario.users, days: plan.scenario.days, load: plan.load.summary,
            shards: ["0/1"], tasks: options.clients, timing: true, usersPerBatch: 1, status: Task.isCancelled ? .cancelled : .completed,
            durationSeconds: seconds, metrics: metrics, process: process, machines: [MachineDescription.current()])
        result.check = check
        let checkRule = plan.thresholds.contains { $0.metric == "mismatches" } ? [] : [Threshold(metric: "mismatches", comparison: .equal, value: 0)]
        result.evaluate(plan.thresholds + checkRule)
        return result
    }

    /// Adds a pass's requests, answers and latencies to `metrics`.
    private static func record(_ clients: [ClientFigures], of workload: LoadWorkload, into metrics: inout RunMetrics) {
        var stream = StreamMetrics(reasons: PaymentRejection.allCases.map(\.rawValue))
        for figures in clients {
            stream.events += figures.sent
            stream.eventLatency.merge(figures.serviceNanos)
            stream.batchLatency.merge(figures.serviceMicros)
            metrics.responseLatency.merge(figures.responseMicros)
            metrics.behindScheduleSeconds = max(metrics.behindScheduleSeconds, figures.behindSeconds)
            for answer in figures.answers.prefix(figures.sent).compactMap({ $0 }) {
                metrics.paymentStates[answer.state.position] += 1
                if let reason = answer.reason, let index = PaymentRejection.allCases.firstIndex(of: reason) { stream.rejected.add(at: index) }
                metrics.digest &+= digest(answer)
            }
        }
        stream.batches = stream.events
        stream.busyNanos = Int64(clamping: clients.reduce(0) { $0 + Int($1.serviceNanos.count) })
        metrics.payments.merge(stream)
        metrics.total.merge(stream)
        metrics.users = workload.users
    }

    /// A fixed mix of an answer (the same in every process: the run's digest is a sum of them).
    private static func digest(_ answer: ServiceAnswer) -> UInt64 {
        let reason = answer.reason.flatMap { PaymentRejection.allCases.firstIndex(of: $0) }.map { UInt64($0) + 1 } ?? 0
        var x = UInt64(answer.state.position) << 8 | reason
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        return x ^ (x >> 31)
    }

    private static func sum(_ a: Int?, _ b: Int?) -> Int? { a.flatMap { a in b.map { a + $0 } } }
}
