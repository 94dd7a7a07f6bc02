import HealthCore
import Testing
import TestSupport

@Suite("Users (SPEC §1)")
struct UserTests {
    @Test(
        "fasting protocols: file spelling and eating-window limit",
        arguments: [
            (FastingProtocol.sixteenEight, "16:8", 28_800),
            (.eighteenSix, "18:6", 21_600),
            (.twentyFour, "20:4", 14_400),
            (.omad, "omad", 3_600),
            (.none, "none", nil),
        ] as [(FastingProtocol, String, Int64?)]
    )
    func fastingProtocol(sut: FastingProtocol, name: String, limit: Int64?) {
        // Given a protocol, When reading its spelling and limit, Then they match SPEC §1
        #expect(sut.name == name)
        #expect(sut.windowLimitSeconds == limit)
        #expect(FastingProtocol(name: name) == sut)
    }

    @Test("an unknown protocol spelling is not parsed", arguments: ["", "16/8", "OMAD", "16:8 ", "None"])
    func unknownProtocol(name: String) {
        // Given a spelling outside SPEC §1, When parsing it
        let sut = FastingProtocol(name: name)
        // Then
        #expect(sut == nil)
    }

    @Test(
        "activity levels: file spelling and multiplier",
        arguments: [
            (ActivityLevel.sedentary, "sedentary", 1.2),
            (.light, "light", 1.375),
            (.moderate, "moderate", 1.55),
            (.active, "active", 1.725),
            (.veryActive, "very_active", 1.9),
        ] as [(ActivityLevel, String, Double)]
    )
    func activity(sut: ActivityLevel, name: String, multiplier: Double) {
        #expect(sut.rawValue == name)
        #expect(sut.multiplier == multiplier)
        #expect(ActivityLevel(rawValue: name) == sut)
    }

    @Test("sexes are spelled male and female")
    func sexes() {
        #expect(Sex.allCases.map(\.rawValue) == ["male", "female"])
    }

    // MARK: reading file bytes

    /// Calls `body` with the UTF-8 bytes of `text`.
    static func bytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        Array(text.utf8).withUnsafeBufferPointer(body)
    }

    @Test("each protocol is read from the bytes of its spelling", arguments: [
        ("16:8", FastingProtocol.sixteenEight), ("18:6", .eighteenSix), ("20:4", .twentyFour), ("omad", .omad), ("none", .none),
    ])
    func protocolFromBytes(text: String, expected: FastingProtocol) {
        // Given a spelling of SPEC §1, When its bytes are read
        let sut = Self.bytes(text) { FastingProtocol(utf8: $0) }
        // Then they give the protocol
        #expect(sut == expected)
    }

    @Test("each sex is read from the bytes of its raw value", arguments: [("male", Sex.male), ("female", .female)])
    func sexFromBytes(text: String, expected: Sex) {
        // Given a raw value, When its bytes are read
        let sut = Self.bytes(text) { Sex(utf8: $0) }
        // Then they give the sex
        #expect(sut == expected)
    }

    @Test("each activity level is read from the bytes of its raw value", arguments: [
        ("sedentary", ActivityLevel.sedentary), ("light", .light), ("moderate", .moderate), ("active", .active), ("very_active", .veryActive),
    ])
    func activityFromBytes(text: String, expected: ActivityLevel) {
        // Given a raw value, When its bytes are read
        let sut = Self.bytes(text) { ActivityLevel(utf8: $0) }
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
        let sut = Self.bytes(text) { (FastingProtocol(utf8: $0), Sex(utf8: $0), ActivityLevel(utf8: $0)) }
        // Then none reads it
        #expect(sut.0 == nil)
        #expect(sut.1 == nil)
        #expect(sut.2 == nil)
    }

    @Test("reading bytes agrees with reading the text", arguments: nearMisses + ["16:8", "omad", "none", "male", "female", "light", "very_active"])
    func bytesAgreeWithText(text: String) {
        // Given a spelling or a near miss
        // When it is read from bytes and from text
        let fromBytes = Self.bytes(text) { (FastingProtocol(utf8: $0), Sex(utf8: $0), ActivityLevel(utf8: $0)) }
        // Then both give the same values
        #expect(fromBytes.0 == FastingProtocol(name: text))
        #expect(fromBytes.1 == Sex(rawValue: text))
        #expect(fromBytes.2 == ActivityLevel(rawValue: text))
    }

    @Test("a profile keeps its fields; offsets range over [-720, 840]")
    func profile() {
        // Given
        let builder = UserProfileBuilder().id("u0000042").offset(-210).fastingProtocol(.omad).sex(nil)
            .age(41).weight(62.5).height(171).activity(nil)
        // When
        let sut = builder.build()
        // Then
        #expect(sut.id == "u0000042")
        #expect(sut.utcOffsetMinutes == -210)
        #expect(sut.fastingProtocol == .omad)
        #expect(sut.sex == nil)
        #expect(sut.age == 41)
        #expect(sut.weightKg == 62.5)
        #expect(sut.heightCm == 171)
        #expect(sut.activity == nil)
        #expect(UserProfile.utcOffsetRange == -720...840)
    }
}
