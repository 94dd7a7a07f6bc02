import Datasets
@_spi(Tooling) import HealthCore
import UserProfiles
import Testing

@Suite("RowDecoders.user: users.csv rows (SPEC §1)")
struct UserRowDecoderTests {
    static func decode(_ row: CSVRowBuilder) throws -> Result<UserProfile, RowDecoders.MalformedColumn> {
        try withFields(row) { RowDecoders.user($0) }
    }

    static func malformed(_ column: String) -> Result<UserProfile, RowDecoders.MalformedColumn> {
        .failure(RowDecoders.MalformedColumn(DatasetKind.users.columns.firstIndex(of: column)!))
    }

    @Test("a valid row gives the profile")
    func valid() throws {
        // Given the default user row
        // When decoded
        let sut = try Self.decode(.user)
        // Then every field is read
        #expect(sut == .success(UserProfile(
            id: "u0000001", utcOffsetMinutes: 60, fastingProtocol: .sixteenEight, sex: .female,
            age: 34, weightKg: 61.5, heightCm: 168, activity: .moderate
        )))
    }

    @Test("utc_offset_minutes in [-720, 840] is accepted", arguments: [("-720", Int32(-720)), ("840", 840), ("0", 0), ("-0", 0), ("330", 330)])
    func offsetInRange(text: String, minutes: Int32) throws {
        // Given an offset at or within the bounds
        // When decoded
        let sut = try Self.decode(CSVRowBuilder.user.with("utc_offset_minutes", text))
        // Then the user has that offset
        #expect(try sut.get().utcOffsetMinutes == minutes)
    }

    @Test("utc_offset_minutes outside [-720, 840] or not an integer is malformed", arguments: [
        "-721", "841", "", "+60", "60.0", "1e2", " 60", "9223372036854775808", "-9223372036854775809", "4294967356",
    ])
    func offsetMalformed(text: String) throws {
        // Given a bad offset
        // When decoded
        let sut = try Self.decode(CSVRowBuilder.user.with("utc_offset_minutes", text))
        // Then the row is malformed on utc_offset_minutes
        #expect(sut == Self.malformed("utc_offset_minutes"))
    }

    @Test("each protocol name is read", arguments: [
        ("16:8", FastingProtocol.sixteenEight), ("18:6", .eighteenSix), ("20:4", .twentyFour), ("omad", .omad), ("none", .none),
    ])
    func protocols(text: String, expected: FastingProtocol) throws {
        // Given a known protocol
        // When decoded
        let sut = try Self.decode(CSVRowBuilder.user.with("protocol", text))
        // Then the user has it
        #expect(try sut.get().fastingProtocol == expected)
    }

    @Test("an unknown protocol is malformed", arguments: ["", "16:08", "16-8", "OMAD", "None", "12:12", " 16:8"])
    func unknownProtocol(text: String) throws {
        // Given an unknown protocol
        // When decoded
        let sut = try Self.decode(CSVRowBuilder.user.with("protocol", text))
        // Then the row is malformed on protocol
        #expect(sut == Self.malformed("protocol"))
    }

    @Test("an empty user_id is malformed, before any other column")
    func emptyId() throws {
        // Given a row with an empty id and a bad offset
        // When decoded
        let sut = try Self.decode(CSVRowBuilder.user.with("user_id", "").with("utc_offset_minutes", "999"))
        // Then the id is the culprit
        #expect(sut == Self.malformed("user_id"))
    }

    @Test("a bad age, weight or height is malformed on that column", arguments: [
        ("age", "34.5"), ("age", ""), ("age", "+34"), ("age", "thirty"), ("age", "99999999999999999999"),
        ("weight_kg", ".5"), ("weight_kg", "61."), ("weight_kg", "1e2"), ("weight_kg", ""),
        ("height_cm", "-"), ("height_cm", "168cm"), ("height_cm", ""),
    ])
    func badMeasures(column: String, text: String) throws {
        // Given a bad value in a numeric column
        // When decoded
        let sut = try Self.decode(CSVRowBuilder.user.with(column, text))
        // Then the row is malformed on that column
        #expect(sut == Self.malformed(column))
    }

    @Test("offset is checked before protocol, protocol before age")
    func columnOrder() throws {
        // Given rows that break two rules
        // When decoded
        let offsetAndProtocol = try Self.decode(CSVRowBuilder.user.with("utc_offset_minutes", "841").with("protocol", "x"))
        let protocolAndAge = try Self.decode(CSVRowBuilder.user.with("protocol", "x").with("age", "x"))
        // Then the earlier rule names the column
        #expect(offsetAndProtocol == Self.malformed("utc_offset_minutes"))
        #expect(protocolAndAge == Self.malformed("protocol"))
    }

    @Test("an unknown sex or activity is kept as unknown, not malformed (SPEC §0 lists no such enum)")
    func unknownSexAndActivity() throws {
        // Given a row with sex and activity outside their lists
        // When decoded
        let sut = try Self.decode(CSVRowBuilder.user.with("sex", "other").with("activity", "extreme"))
        // Then the user is accepted with both unknown
        let profile = try sut.get()
        #expect(profile.sex == nil)
        #expect(profile.activity == nil)
    }

    @Test("each activity level is read", arguments: [
        ("sedentary", ActivityLevel.sedentary), ("light", .light), ("moderate", .moderate), ("active", .active), ("very_active", .veryActive),
    ])
    func activities(text: String, expected: ActivityLevel) throws {
        // Given a known activity
        // When decoded
        let sut = try Self.decode(CSVRowBuilder.user.with("activity", text).with("sex", "male"))
        // Then the user has it
        #expect(try sut.get().activity == expected)
        #expect(try sut.get().sex == .male)
    }

    @Test("a user id is kept byte for byte")
    func idBytes() throws {
        // Given a decomposed é in the id
        // When decoded
        let sut = try Self.decode(CSVRowBuilder.user.with("user_id", "ue\u{301}"))
        // Then the id keeps its two scalars
        #expect(try Array(sut.get().id.utf8) == [0x75, 0x65, 0xCC, 0x81])
    }
}
