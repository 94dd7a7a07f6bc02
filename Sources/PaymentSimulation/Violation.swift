@_spi(Tooling) import SimulationCore

/// A broken invariant, where it broke, and what happened to the payment before.
package struct Violation: Hashable, Sendable {
    /// The invariant.
    package var invariant: Invariant
    /// What is wrong.
    package var message: String
    /// The world's step at which it was seen.
    package var step: Int
    /// Its simulated time, in milliseconds.
    package var timeMillis: Int64
    /// The payment concerned, if one is.
    package var payment: UInt32?
    /// The payment's recent events, oldest first.
    package var history: [String]
}
