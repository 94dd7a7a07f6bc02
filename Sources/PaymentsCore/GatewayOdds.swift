/// How a simulated gateway answers an attempt: the shares of a draw's range that time out, get lost
/// and decline, in that order from the bottom; the rest approves. The one place where both
/// simulators turn a random draw into a gateway response: the generator with probabilities (a
/// uniform draw in 0..<1), the payment worlds with permille (a draw in 0..<1000).
@usableFromInline package struct GatewayOdds<Rate: Comparable & AdditiveArithmetic & Sendable>: Sendable {
    /// Draws below this time out.
    @usableFromInline package let timedOutBelow: Rate
    /// Draws below this (and not below `timedOutBelow`) are lost.
    @usableFromInline package let lostBelow: Rate
    /// Draws below this (and not below `lostBelow`) decline.
    @usableFromInline package let declinedBelow: Rate

    /// The odds of `timeout`, `lost` and `decline` (the bounds are their running sums, added in that order).
    @inlinable package init(timeout: Rate, lost: Rate, decline: Rate) {
        timedOutBelow = timeout
        lostBelow = timeout + lost
        declinedBelow = timeout + lost + decline
    }

    /// The response a draw picks.
    @inlinable package func response(for draw: Rate) -> GatewayResponse {
        draw < timedOutBelow ? .timedOut : draw < lostBelow ? .lost : draw < declinedBelow ? .declined : .approved
    }
}
