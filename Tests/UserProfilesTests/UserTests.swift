@_spi(Tooling) import HealthCore
import UserProfiles
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
