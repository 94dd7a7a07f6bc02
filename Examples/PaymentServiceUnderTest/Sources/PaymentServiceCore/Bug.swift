/// A bug planted in `PaymentService`, each one a way payment services go wrong in production. The
/// service is correct without one (`bug: nil`).
public enum Bug: String, CaseIterable, Sendable {
    /// Actor reentrancy: running balances updated by read, `await`, write, and the lock taken per
    /// payment instead of per user, so two payments of one user interleave and one update is lost.
    case reentrancy
    /// No lock: two concurrent retries of one payment both find no finished payment and both reach the gateway.
    case checkThenAct = "check-then-act"
    /// The intent is saved only after the gateway answered: a crash between the call and the save charges
    /// again on the retry (under a new gateway key).
    case intentAfterCall = "intent-after-call"
    /// A timeout taken for a failure: answered `failed` at once, neither retried under its key nor
    /// reconciled (asking the gateway whether it acted), though the gateway may have charged.
    case timeoutIsFailure = "timeout-is-failure"
    /// Each attempt after a timeout is sent under a new gateway key.
    case retryWithoutKey = "retry-without-key"
    /// Answers before the final save is flushed: a power loss after the answer loses the captured payment.
    case answerBeforeSync = "answer-before-sync"
    /// The checkout screen starts a payment per tap, each under a key of its own (`UUID()`): two taps of
    /// one button charge twice, though the service is correct.
    case doubleTap = "double-tap"
    /// Each retry after a timeout sleeps (`Task.sleep`) and sends under a fresh `UUID().uuidString`.
    case uuidKeyPerAttempt = "uuid-key-per-attempt"
    /// The final save runs in a `Task {}` started after the answer: a crash right after the answer loses it.
    case fireAndForgetSave = "fire-and-forget-save"
}
