@_spi(Tooling) import PaymentService
import PaymentsCore
import Testing
import TestSupport

/// Which store a parameterized test runs on.
enum StoreUnderTest: String, CaseIterable, CustomTestStringConvertible {
    case memory, sqlite

    var testDescription: String { rawValue }

    /// A fresh store (SQLite in a new file of `scratch`).
    func make(in scratch: ScratchDirectory) throws -> any DurablePaymentStore {
        switch self {
        case .memory: MemoryDurableStore()
        case .sqlite: try SQLitePaymentStore(path: scratch.file("store.sqlite"))
        }
    }
}

@Suite("Durable payment stores: each write one transaction")
struct DurableStoreTests {
    /// Where this test's SQLite files go (one instance, so one directory, per test).
    let scratch: ScratchDirectory

    init() throws { scratch = try ScratchDirectory(prefix: "store-tests") }

    static let charge = PaymentBuilder().id(1).key(1).amount(1_000).script("T;A").request(user: 3)

    @Test("admission, intent and settlement are kept, and a capture is booked", arguments: StoreUnderTest.allCases)
    func lifecycle(kind: StoreUnderTest) throws {
        // Given a store
        let sut = try kind.make(in: scratch)
        // When a charge is admitted, its attempt intended, and it is captured
        try sut.admit(PaymentRecord(request: Self.charge, progress: .requested, admittedAt: 10), takesKey: true)
        try sut.writeIntent(payment: 1, attempt: 0, deadline: 1_011)
        #expect(try sut.unfinished().map(\.progress) == [.attemptSent(attempt: 0, deadline: 1_011)])
        let outcome = PaymentOutcome(state: .captured, attempts: 1, latencyMillis: 41)
        try sut.settle(payment: 1, outcome)
        // Then the record, key, charge and ledger say so
        #expect(try sut.record(of: 1) == PaymentRecord(request: Self.charge, progress: .final(outcome), admittedAt: 10))
        #expect(try sut.fingerprint(user: 3, key: 1) == Self.charge.payment.fingerprint)
        #expect(try sut.fingerprint(user: 4, key: 1) == nil)
        #expect(try sut.capturedCharge(user: 3, charge: 1) == CapturedCharge(amountMinor: 1_000, currency: .usd))
        #expect(try sut.capturedCharge(user: 4, charge: 1) == nil)
        #expect(try sut.ledger() == [LedgerRow(user: 3, entry: LedgerEntry(currency: .usd, capturedMinor: 1_000))])
        #expect(try sut.unfinished().isEmpty)
        #expect(try sut.latestInstant() == 1_011)
    }

    @Test("a refund is booked against its charge and in the ledger; rows sort by user and currency code", arguments: StoreUnderTest.allCases)
    func refunds(kind: StoreUnderTest) throws {
        // Given captured charges of two users in two currencies
        let sut = try kind.make(in: scratch)
        let charges = [
            PaymentBuilder().id(1).key(1).amount(1_000).currency(.usd).request(user: 2),
            PaymentBuilder().id(2).key(2).amount(500).currency(.eur).request(user: 2),
            PaymentBuilder().id(3).key(1).amount(700).currency(.jpy).request(user: 1),
        ]
        for charge in charges {
            try sut.admit(PaymentRecord(request: charge, progress: .requested, admittedAt: 0), takesKey: true)
            try sut.settle(payment: charge.payment.id, PaymentOutcome(state: .captured, attempts: 1))
        }
        // When 3.00 USD is refunded
        let refund = PaymentBuilder().id(4).key(3).refund(of: 1).amount(300).request(user: 2)
        try sut.admit(PaymentRecord(request: refund, progress: .requested, admittedAt: 0), takesKey: true)
        try sut.settle(payment: 4, PaymentOutcome(state: .refunded, attempts: 1))
        // Then the charge and the ledger show it
        #expect(try sut.capturedCharge(user: 2, charge: 1)?.refundedMinor == 300)
        #expect(try sut.ledger() == [
            LedgerRow(user: 1, entry: LedgerEntry(currency: .jpy, capturedMinor: 700)),
            LedgerRow(user: 2, entry: LedgerEntry(currency: .eur, capturedMinor: 500)),
            LedgerRow(user: 2, entry: LedgerEntry(currency: .usd, capturedMinor: 1_000, refundedMinor: 300)),
        ])
        #expect(try sut.ledger(of: 2).map(\.currency) == [.eur, .usd])
        #expect(try sut.records().map(\.request.payment.id) == [1, 2, 3, 4])
    }

    @Test("a failed write leaves nothing of itself behind", arguments: StoreUnderTest.allCases, StoreWrite.allCases)
    func rollback(kind: StoreUnderTest, failing: StoreWrite) throws {
        // Given a store holding an admitted charge, whose next `failing` write fails midway
        let sut = try kind.make(in: scratch)
        try sut.admit(PaymentRecord(request: Self.charge, progress: .requested, admittedAt: 0), takesKey: true)
        let records = try sut.records(), ledger = try sut.ledger()
        sut.failpoint = { write in if write == failing { throw StoreFailure("injected") } }
        // When each write is tried
        let refund = PaymentBuilder().id(2).key(2).refund(of: 1).amount(100).request(user: 3)
        let admitted = Result { try sut.admit(PaymentRecord(request: refund, progress: .requested, admittedAt: 0), takesKey: true) }
        let intended = Result { try sut.writeIntent(payment: 1, attempt: 0, deadline: 99) }
        let settled = Result { try sut.settle(payment: 1, PaymentOutcome(state: .captured, attempts: 1)) }
        // Then the failing one threw and changed nothing: the store is as before, apart from the writes that succeeded
        let results: [StoreWrite: Result<Void, any Error>] = [.admit: admitted, .intent: intended, .settle: settled]
        #expect(throws: StoreFailure("injected")) { try results[failing]!.get() }
        switch failing {
        case .admit:
            #expect(try sut.record(of: 2) == nil)
            #expect(try sut.fingerprint(user: 3, key: 2) == nil)
        case .intent:
            #expect(try sut.record(of: 1)?.progress == .final(PaymentOutcome(state: .captured, attempts: 1)))
        case .settle:
            #expect(try sut.record(of: 1)?.progress == .attemptSent(attempt: 0, deadline: 99))
            #expect(try sut.ledger() == ledger)
            #expect(try sut.capturedCharge(user: 3, charge: 1) == nil)
        }
        #expect(try sut.records().count == records.count + (failing == .admit ? 0 : 1))
    }

    @Test("a write for a payment that was never admitted is refused", arguments: StoreUnderTest.allCases)
    func unknownPayment(kind: StoreUnderTest) throws {
        // Given an empty store
        let sut = try kind.make(in: scratch)
        // When an intent or a settlement names an unknown payment
        // Then both are refused
        #expect(throws: StoreFailure("payment 9 was never admitted")) { try sut.writeIntent(payment: 9, attempt: 0, deadline: 1) }
        #expect(throws: StoreFailure("payment 9 was never admitted")) { try sut.settle(payment: 9, PaymentOutcome(state: .failed, attempts: 3)) }
    }

    @Test("the SQLite store survives a reopen: records, keys, scripts, rejections and the ledger")
    func sqliteReopen() throws {
        // Given a SQLite store with a captured charge, a rejected payment and one in progress
        let path = scratch.file("store.sqlite")
        do {
            let sut = try SQLitePaymentStore(path: path)
            try sut.admit(PaymentRecord(request: Self.charge, progress: .requested, admittedAt: 5), takesKey: true)
            try sut.settle(payment: 1, PaymentOutcome(state: .captured, attempts: 2, latencyMillis: 1_200))
            let invalid = PaymentBuilder().id(2).key(2).currency(nil).request(user: 3)
            try sut.admit(PaymentRecord(request: invalid, progress: .final(.rejected(.unsupportedCurrency)), admittedAt: 6), takesKey: false)
            try sut.admit(PaymentRecord(request: PaymentBuilder().id(3).key(3).script("L;D").request(user: 4), progress: .requested, admittedAt: 7), takesKey: true)
            try sut.writeIntent(payment: 3, attempt: 0, deadline: 1_008)
        }
        // When it is opened again
        let sut = try SQLitePaymentStore(path: path)
        // Then everything is there as it was written
        let records = try sut.records()
        #expect(records.map(\.request.payment.id) == [1, 2, 3])
        #expect(records[0].request == Self.charge)
        #expect(records[0].outcome == PaymentOutcome(state: .captured, attempts: 2, latencyMillis: 1_200))
        #expect(records[1].outcome == .rejected(.unsupportedCurrency))
        #expect(records[1].request.payment.currency == nil)
        #expect(try sut.fingerprint(user: 3, key: 2) == nil)
        #expect(records[2].request.payment.script == GatewayScript([.lost, .declined]))
        #expect(try sut.unfinished().map(\.request.payment.id) == [3])
        #expect(try sut.ledger() == [LedgerRow(user: 3, entry: LedgerEntry(currency: .usd, capturedMinor: 1_000))])
        #expect(try sut.latestInstant() == 1_008)
    }
}
