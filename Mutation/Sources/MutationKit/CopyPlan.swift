/// Which reference code a user implementation consists of, and so is copied and mutated: whole
/// algorithm types (copied under their own names, which shadow the imported ones in the generated
/// module), and methods of the value types the algorithm protocols pass (copied into extensions,
/// whose members shadow the imported ones; the types themselves stay the reference's, so the
/// copies consume and return exactly the protocols' types).
public struct CopyPlan: Sendable {
    /// A file under `Sources/` (`HealthCore/Fasting.swift`).
    public var file: String
    /// Top-level declarations copied whole, with the extensions of them in the file.
    public var types: [String]
    /// Methods copied into an extension of their (imported) type, by type.
    public var members: [String: [String]]
    /// Structs of the file (not copied) whose equality the copies use: each gets an explicit
    /// `static func ==` in an extension, which shadows the imported one in the copies, with one
    /// mutant per stored field that leaves that field out of the comparison. A synthesized `==`
    /// becomes the comparison of every stored field; a hand-written one keeps its body (mutated too).
    public var equalities: [String]

    public init(file: String, types: [String] = [], members: [String: [String]] = [:], equalities: [String] = []) {
        self.file = file
        self.types = types
        self.members = members
        self.equalities = equalities
    }

    /// The reference algorithms: HealthCore's and PaymentsCore's accumulators, processor, rules and
    /// store, and the per-user kernel; the equality of the idempotency fingerprint (`PaymentRules`
    /// compares a retry's with the recorded one). Not copied: the rejection checks (the engine's, not an
    /// implementation's), `KeyTable` (a hash table: its mutants change which slot a key takes or when
    /// the table grows, which its unit tests judge, not a workload), the gateway and the ledger
    /// (their state is private, or their methods have nothing to mutate).
    public static let reference: [CopyPlan] = [
        CopyPlan(file: "HealthCore/Fasting.swift", types: ["FastingAccumulator"], members: ["Meal": ["precedes"]]),
        CopyPlan(file: "HealthCore/Steps.swift", types: ["StepAccumulator"], members: ["StepSample": ["precedes"]]),
        CopyPlan(file: "HealthCore/LocalDay.swift", members: ["LocalDay": ["exactStartInstant", "startPastInt64", "instants"]]),
        CopyPlan(file: "PaymentsCore/PaymentProcessor.swift", types: ["PaymentProcessor"]),
        CopyPlan(file: "PaymentsCore/PaymentRules.swift", types: ["PaymentRules"]),
        CopyPlan(file: "PaymentsCore/PaymentStore.swift", types: ["InMemoryPaymentStore"], equalities: ["PaymentFingerprint"]),
        CopyPlan(file: "PaymentsCore/Retry.swift", members: ["RetryPolicy": ["backoffMillis"]]),
        CopyPlan(file: "SpecKernel/NearlySorted.swift", types: ["sortNearlySorted"]),
        CopyPlan(file: "SpecKernel/UserKernel.swift", types: ["UserKernel", "JitterSource", "UserJitter"]),
    ]
}
