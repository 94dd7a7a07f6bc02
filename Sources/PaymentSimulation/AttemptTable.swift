import PaymentsCore

/// What happened to each attempt of each payment of a world, in a flat table (payment ids are
/// dense): whether it was sent, what the gateway did with it, and what the service made of it
/// (the answer, or the timeout that came first: `L` when the gateway had acted, `T` otherwise).
struct AttemptTable {
    struct Entry {
        var sent = false
        var gatewayActed: Bool?
        var decided: GatewayResponse?
        /// Where the attempt's timeout waits in the world's queue.
        var timeoutSlot: Int?
    }

    private let attemptsPerPayment: Int
    private var entries: [Entry]

    /// A table for payments `0..<payments` of at most `attemptsPerPayment` attempts.
    init(payments: Int, attemptsPerPayment: Int) {
        self.attemptsPerPayment = attemptsPerPayment
        entries = Array(repeating: Entry(), count: payments * attemptsPerPayment)
    }

    subscript(payment: UInt32, attempt: Int) -> Entry {
        get { entries[Int(payment) * attemptsPerPayment + attempt] }
        set { entries[Int(payment) * attemptsPerPayment + attempt] = newValue }
    }
}
