@_spi(Tooling) import SimulationCore
import ArgumentParser
import Foundation
@_spi(Tooling) import ProcessMetrics
import ServiceLoad
@_spi(Tooling) import ServiceSimulation

extension SimHarness {
    /// A command line for your async payment service: `run` drives it with a scenario's payment stream
    /// from concurrent clients on every core (load mode: latency, throughput, CPU, allocations, checked
    /// against the SPEC reference), and `simulate` puts it under deterministic simulation: it runs seeded worlds of concurrent clients, gateway faults and crashes at any job, each interleaving
    /// chosen by the seed, and checks SPEC §4's invariants against the gateway's ground truth
    /// (docs/your-service.md).
    ///
    /// ```swift
    /// @main struct Simulate {
    ///     static func main() async { await SimHarness.main(service: MyServiceAdapter.self) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - service: your adapter type; each world starts it with `start(in:)`.
    ///   - environment: environment variables that choose what the service is (a planted bug, a feature
    ///     flag): those set are written before the command in every reproduce line (`BUG=x payment-sim …`).
    public static func main<Service: ServiceUnderSimulation>(service: Service.Type, reproducing environment: [String] = []) async {
        // A world's Set and Dictionary order comes from its seed only when the process's hashing is fixed.
        if CommandLine.arguments.dropFirst().first == "simulate" { SeededWorld.fixHashingOrder() }
        let values = ProcessInfo.processInfo.environment
        let prefix = environment.compactMap { name in values[name].map { "\(name)=\($0) " } }.joined()
        await ServiceSession.$world.withValue(ServiceWorldRunner(run: { ServiceWorld.run(Service.self, $0) }, linePrefix: prefix)) {
            await ServiceSession.$load.withValue(LoadRunner { try await ServiceLoadRunner.run(Service.self, $0, options: $1) }) {
                await ServiceHarnessCommand.mainWithHarnessExits()
            }
        }
    }
}

/// Runs one world of the service the command line was started with.
struct ServiceWorldRunner: Sendable {
    let run: @Sendable (ServiceWorldConfiguration) -> ServiceWorldReport
    /// Written before the program in reproduce lines: the environment that chose the service (`BUG=x `).
    var linePrefix = ""
}

/// What `SimHarness.main(service:)` was started with.
///
/// Every task-local value here that holds a closure holds it in a struct (`ServiceWorldRunner`, `LoadRunner`,
/// `OutputSink`): Swift 6.3.1's optimizer miscompiles a closure-typed `@TaskLocal`, optional or not, and
/// `withValue` then crashes in `swift_task_localValuePush` in every `-O` build (swiftlang/swift PR 88321,
/// fixed after 6.3.1). `TaskLocalShapeTests` holds the rule.
enum ServiceSession {
    @TaskLocal static var world: ServiceWorldRunner?
    /// Where the command's lines go (standard output; a test's sink).
    @TaskLocal static var output = OutputSink { print($0) }
}

/// Where a command's lines go.
struct OutputSink: Sendable {
    let write: @Sendable (String) -> Void
    init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }
}

/// A line of the command's output.
private func say(_ line: String) { ServiceSession.output.write(line) }

/// The command line of a user's service executable.
struct ServiceHarnessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: URL(fileURLWithPath: CommandLine.arguments.first ?? "simharness").lastPathComponent,
        abstract: "Load-tests your async payment service, or puts it under deterministic simulation (simharness \(toolVersion)).",
        version: toolVersionLine,
        subcommands: [ServiceRunCommand.self, ServiceSimulateCommand.self, BaselineCommand.self]
    )
}

struct ServiceSimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Runs your service in seeded worlds of concurrent clients, gateway faults and crashes, and checks SPEC §4's invariants.",
        discussion: """
            Each seed is one world: its payments, the gateway's answers (A, D, T, L) and latencies, the clients' \
            retries and duplicate submissions, the jobs at which the service crashes (it is started again from what \
            is durable), and the interleaving of every task and default actor, which a one-thread executor chooses \
            by the seed. A violation prints the line that reproduces it, shrunk, with the world's events before it. \
            Exit status: 0 no violation, 1 a violation, 2 bad options.
            """
    )

    @Option(help: "Run the one world of this seed, with its trace hash and events (decimal or 0x hex).", transform: OptionValue.seed)
    var seed: UInt64?

    @Option(help: "Run this many worlds, of consecutive seeds (default 1000).", transform: OptionValue.integer(in: 1...Int(Int32.max)))
    var seeds = 1_000

    @Option(help: "The first seed of --seeds (default 0).", transform: OptionValue.seed)
    var from: UInt64 = 0

    @Option(help: Shard.help("the worlds of --seeds whose index i (seed = from + i) has i mod n == k"), transform: OptionValue.shard)
    var shard: Shard?

    @Option(help: "Payments per world (default 100).", transform: OptionValue.integer(in: 1...100_000))
    var payments = 100

    @Option(help: "Concurrent clients per world (default 8).", transform: OptionValue.integer(in: 1...10_000))
    var clients = 8

    @Option(help: "Crashes of the service per world, at jobs the seed chooses (default 2).", transform: OptionValue.integer(in: 0...1_000))
    var crashes = 2

    @Flag(name: .customLong("no-faults"), help: "No gateway faults, slow answers or duplicate submissions: every call approved.")
    var noFaults = false

    @Option(help: "How the next job is chosen: random, pct, pct:D (D change points), or mixed (even seeds random, odd pct:3; the default).")
    var schedule = "mixed"

    @Option(help: "Worlds run side by side (default: the number of cores); results do not depend on it.", transform: OptionValue.tasks)
    var tasks: Int?

    func run() async throws {
        guard let world = ServiceSession.world else { throw failure("simulate", "no service: start it with SimHarness.main(service:)", status: .internalError) }
        let mixed = schedule == "mixed"
        guard mixed || ScheduleStrategy(schedule) != nil else {
            throw failure("simulate", "--schedule must be random, pct, pct:D (D in 0...64) or mixed, not '\(schedule)'", status: .invalidInput)
        }
        guard seed == nil || shard == nil else { throw failure("simulate", "--shard splits --seeds; it does not go with --seed", status: .invalidInput) }
        let template = ServiceWorldConfiguration(
            seed: 0, payments: payments, clients: clients, faults: !noFaults, crashes: crashes, schedule: ScheduleStrategy(schedule) ?? .random)
        let swarm = ServiceSwarm(
            template: template, from: seed ?? from, count: seed == nil ? seeds : 1, shard: shard.map { ($0.index, $0.count) } ?? (0, 1),
            mixedSchedules: mixed, tasks: tasks ?? ProcessInfo.processInfo.activeProcessorCount)
        if let seed { return try single(world, swarm.configuration(seed: seed)) }
        let traps = TrapReporter(workers: swarm.tasks, line: { reproduceLine(swarm.configuration(seed: $0), environment: world.linePrefix).description })
        let clock = ContinuousClock()
        let start = clock.now
        let summary = swarm.run(world.run, watch: traps.watch)
        let elapsed = (clock.now - start).seconds
        say("simulated \(summary.worlds) worlds of \(payments) payments and \(clients) clients in \(String(format: "%.2f", elapsed)) s: "
            + "\(summary.steps) jobs, \(summary.requests) requests, \(summary.crashes) crashes, \(summary.gatewayActs) gateway acts; "
            + "trace hash \(hex(summary.traceHash))")
        guard let failing = summary.firstFailure else {
            say("no violation")
            return
        }
        let shrunk = ServiceWorld.shrink(failing, running: world.run)
        say("\(summary.failed) of \(summary.worlds) worlds broke an invariant; the first, seed \(hex(failing.configuration.seed)): \(failing.violation!)")
        report(shrunk, world)
        throw HarnessExit.failed.code
    }

    /// One world, with its trace hash and its events.
    private func single(_ world: ServiceWorldRunner, _ configuration: ServiceWorldConfiguration) throws {
        let report = world.run(configuration)
        say("world \(hex(configuration.seed)) (\(configuration.schedule)): \(report.steps) jobs, \(report.requests) requests, "
            + "\(report.crashes) crashes, virtual time \(report.virtualTime); trace hash \(hex(report.traceHash))")
        guard report.violation != nil else {
            say("no violation")
            return
        }
        self.report(report, world)
        throw HarnessExit.failed.code
    }

    /// The violation, its reproduce line and the events before it.
    private func report(_ report: ServiceWorldReport, _ world: ServiceWorldRunner) {
        say("violation: \(report.violation!)")
        say("reproduce: \(reproduceLine(report.configuration, environment: world.linePrefix))")
        say("the events around it: the payments concerned, crashes and restarts (virtual time, what happened):")
        for line in report.eventsAround() { say("  " + line) }
    }
}

/// The command that runs exactly `configuration`'s world again.
func reproduceLine(_ configuration: ServiceWorldConfiguration, environment: String = "") -> ReproduceLine {
    let program = URL(fileURLWithPath: CommandLine.arguments.first ?? "simharness").lastPathComponent
    var options: [(name: String, value: String?)] = [
        ("payments", "\(configuration.payments)"), ("clients", "\(configuration.clients)"), ("crashes", "\(configuration.crashes)"),
        ("schedule", "\(configuration.schedule)"),
    ]
    if !configuration.faults { options.append(("no-faults", nil)) }
    return ReproduceLine(program: program, seed: configuration.seed, options: options, environment: environment)
}
