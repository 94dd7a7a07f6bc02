import Datasets
@_spi(Tooling) import HealthCore
import UserProfiles
import Testing

@Suite("CanonicalRows.user: the one-pass fast path for canonical users.csv rows")
struct CanonicalUsersTests {
    static func profile(
        _ id: String, _ offset: Int32, _ fastingProtocol: FastingProtocol, _ sex: Sex?, _ age: Int, _ weight: Double, _ height: Double,
        _ activity: ActivityLevel?
    ) -> Candidate {
        .user(UserProfile(id: id, utcOffsetMinutes: offset, fastingProtocol: fastingProtocol, sex: sex, age: age, weightKg: weight,
                          heightCm: height, activity: activity), idCount: id.utf8.count)
    }

    @Test("a plain user row becomes the general path's profile", arguments: [
        ("u0000001,60,16:8,female,34,61.5,168,moderate", profile("u0000001", 60, .sixteenEight, .female, 34, 61.5, 168, .moderate)),
        // the lowest offset, a one-byte id, zero age and height
        ("a,-720,none,male,0,0.5,0,very_active", profile("a", -720, .none, .male, 0, 0.5, 0, .veryActive)),
        // a 16-byte id, the highest offset, an unknown sex and activity (kept as unknown)
        ("abcdefghijklmnop,840,omad,other,120,123.25,199.9,lazy", profile("abcdefghijklmnop", 840, .omad, nil, 120, 123.25, 199.9, nil)),
        // a 2-byte character in the id, -0, leading zeros, an empty activity
        ("u\u{E9}1,-0,20:4,x,007,80,180,", profile("u\u{E9}1", 0, .twentyFour, nil, 7, 80, 180, nil)),
        ("u2,0330,18:6,female,41,1234.567,0.001,sedentary", profile("u2", 330, .eighteenSix, .female, 41, 1234.567, 0.001, .sedentary)),
    ])
    func accepted(line: String, expected: Candidate) throws {
        // Given a plainly valid user line of a canonical file, followed by another line
        let runner = try PathRunner(.users)
        // When both paths parse it
        let sut = runner.run(line)
        // Then the fast path returns the hand-worked profile and id length, as the general path does, and stops at the line's \n
        #expect(sut.fast?.candidate == expected)
        #expect(sut.general == expected)
        #expect(sut.fast?.lineEnd == sut.lineEnd)
    }

    @Test("a user line that is not plainly valid gets nil", arguments: [
        ("user_id", ""), ("utc_offset_minutes", "841"), ("utc_offset_minutes", "-721"), ("utc_offset_minutes", "+60"),
        ("utc_offset_minutes", "60.0"), ("utc_offset_minutes", ""), ("utc_offset_minutes", "--60"), ("utc_offset_minutes", "- 60"),
        ("utc_offset_minutes", "-"), ("utc_offset_minutes", "9223372036854775808"), ("protocol", "x"), ("protocol", "16:8 "),
        ("protocol", ""), ("protocol", "OMAD"), ("protocol", "16:80"), ("age", "3.5"), ("age", ""), ("age", "+34"),
        ("weight_kg", "61."), ("weight_kg", ".5"), ("weight_kg", "1e2"), ("weight_kg", ""), ("height_cm", "168cm"),
        ("height_cm", "1,68"), ("activity", "moderate\r"), ("activity", "moderate,x"), ("activity", "moderate,"),
    ])
    func declined(column: String, text: String) throws {
        // Given the default user with one column spoiled (a rejection, a grammar error, an extra field, a \r line end)
        let runner = try PathRunner(.users)
        // When the fast path parses it
        let sut = runner.run(CSVRowBuilder.user.with(column, text).line)
        // Then it declines
        #expect(sut.fast == nil)
    }

    @Test("a valid user in a shape the fast path does not cover gets nil, and the general path accepts it", arguments: [
        ("sex", ""), ("sex", "a-very-long-sex-x"), ("age", "-5"), ("weight_kg", "-61.5"), ("height_cm", "-0"),
        ("activity", "a-very-long-activity"), ("user_id", "u0000001-00000001"), ("utc_offset_minutes", "0000000000000060"),
        ("age", "0000000000000034"), ("weight_kg", "1234567890.123456789"),
    ])
    func uncovered(column: String, text: String) throws {
        // Given a valid user with an empty or long field, a sign, or more digits than the fast path reads
        let runner = try PathRunner(.users)
        // When both paths parse it
        let sut = runner.run(CSVRowBuilder.user.with(column, text).line)
        // Then the fast path declines and the general path accepts it
        #expect(sut.fast == nil)
        #expect(sut.general != nil)
    }

    @Test("a user line that ends the chunk is not read past its end", arguments: [
        ("u0000001,60,16:8,female,34,61.5,168,very_active", true), ("u,0,none,male,1,1,1,", true), ("u,-5,none,male,1,1,1,x", true),
        ("u,0,none,male,1,1,1", false), ("u0000001,60,16:8,female,34,61.5,16", false), ("u0000001,60,16:", false),
        ("u0000001,-", false), ("u0000001", false), ("u", false),
    ])
    func chunkEnd(line: String, accepted: Bool) throws {
        // Given a line that ends where an unreadable page begins (a read past its end would crash)
        let runner = try PathRunner(.users)
        let guarded = GuardedChunk()
        // When the fast path parses it
        let sut = guarded.withBytes(Array(line.utf8)) { runner.run($0, start: 0, end: line.utf8.count) }
        // Then it keeps the contract, and accepts the valid lines up to the chunk's end
        #expect(sut.keepsContract, "\(sut)")
        #expect((sut.fast?.lineEnd == line.utf8.count) == accepted)
    }
}
