import Datasets
@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore
import Testing
import TestSupport

/// The domain's values read from the bytes of file fields: each reader agrees with the domain's
/// own reading of the text.
@Suite("Domain values from field bytes")
struct DomainFieldsTests {
    /// Calls `body` with the UTF-8 bytes of `text`.
    static func bytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        Array(text.utf8).withUnsafeBufferPointer(body)
    }

    @Test("each protocol is read from the bytes of its spelling", arguments: [
        ("16:8", FastingProtocol.sixteenEight), ("18:6", .eighteenSix), ("20:4", .twentyFour), ("omad", .omad), ("none", .none),
    ])
    func protocolFromBytes(text: String, expected: FastingProtocol) {
        // Given a spelling of SPEC §1, When its bytes are read
        let sut = Self.bytes(text) { FastingProtocol(field: $0) }
        // Then they give the protocol
        #expect(sut == expected)
    }

    @Test("each sex is read from the bytes of its raw value", arguments: [("male", Sex.male), ("female", .female)])
    func sexFromBytes(text: String, expected: Sex) {
        // Given a raw value, When its bytes are read
        let sut = Self.bytes(text) { Sex(field: $0) }
        // Then they give the sex
        #expect(sut == expected)
    }

    @Test("each activity level is read from the bytes of its raw value", arguments: [
        ("sedentary", ActivityLevel.sedentary), ("light", .light), ("moderate", .moderate), ("active", .active), ("very_active", .veryActive),
    ])
    func activityFromBytes(text: String, expected: ActivityLevel) {
        // Given a raw value, When its bytes are read
        let sut = Self.bytes(text) { ActivityLevel(field: $0) }
        // Then they give the level
        #expect(sut == expected)
    }

    /// Texts close to the spellings: a byte too many or too few, another case, a `\r`, a space,
    /// look-alike characters (a fullwidth colon, a decomposed é), an empty field.
    static let nearMisses = [
        "", " ", "16:8 ", " 16:8", "16:", "16:80", "16/8", "16\u{FF1A}8", "OMAD", "None", "omad\r", "nonee",
        "Male", "mal", "males", "femal", "female\r", "fe\u{301}male", "other",
        "Light", "ligh", "lights", "very-active", "very_activ", "very_active ", "activ", "actives", "sedentaryy", "moderate\r",
    ]

    @Test("bytes that spell no value are not read", arguments: nearMisses)
    func unknownBytes(text: String) {
        // Given a near miss of every spelling
        // When its bytes are read as each enum
        let sut = Self.bytes(text) { (FastingProtocol(field: $0), Sex(field: $0), ActivityLevel(field: $0)) }
        // Then none reads it
        #expect(sut.0 == nil)
        #expect(sut.1 == nil)
        #expect(sut.2 == nil)
    }

    @Test("reading bytes agrees with reading the text", arguments: nearMisses + ["16:8", "omad", "none", "male", "female", "light", "very_active"])
    func bytesAgreeWithText(text: String) {
        // Given a spelling or a near miss
        // When it is read from bytes and from text
        let fromBytes = Self.bytes(text) { (FastingProtocol(field: $0), Sex(field: $0), ActivityLevel(field: $0)) }
        // Then both give the same values
        #expect(fromBytes.0 == FastingProtocol(name: text))
        #expect(fromBytes.1 == Sex(rawValue: text))
        #expect(fromBytes.2 == ActivityLevel(rawValue: text))
    }

    @Test("currency codes are read from bytes exactly as from text", arguments: Currency.allCases.map(\.code)
        + ["usd", "Usd", "XYZ", "US", "USDX", "", " USD", "JPY "])
    func currencies(code: String) {
        // Given a code or a near miss, When its bytes are read
        let sut = Self.bytes(code) { Currency(field: $0) }
        // Then they give what the text gives
        #expect(sut == Currency(code: code))
    }

    @Test("payment kinds are read from the bytes of their spelling, case and all",
          arguments: [("charge", PaymentKind.charge), ("refund", .refund), ("Charge", nil), ("refunds", nil), ("", nil), ("charg", nil)])
    func kinds(text: String, expected: PaymentKind?) {
        // Given a kind or a near miss, When its bytes are read
        let sut = Self.bytes(text) { PaymentKind(field: $0) }
        // Then only SPEC's spellings give a kind
        #expect(sut == expected)
    }

    @Test("gateway scripts are read from bytes exactly as from text", arguments: [
        "A", "D", "T;L;D", "L;D", "D;A;T;L", String(repeating: "T;", count: 39) + "A",
        "", "A;", ";A", "X", "AA", "a", "A;;D", "A D", "A;X", " A", ";", "A,D", "AD;", "0", "L;T\r",
    ])
    func gatewayScripts(text: String) {
        // Given a script or a bad one, When its bytes are read
        let sut = Self.bytes(text) { GatewayScript(field: $0) }
        // Then they give what the text gives
        #expect(sut == GatewayScript.parsing(text))
    }
}
