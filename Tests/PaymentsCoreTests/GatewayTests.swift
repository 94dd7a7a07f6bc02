import PaymentsCore
import Testing
import TestSupport

@Suite("Gateway scripts and the scripted gateway (SPEC §4)")
struct GatewayTests {
    @Test(
        "responses: token and whether the gateway acted",
        arguments: [
            (GatewayResponse.approved, "A", true),
            (.declined, "D", false),
            (.timedOut, "T", false),
            (.lost, "L", true),
        ] as [(GatewayResponse, Character, Bool)]
    )
    func response(sut: GatewayResponse, token: Character, acted: Bool) {
        #expect(sut.token == token)
        #expect(sut.acted == acted)
    }

    @Test(
        "valid scripts parse; attempts past the end repeat the last token",
        arguments: [
            ("A", [GatewayResponse.approved, .approved, .approved]),
            ("D", [.declined, .declined]),
            ("T;L;D", [.timedOut, .lost, .declined, .declined, .declined]),
            ("L;D", [.lost, .declined, .declined]),
            ("D;A;T;L", [.declined, .approved, .timedOut, .lost, .lost, .lost]),
        ] as [(String, [GatewayResponse])]
    )
    func parse(text: String, responses: [GatewayResponse]) throws {
        // Given a script as written in payments.csv, When parsing it
        let sut = try #require(GatewayScript.parsing(text))
        // Then
        #expect(sut.text == text)
        #expect(sut.count == (text.count + 1) / 2)
        #expect(sut.last == responses.last)
        #expect(responses.indices.map { sut.response(at: $0) } == responses)
        #expect(sut == GatewayScript(Array(responses.prefix(sut.count))))
    }

    @Test("bad scripts do not parse", arguments: ["", "A;", ";A", "X", "AA", "a", "A;;D", "A D", "A;X", " A", ";", "A,D", "AD;"])
    func badScript(text: String) {
        #expect(GatewayScript.parsing(text) == nil)
    }

    @Test("a script longer than the capacity keeps every token an attempt can reach")
    func longScript() throws {
        // Given 39 timeouts then an approval: 40 tokens, more than the 32 attempts a policy allows
        let text = String(repeating: "T;", count: 39) + "A"
        // When
        let sut = try #require(GatewayScript.parsing(text))
        // Then the 32 reachable attempts are timeouts, and the last token is still known
        #expect(GatewayScript.capacity == 32)
        #expect(sut.count == 40)
        #expect((0..<32).allSatisfy { sut.response(at: $0) == .timedOut })
        #expect(sut.last == .approved)
        #expect(sut.response(at: 40) == .approved)
    }

    @Test("a script from packed responses equals the one appended response by response, bits past its count ignored",
          arguments: [0, 1, 2, 7, 31, 32])
    func packedScript(count: Int) {
        // Given `count` responses cycling through all four, packed two bits each, first lowest, with stray bits past them
        let responses = (0..<count).map { [GatewayResponse.timedOut, .lost, .declined, .approved][$0 % 4] }
        let packed = responses.enumerated().reduce(count < 32 ? ~UInt64(0) << (2 * UInt64(count)) : 0) { bits, item in
            bits | UInt64(item.element.rawValue) << (2 * UInt64(item.offset))
        }
        // When the script is made from them at once
        let sut = GatewayScript(packed: packed, count: count)
        // Then it is the script appended one by one: same responses, same last one, equal
        #expect(sut == GatewayScript(responses))
        #expect((0..<count + 2).map(sut.response(at:)) == (0..<count + 2).map(GatewayScript(responses).response(at:)))
    }

    @Test("the scripted gateway answers the script until it acts, then approves")
    func scriptedGateway() throws {
        // Given a gateway and a payment scripted T;L;D under key 1
        var sut = ScriptedGateway()
        let script = try #require(GatewayScript.parsing("T;L;D"))
        // When attempts 0, 1, 2 are sent
        let first = sut.submit(GatewayRequest(key: 1, attempt: 0, script: script))
        let actedAfterFirst = sut.hasActed(key: 1)
        let second = sut.submit(GatewayRequest(key: 1, attempt: 1, script: script))
        let third = sut.submit(GatewayRequest(key: 1, attempt: 2, script: script))
        // Then the lost answer acted once, and the third attempt is approved instead of declined
        #expect([first, second, third] == [.timedOut, .lost, .approved])
        #expect(!actedAfterFirst)
        #expect(sut.hasActed(key: 1))
        #expect(sut.actions(key: 1) == 1)
    }

    @Test("the scripted gateway keeps keys apart and forgets them on reset")
    func scriptedGatewayKeys() throws {
        // Given key 1 approved
        var sut = ScriptedGateway()
        let approve = try #require(GatewayScript.parsing("A"))
        let decline = try #require(GatewayScript.parsing("D"))
        _ = sut.submit(GatewayRequest(key: 1, attempt: 0, script: approve))
        // When key 2 is declined, and key 1 is sent again
        let other = sut.submit(GatewayRequest(key: 2, attempt: 0, script: decline))
        let again = sut.submit(GatewayRequest(key: 1, attempt: 0, script: decline))
        // Then
        #expect(other == .declined)
        #expect(again == .approved)
        #expect(sut.actions(key: 1) == 1)
        #expect(sut.actions(key: 2) == 0)
        #expect(!sut.hasActed(key: 2))
        // When reset, Then every key is forgotten
        sut.reset()
        #expect(!sut.hasActed(key: 1))
        #expect(sut.actions(key: 1) == 0)
        #expect(sut.submit(GatewayRequest(key: 1, attempt: 0, script: decline)) == .declined)
    }
}
