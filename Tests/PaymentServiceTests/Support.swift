@_spi(Tooling) import PaymentService
import PaymentsCore
import TestSupport

/// Drives a payment service by hand: delivers inputs, runs the steps it schedules at once (in
/// order), and keeps every other effect for the test to look at.
final class ServiceDriver {
    let store: MemoryDurableStore
    private(set) var sut: PaymentService<MemoryDurableStore, SplitMix64>
    var now: Int64 = 0
    /// Effects other than scheduled steps, in order.
    private(set) var effects: [ServiceEffect] = []
    /// Steps the service scheduled, with their delays, in order.
    private(set) var scheduled: [(ServiceStep, Int64)] = []

    private let configuration: ServiceConfiguration

    init(store: MemoryDurableStore = MemoryDurableStore(), configuration: ServiceConfiguration = ServiceConfiguration()) {
        self.store = store
        self.configuration = configuration
        sut = PaymentService(store: store, configuration: configuration, random: SplitMix64(seed: 7))
    }

    /// A new service over the same store, as after a crash.
    func restart() throws {
        scheduled.removeAll()  // the dead service's steps die with it
        sut = PaymentService(store: store, configuration: configuration, random: SplitMix64(seed: 8))
        var out: [ServiceEffect] = []
        try sut.recover(now: now, effects: &out)
        absorb(out, runSteps: false)
    }

    /// Delivers `input`; with `runSteps`, runs every step it leads to until none is left.
    func deliver(_ input: ServiceInput, runSteps: Bool = true) {
        var out: [ServiceEffect] = []
        sut.handle(input, now: now, effects: &out)
        absorb(out, runSteps: runSteps)
    }

    /// Runs the first step scheduled (and keeps those it schedules).
    func runNextStep() {
        let (step, delay) = scheduled.removeFirst()
        now += delay
        deliver(.step(step), runSteps: false)
    }

    /// Runs the steps scheduled so far (and those they schedule).
    func runSteps() {
        while !scheduled.isEmpty {
            let (step, delay) = scheduled.removeFirst()
            now += delay
            deliver(.step(step))
        }
    }

    private func absorb(_ out: [ServiceEffect], runSteps: Bool) {
        for effect in out {
            if case .schedule(let step, let delay) = effect { scheduled.append((step, delay)) } else { effects.append(effect) }
        }
        if runSteps { self.runSteps() }
    }

    func clearEffects() { effects.removeAll() }

    var calls: [GatewayCall] { effects.compactMap { if case .send(let call) = $0 { call } else { nil } } }
    var replies: [(client: Int, payment: UInt32, outcome: PaymentOutcome)] {
        effects.compactMap { if case .reply(let client, let payment, let outcome) = $0 { (client, payment, outcome) } else { nil } }
    }
    var reconciles: [(request: ServiceRequest, at: Int64)] {
        effects.compactMap { if case .reconcile(let request, let at) = $0 { (request, at) } else { nil } }
    }
}

extension PaymentBuilder {
    /// The payment as user `user`'s request to the service.
    func request(user: UInt32 = 1) -> ServiceRequest { ServiceRequest(user: user, payment: build()) }
}
