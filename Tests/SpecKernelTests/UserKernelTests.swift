@_spi(Tooling) import HealthCore
import PaymentsCore
import SpecKernel
import Testing
import TestSupport

@Suite("UserKernel: one user's rows in, the SPEC results out")
struct UserKernelTests {
    static let hour: Int64 = 3600

    @Test("meals in any order give the fasting analyzer's days and summary", arguments: [16, 10_000])
    func fasting(minimumFast: Int64) {
        // Given a user's meals over two days, out of order
        let meals = [
            MealBuilder().from(30 * Self.hour, to: 31 * Self.hour).build(),
            MealBuilder().from(8 * Self.hour, to: 9 * Self.hour).build(),
            MealBuilder().from(12 * Self.hour, to: 13 * Self.hour).kcalMicros(7_000_000).build(),
            MealBuilder().from(12 * Self.hour + 60, to: 12 * Self.hour + 120).build(),
        ]
        let sut = UserKernel(minimumFastSeconds: minimumFast)
        // When the kernel analyzes them
        var days: [FastingDay] = []
        var rows = meals
        let summary = rows.withUnsafeMutableBufferPointer {
            sut.fasting($0, utcOffsetMinutes: 60, fastingProtocol: .sixteenEight) { days.append($0) }
        }
        // Then it reports what the fasting analyzer gives for the same user and settings
        let expected = FastingAnalyzer.analyze(meals, configuration: FastingConfigurationBuilder()
            .offset(60).fastingProtocol(.sixteenEight).minimumFast(minimumFast).build())
        #expect(summary == expected.summary)
        #expect(days == expected.days)
        #expect(days.count == 2)
    }

    @Test("samples in any order give the step aggregator's days")
    func steps() {
        // Given a watch and a phone sample that overlap, out of order
        let samples = [
            StepSampleBuilder().phone().count(600).from(Self.hour, to: 3 * Self.hour).build(),
            StepSampleBuilder().watch().count(100).from(2 * Self.hour, to: 4 * Self.hour).build(),
        ]
        let sut = UserKernel()
        // When the kernel aggregates them
        var days: [StepDay] = []
        var rows = samples
        rows.withUnsafeMutableBufferPointer { sut.steps($0, utcOffsetMinutes: -300) { days.append($0) } }
        // Then it reports what the step aggregator gives
        #expect(days == StepAggregator.aggregate(samples, utcOffsetMinutes: -300))
        #expect(!days.isEmpty)
    }

    @Test("payments go through the processor in (created_at, payment_id) order, whatever order they were added in")
    func paymentOrder() {
        // Given a refund created before its charge by id rank but after it in time, and a charge with an earlier id at the same time
        let charge = PaymentBuilder().id(5).key(5).amount(1_000).createdAt(100).build()
        let refund = PaymentBuilder().id(1).key(1).refund(of: 5).amount(400).createdAt(200).build()
        let tie = PaymentBuilder().id(2).key(2).amount(50).createdAt(100).script("D").build()
        let requests = [refund, charge, tie]
        let sut = UserKernel()
        // When they are added in input order and processed
        sut.beginPayments()
        for (row, request) in requests.enumerated() {
            sut.addPayment(createdAt: request.createdAt, idRank: request.id, row: Int32(row))
        }
        var seen: [(row: Int32, state: PaymentState)] = []
        let violations = sut.processPayments(ofUser: 7, request: { requests[Int($0)] }) { seen.append(($0, $1.state)) }
        // Then the tie goes first (lower id), then the charge, then the refund, which finds its charge captured
        #expect(seen.map(\.row) == [2, 1, 0])
        #expect(seen.map(\.state) == [.declined, .captured, .refunded])
        #expect(violations.isEmpty)
        #expect(sut.ledger.entries.map(\.balanceMinor) == [600])
    }

    @Test("rows that tie on created_at and payment_id go in row order")
    func tiesInRowOrder() {
        // Given two rows with the same created_at and id rank (a repeated payment_id), added last row first
        let first = PaymentBuilder().id(3).key(1).amount(100).createdAt(50).build()
        let second = PaymentBuilder().id(3).key(2).amount(200).createdAt(50).build()
        let requests = [first, second]
        let sut = UserKernel()
        sut.beginPayments()
        sut.addPayment(createdAt: 50, idRank: 3, row: 1)
        sut.addPayment(createdAt: 50, idRank: 3, row: 0)
        // When they are processed
        var rows: [Int32] = []
        _ = sut.processPayments(ofUser: 1, request: { requests[Int($0)] }) { row, _ in rows.append(row) }
        // Then the first row goes first
        #expect(rows == [0, 1])
    }

    @Test("the next user starts with no keys, charges or ledger")
    func usersAreIndependent() {
        // Given a kernel that processed one user's charge
        let charge = PaymentBuilder().build()
        let sut = UserKernel()
        sut.beginPayments()
        sut.addPayment(createdAt: 0, idRank: 0, row: 0)
        _ = sut.processPayments(ofUser: 1, request: { _ in charge }) { _, _ in }
        // When another user sends the same key
        sut.beginPayments()
        sut.addPayment(createdAt: 0, idRank: 0, row: 0)
        var states: [PaymentState] = []
        _ = sut.processPayments(ofUser: 2, request: { _ in charge }) { states.append($1.state) }
        // Then it is captured, not deduplicated, and the ledger holds that user's charge only
        #expect(states == [.captured])
        #expect(sut.ledger.entries.map(\.capturedMinor) == [1_000])
    }

    @Test("simulated latency depends on the seed and the user only, not on the users before", arguments: [UInt64(0), 99])
    func jitterPerUser(seed: UInt64) {
        // Given a payment that times out twice and a kernel that first processes another user
        let flaky = PaymentBuilder().script("T;T;A").build()
        func latency(of user: UInt32, after others: [UInt32]) -> Int64 {
            let sut = UserKernel(jitterSeed: seed)
            var latency: Int64 = -1
            for u in others + [user] {
                sut.beginPayments()
                sut.addPayment(createdAt: 0, idRank: 0, row: 0)
                _ = sut.processPayments(ofUser: u, request: { _ in flaky }) { latency = $1.latencyMillis }
            }
            return latency
        }
        // When user 3's payment is processed alone and after other users
        // Then its latency is the same
        #expect(latency(of: 3, after: []) == latency(of: 3, after: [1, 2]))
        #expect(latency(of: 3, after: []) > 0)
    }
}
