@_spi(Tooling) import PaymentService
import PaymentsCore
@_spi(Tooling) @testable import PlantedFlaws
import Testing
import TestSupport

@Suite("Planting flaws in the reference service from outside it")
struct ReferenceServicePlantsTests {
    @Test("a flaw of the ledger service is refused, named", arguments: PlantedFlaw.planted(in: .ledgerService).filter { !$0.fixtures.contains(.referenceService) })
    func refusesForeignFlaws(flaw: PlantedFlaw) {
        // Given a flaw the reference service cannot have
        // When it is planted
        // Then the plants are refused, naming it
        #expect(throws: UnplantableFlaw.self) { try ReferenceServicePlants([flaw, .refundTwice]) }
        let error = try? ReferenceServicePlants([flaw])
        #expect(error == nil)
        #expect(UnplantableFlaw(flaw: flaw).description.contains(flaw.rawValue))
    }

    @Test("without flaws, the service keeps SPEC §4's configuration, its store and what it asks for")
    func noFlaws() throws {
        // Given no flaw
        var sut = try ReferenceServicePlants([])
        let store = MemoryDurableStore()
        var effects: [ServiceEffect] = [.send(Self.call(attempt: 1))]
        // When the configuration, the store and the effects pass through it
        let configuration = sut.configuration()
        sut.rewrite(&effects)
        // Then nothing changed
        #expect(configuration.policy.maxAttempts == RetryPolicy().maxAttempts)
        #expect(configuration.procedure == ServiceProcedure())
        #expect(sut.store(store) === store)
        #expect(sut.served(store) === store)
        #expect(effects == [.send(Self.call(attempt: 1))])
        #expect(sut.sqliteCountsRefunds && sut.sqliteSyncsCommits)
    }

    @Test("the configuration flaws change the policy and the order of steps")
    func configurationFlaws() throws {
        // Given the three configuration flaws
        let sut = try ReferenceServicePlants([.fewerAttempts, .intentAfterCall, .noReconcileOnRestart])
        // When the configuration is made
        let configuration = sut.configuration()
        // Then it has one attempt fewer and the planted order
        #expect(configuration.policy.maxAttempts == RetryPolicy().maxAttempts - 1)
        #expect(configuration.procedure == ServiceProcedure(intent: .afterCall, restart: .failUnasked))
    }

    @Test("a store defect wraps the store a world checks, and leaves the service's use of it alone", arguments: [PlantedFlaw.storeDropsReasons, .storeNegativeLedger])
    func storeDefects(defect: PlantedFlaw) throws {
        // Given a store defect
        let sut = try ReferenceServicePlants([defect])
        let store = MemoryDurableStore()
        // When the store is made and served
        let defective = sut.store(store)
        // Then the store is another, and the service uses it as it is
        #expect(defective !== store)
        #expect(sut.served(defective) === defective)
    }

    @Test("the SQLite flaws turn off counting refunds and syncing commits")
    func sqliteFlaws() throws {
        let sut = try ReferenceServicePlants([.sqliteUncountedRefund, .sqliteSynchronousNormal])
        #expect(!sut.sqliteCountsRefunds && !sut.sqliteSyncsCommits)
    }

    @Test("retry-without-key sends each retry under a key of its own, and the first attempt under the payment's")
    func retryWithoutKey() throws {
        // Given the flaw, and a first attempt, two retries and a reply
        var sut = try ReferenceServicePlants([.retryWithoutKey])
        let reply = ServiceEffect.reply(client: 0, payment: 1, PaymentOutcome(state: .declined))
        var effects: [ServiceEffect] = [.send(Self.call(attempt: 0)), .send(Self.call(attempt: 1)), reply, .send(Self.call(attempt: 2))]
        // When they pass through it
        sut.rewrite(&effects)
        // Then the retries' keys differ from the payment's and from each other; the rest is unchanged
        let keys = effects.compactMap { if case .send(let call) = $0 { call.key } else { nil } }
        #expect(keys.count == 3 && keys[0] == Self.call(attempt: 0).key)
        #expect(Set(keys).count == 3)
        #expect(effects[2] == reply)
    }

    @Test("refund-twice books a settled refund twice and anything else once", arguments: [(PaymentState.refunded, 2), (.captured, 1), (.failed, 1)])
    func refundTwice(state: PaymentState, settlements: Int) throws {
        // Given a store behind the flaw
        let spy = SettlementSpy()
        let sut = try ReferenceServicePlants([.refundTwice]).served(spy)
        // When a payment is settled
        try sut.settle(payment: 4, PaymentOutcome(state: state))
        // Then the store below books it as often as the flaw says
        #expect(spy.settled == Array(repeating: 4, count: settlements))
    }

    @Test("skip-refund-checks shows a known charge unrefunded and unbounded, in its currency; an unknown one stays unknown")
    func skipRefundChecks() throws {
        // Given a captured charge of 1,000, half refunded, behind the flaw
        let spy = SettlementSpy()
        spy.charge = CapturedCharge(amountMinor: 1_000, currency: .eur, refundedMinor: 500)
        let sut = try ReferenceServicePlants([.skipRefundChecks]).served(spy)
        // When the service reads it
        let charge = try #require(try sut.capturedCharge(user: 1, charge: 2))
        // Then any refund of it passes the service's amount check, and its currency is kept
        #expect(charge == CapturedCharge(amountMinor: .max, currency: .eur))
        spy.charge = nil
        #expect(try sut.capturedCharge(user: 1, charge: 2) == nil)
    }

    @Test("the misused store passes every other read and write to the store below it")
    func passesThrough() throws {
        // Given a memory store behind a misused one
        let memory = MemoryDurableStore()
        let sut = try ReferenceServicePlants([.refundTwice]).served(memory)
        let request = ServiceRequest(user: 1, payment: PaymentBuilder().id(3).key(9).charge().build())
        var writes: [StoreWrite] = []
        sut.failpoint = { writes.append($0) }
        // When a charge is admitted, its intent written and settled through it
        try sut.admit(PaymentRecord(request: request, progress: .requested, admittedAt: 5), takesKey: true)
        try sut.writeIntent(payment: 3, attempt: 0, deadline: 20)
        try sut.settle(payment: 3, PaymentOutcome(state: .captured, attempts: 1))
        // Then every read sees what the memory store holds, and the failpoint ran in each transaction
        #expect(try sut.record(of: 3) == memory.record(of: 3))
        #expect(try sut.fingerprint(user: 1, key: 9) == memory.fingerprint(user: 1, key: 9))
        #expect(try sut.settledRefunds(of: 3) == memory.settledRefunds(of: 3))
        #expect(try sut.unfinished() == memory.unfinished())
        #expect(try sut.records() == memory.records())
        #expect(try sut.ledger() == memory.ledger())
        #expect(try sut.ledger(of: 1) == memory.ledger(of: 1))
        #expect(try sut.latestInstant() == memory.latestInstant())
        #expect(writes.count == 3)
        #expect(sut.failpoint != nil && memory.failpoint != nil)
    }

    private static func call(attempt: Int) -> GatewayCall {
        GatewayCall(request: ServiceRequest(user: 1, payment: PaymentBuilder().id(1).key(7).charge().build()), key: 7, attempt: attempt, deadline: 100)
    }
}

/// A store that records its settlements and answers one captured charge.
private final class SettlementSpy: DurablePaymentStore {
    var failpoint: ((StoreWrite) throws -> Void)?
    private(set) var settled: [UInt32] = []
    var charge: CapturedCharge?

    func record(of payment: UInt32) -> PaymentRecord? { nil }
    func fingerprint(user: UInt32, key: UInt32) -> PaymentFingerprint? { nil }
    func capturedCharge(user: UInt32, charge: UInt32) -> CapturedCharge? { self.charge }
    func settledRefunds(of charge: UInt32) -> Int64 { 0 }
    func unfinished() -> [PaymentRecord] { [] }
    func records() -> [PaymentRecord] { [] }
    func ledger() -> [LedgerRow] { [] }
    func ledger(of user: UInt32) -> [LedgerEntry] { [] }
    func latestInstant() -> Int64 { 0 }
    func admit(_ record: PaymentRecord, takesKey: Bool) {}
    func writeIntent(payment: UInt32, attempt: Int, deadline: Int64) {}
    func settle(payment: UInt32, _ outcome: PaymentOutcome) { settled.append(payment) }
}
