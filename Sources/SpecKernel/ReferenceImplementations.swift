import UserAlgorithms

extension Implementations {
    /// The SPEC's own implementations: `UserKernel` for all three algorithms.
    package static let reference = Implementations(fasting: UserKernel.self, steps: UserKernel.self, payments: UserKernel.self)

    /// Whether every implementation is the reference's.
    package var isReference: Bool { customNames.isEmpty }

    /// The implementations that are not the reference's, by algorithm and type name (`fasting MyAnalyzer`).
    public var customNames: [String] {
        [("fasting", fasting as Any.Type), ("steps", steps), ("payments", payments)]
            .filter { $0.1 != UserKernel.self }
            .map { "\($0.0) \($0.1)" }
    }
}
