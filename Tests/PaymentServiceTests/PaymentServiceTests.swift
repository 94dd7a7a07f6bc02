@_spi(Tooling) import PaymentService
import PaymentsCore
import Testing
import TestSupport

@Suite("PaymentService: SPEC §4 one durable step at a time")
struct PaymentServiceTests {
    static let charge = PaymentBuilder().id(1).key(1).amount(1_000)

    @Test("a charge is admitted, its intent written, then sent; the answer settles it and the client hears it")
    func happyPath() throws {
        // Given a service and a client's charge
        let driver = ServiceDriver()
        // When the request arrives and its steps run
        driver.deliver(.request(Self.charge.request(), client: 5))
        // Then one attempt went out, after its intent was written
        let call = try #require(driver.calls.first)
        #expect(driver.calls.count == 1)
        #expect(call.attempt == 0 && call.key == 1)
        let progress = try #require(driver.store.record(of: 1)).progress
        #expect(progress == .attemptSent(attempt: 0, deadline: call.deadline))
        // When the gateway approves
        driver.deliver(.answer(payment: 1, attempt: 0, .approved))
        // Then the payment is captured, booked and answered
        let reply = try #require(driver.replies.first)
        #expect(reply.client == 5 && reply.outcome.state == .captured && reply.outcome.attempts == 1)
        #expect(driver.store.record(of: 1)?.outcome == reply.outcome)
        #expect(driver.store.ledger() == [LedgerRow(user: 1, entry: LedgerEntry(currency: .usd, capturedMinor: 1_000))])
    }

    @Test("a retry of a payment in flight waits for its answer: no second admission, no second call")
    func retryInFlight() throws {
        // Given a charge whose attempt is out
        let driver = ServiceDriver()
        driver.deliver(.request(Self.charge.request(), client: 1))
        // When the client retries twice, then the gateway answers
        driver.deliver(.request(Self.charge.request(), client: 2))
        driver.deliver(.request(Self.charge.request(), client: 3))
        driver.deliver(.answer(payment: 1, attempt: 0, .declined))
        // Then the gateway heard one attempt, and every waiting client gets the same final answer
        #expect(driver.calls.count == 1)
        #expect(driver.replies.map(\.client) == [1, 2, 3])
        #expect(Set(driver.replies.map(\.outcome)).count == 1)
        #expect(driver.replies.first?.outcome.state == .declined)
    }

    @Test("a retry of a settled payment is answered from the store, also by a restarted service")
    func replayFromStore() throws {
        // Given a captured charge, and a restart
        let driver = ServiceDriver()
        driver.deliver(.request(Self.charge.request(), client: 1))
        driver.deliver(.answer(payment: 1, attempt: 0, .approved))
        let first = try #require(driver.replies.first).outcome
        try driver.restart()
        driver.clearEffects()
        // When the client asks again
        driver.deliver(.request(Self.charge.request(), client: 9))
        // Then it gets the first answer, without any call
        #expect(driver.replies.map(\.outcome) == [first])
        #expect(driver.calls.isEmpty)
    }

    @Test("timeouts back off and retry with the same key, then reconcile", arguments: [true, false])
    func timeoutsThenReconcile(acted: Bool) throws {
        // Given a charge whose attempts all time out
        let driver = ServiceDriver()
        driver.deliver(.request(Self.charge.request(), client: 1))
        for attempt in 0..<3 {
            driver.now = try #require(driver.calls.last).deadline
            driver.deliver(.timeout(payment: 1, attempt: attempt))
        }
        // Then three attempts went out under the payment's key, and the service asks the gateway after the last deadline
        #expect(driver.calls.map(\.attempt) == [0, 1, 2])
        #expect(driver.calls.allSatisfy { $0.key == 1 })
        let reconcile = try #require(driver.reconciles.first)
        #expect(reconcile.at == driver.calls[2].deadline)
        // When the gateway says whether it acted
        driver.deliver(.reconciled(payment: 1, acted: acted))
        // Then the payment ends captured or failed after 3 attempts
        #expect(driver.replies.first?.outcome.state == (acted ? .captured : .failed))
        #expect(driver.replies.first?.outcome.attempts == 3)
    }

    @Test("a late answer to an attempt that timed out is ignored")
    func lateAnswerIgnored() throws {
        // Given attempt 0 timed out and attempt 1 is being prepared
        let driver = ServiceDriver()
        driver.deliver(.request(Self.charge.request(), client: 1))
        driver.deliver(.timeout(payment: 1, attempt: 0))
        driver.clearEffects()
        // When attempt 0's approval arrives late
        driver.deliver(.answer(payment: 1, attempt: 0, .approved))
        // Then nothing settles
        #expect(driver.replies.isEmpty)
        #expect(driver.store.record(of: 1)?.outcome == nil)
    }

    @Test("one payment per user at a time; another user's payment proceeds")
    func perUserOrder() throws {
        // Given a charge of user 1 in flight
        let driver = ServiceDriver()
        driver.deliver(.request(Self.charge.request(user: 1), client: 1))
        // When user 1's refund of it and user 2's charge arrive
        driver.deliver(.request(PaymentBuilder().id(2).key(2).refund(of: 1).amount(400).request(user: 1), client: 2))
        driver.deliver(.request(PaymentBuilder().id(3).key(1).request(user: 2), client: 3))
        // Then user 2's charge went out, user 1's refund waits
        #expect(driver.calls.map(\.request.payment.id) == [1, 3])
        // When the charge is approved, the refund runs against it
        driver.deliver(.answer(payment: 1, attempt: 0, .approved))
        #expect(driver.calls.map(\.request.payment.id) == [1, 3, 2])
        driver.deliver(.answer(payment: 2, attempt: 0, .approved))
        #expect(driver.store.capturedCharge(user: 1, charge: 1) == CapturedCharge(amountMinor: 1_000, currency: .usd, refundedMinor: 400))
    }

    @Test("rejections and duplicates settle at admission, without a call")
    func settledAtAdmission() throws {
        // Given a captured charge with key 1
        let driver = ServiceDriver()
        driver.deliver(.request(Self.charge.request(), client: 1))
        driver.deliver(.answer(payment: 1, attempt: 0, .approved))
        // When a duplicate, a conflict and an invalid payment arrive
        driver.deliver(.request(PaymentBuilder().id(2).key(1).amount(1_000).request(), client: 2))
        driver.deliver(.request(PaymentBuilder().id(3).key(1).amount(5).request(), client: 3))
        driver.deliver(.request(PaymentBuilder().id(4).key(4).amount(0).request(), client: 4))
        // Then each is answered at once and the gateway heard only the first
        #expect(driver.replies.map(\.outcome) == [
            driver.replies[0].outcome, PaymentOutcome(state: .deduplicated), .rejected(.idempotencyConflict), .rejected(.invalidAmount),
        ])
        #expect(driver.calls.count == 1)
    }

    @Test("a failed transaction rolls back and its step runs again later")
    func storeFailureRetried() throws {
        // Given a store whose first admission fails
        let driver = ServiceDriver()
        var failures = 1
        driver.store.failpoint = { write in
            if write == .admit, failures > 0 {
                failures -= 1
                throw StoreFailure("disk full")
            }
        }
        // When a charge arrives
        driver.deliver(.request(Self.charge.request(), client: 1), runSteps: false)
        driver.runSteps()
        // Then the admission was tried twice and the attempt went out once
        #expect(failures == 0)
        #expect(driver.calls.count == 1)
        #expect(driver.store.records().count == 1)
    }

    @Test("after a restart an attempt that was sent is reconciled first; nothing new is admitted meanwhile")
    func recoveryReconcilesFirst() throws {
        // Given a charge whose attempt 0 is out, and a crash
        let driver = ServiceDriver()
        driver.deliver(.request(Self.charge.request(user: 1), client: 1))
        let deadline = try #require(driver.calls.first).deadline
        try driver.restart()
        // Then the new service asks the gateway after the attempt's deadline
        #expect(driver.reconciles.map(\.at) == [deadline])
        #expect(driver.sut.isRecovering)
        // When another user's charge arrives meanwhile, it waits
        driver.clearEffects()
        driver.deliver(.request(PaymentBuilder().id(2).key(1).request(user: 2), client: 2))
        #expect(driver.calls.isEmpty)
        // When the gateway says it acted, the charge is captured and the waiting one goes out
        driver.deliver(.reconciled(payment: 1, acted: true))
        #expect(!driver.sut.isRecovering)
        #expect(driver.store.record(of: 1)?.outcome?.state == .captured)
        #expect(driver.calls.map(\.request.payment.id) == [2])
    }

    @Test("after a restart, an attempt the gateway did not act on counts as timed out", arguments: [
        (0, Optional(1)), (2, nil),
    ])
    func recoveryWithoutAction(sentAttempt: Int, nextAttempt: Int?) throws {
        // Given a charge whose attempt `sentAttempt` is out, and a crash
        let driver = ServiceDriver()
        driver.deliver(.request(Self.charge.request(), client: 1))
        for attempt in 0..<sentAttempt { driver.deliver(.timeout(payment: 1, attempt: attempt)) }
        try driver.restart()
        driver.clearEffects()
        // When the gateway says it did not act
        driver.deliver(.reconciled(payment: 1, acted: false))
        // Then the next attempt goes out, or after the last one the payment fails
        #expect(driver.calls.map(\.attempt) == (nextAttempt.map { [$0] } ?? []))
        #expect(driver.store.record(of: 1)?.outcome?.state == (nextAttempt == nil ? .failed : nil))
    }

    @Test("after a restart, a payment admitted but never sent goes out as attempt 0 without asking the gateway")
    func recoveryOfAdmitted() throws {
        // Given a charge admitted (its intent not written) when the service crashed
        let driver = ServiceDriver()
        driver.deliver(.request(Self.charge.request(), client: 1), runSteps: false)
        let admit = try #require(driver.scheduled.first)
        driver.deliver(.step(admit.0), runSteps: false)
        try driver.restart()
        // When the restarted service runs
        driver.runSteps()
        // Then attempt 0 goes out and nothing is reconciled
        #expect(driver.reconciles.isEmpty)
        #expect(driver.calls.map(\.attempt) == [0])
    }
}
