import PaymentsCore
import Testing

@Suite("GatewayOdds: a random draw to a gateway response")
struct GatewayOddsTests {
    @Test("permille: timeouts from the bottom, then losses, then declines, the rest approves", arguments: [
        (0, GatewayResponse.timedOut), (19, .timedOut), (20, .lost), (24, .lost), (25, .declined), (64, .declined), (65, .approved), (999, .approved),
    ] as [(Int, GatewayResponse)])
    func permille(draw: Int, expected: GatewayResponse) {
        // Given odds of 20 timeouts, 5 losses and 40 declines per thousand
        let sut = GatewayOdds(timeout: 20, lost: 5, decline: 40)
        // When a draw is turned into a response
        // Then each band gives its response, its lower bound included and its upper one not
        #expect(sut.response(for: draw) == expected)
    }

    @Test("probabilities: the bounds are the running sums of the rates, in order")
    func probabilities() {
        // Given rates whose sums round in floating point
        let sut = GatewayOdds(timeout: 0.1, lost: 0.2, decline: 0.3)
        // Then the bounds are the sums added left to right, as the generator always drew them
        #expect(sut.lostBelow == 0.1 + 0.2)
        #expect(sut.declinedBelow == 0.1 + 0.2 + 0.3)
        #expect(sut.response(for: 0.1 + 0.2) == .declined)
        // And 0.6 still declines: 0.1 + 0.2 + 0.3 rounds to just above it
        #expect(sut.response(for: 0.6) == .declined)
        #expect(sut.response(for: 0.6000000000000002) == .approved)
    }

    @Test("zero odds approve every draw")
    func none() {
        // Given no timeouts, losses or declines
        let sut = GatewayOdds(timeout: 0, lost: 0, decline: 0)
        // Then the lowest draw approves
        #expect(sut.response(for: 0) == .approved)
    }
}
