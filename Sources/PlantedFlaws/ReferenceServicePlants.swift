@_spi(Tooling) import PaymentService
import PaymentsCore

/// Plants flaws in the reference service from outside it: the service (`PaymentService`) holds none
/// of its own. Each flaw is planted where it can be:
/// - its configuration: `fewer-attempts` (one attempt fewer than SPEC §4), and the two orders of
///   steps (`intent-after-call`, `no-reconcile-on-restart`: `ServiceProcedure`);
/// - its use of the store: `refund-twice` and `skip-refund-checks` (`served(_:)`);
/// - the store itself: the `store-…` defects (`store(_:)`) and the SQLite options;
/// - what it asks for: `retry-without-key` rewrites the key of each retry it sends (`rewrite(_:)`).
///
/// A driver makes its store with `store(_:)` and checks that one; it gives the service `served(_:)`
/// of it and `configuration(_:)`, and passes every batch of effects through `rewrite` before
/// carrying it out.
package struct ReferenceServicePlants: Sendable {
    /// The flaws planted.
    package let flaws: Set<PlantedFlaw>
    /// Whether `rewrite` changes anything: a driver may skip it when not.
    package let rewritesEffects: Bool
    private var unkeyedCalls: UInt32 = 0

    /// Plants `flaws`; throws the first one the reference service cannot have.
    package init(_ flaws: Set<PlantedFlaw>) throws(UnplantableFlaw) {
        if let foreign = flaws.sorted().first(where: { !$0.fixtures.contains(.referenceService) }) { throw UnplantableFlaw(flaw: foreign) }
        self.flaws = flaws
        rewritesEffects = flaws.contains(.retryWithoutKey)
    }

    /// `base` with the planted policy and order of steps.
    package func configuration(_ base: ServiceConfiguration = ServiceConfiguration()) -> ServiceConfiguration {
        var configuration = base
        if flaws.contains(.fewerAttempts) { configuration.policy.maxAttempts -= 1 }
        if flaws.contains(.intentAfterCall) { configuration.procedure.intent = .afterCall }
        if flaws.contains(.noReconcileOnRestart) { configuration.procedure.restart = .failUnasked }
        return configuration
    }

    /// `base`, or, when a `store-…` defect is planted, `base` with it: the store a world runs and checks.
    package func store(_ base: any DurablePaymentStore) -> any DurablePaymentStore {
        let defects = flaws.intersection(Self.storeDefects)
        return defects.isEmpty ? base : DefectiveStore(base: base, defects: defects)
    }

    /// `store` as the service uses it: itself, or, when `refund-twice` or `skip-refund-checks` is
    /// planted, behind that misuse.
    package func served(_ store: any DurablePaymentStore) -> any DurablePaymentStore {
        flaws.contains(.refundTwice) || flaws.contains(.skipRefundChecks) ? MisusedStore(base: store, flaws: flaws) : store
    }

    /// The defects of the store itself.
    static let storeDefects: Set<PlantedFlaw> = [
        .storeKeepsFailedWrites, .storeLosesSettlements, .storeBooksCapturesTwice, .storeRewritesLatency, .storeDropsReasons,
        .storeCapturesFailures, .storeNeverWritesIntents, .storeDriftingReplays, .storeNegativeLedger,
    ]

    /// Whether a SQLite store counts a refund against its charge.
    package var sqliteCountsRefunds: Bool { !flaws.contains(.sqliteUncountedRefund) }
    /// Whether a SQLite store syncs each commit (`synchronous = FULL`).
    package var sqliteSyncsCommits: Bool { !flaws.contains(.sqliteSynchronousNormal) }

    /// Rewrites what the service asked for: under `retry-without-key`, each retry goes to the
    /// gateway under a key of its own.
    package mutating func rewrite(_ effects: inout [ServiceEffect]) {
        guard rewritesEffects else { return }
        for index in effects.indices {
            guard case .send(var call) = effects[index], call.attempt > 0 else { continue }
            unkeyedCalls += 1
            call.key = UInt32.max - unkeyedCalls
            effects[index] = .send(call)
        }
    }
}

/// A flaw asked of a fixture that cannot have it.
package struct UnplantableFlaw: Error, CustomStringConvertible {
    /// The flaw.
    package let flaw: PlantedFlaw
    package var description: String { "the reference service cannot have the planted flaw \(flaw.rawValue) (a flaw of the ledger service)" }
}
