import Datasets
@_spi(Tooling) import HealthCore
import Testing

@Suite("CanonicalRows: the one-pass fast path for canonical meals.csv, steps.csv and users.csv rows")
struct CanonicalRowsTests {
    // MARK: accepted rows, worked out by hand

    @Test("a plain meal becomes the general path's candidate", arguments: [
        ("m0000001,u0000002,1700000000,1700001800,breakfast,650.5,30,70.25,20",
         Candidate.meal(start: 1_700_000_000, kcalMicros: 650_500_000, idHash: hashOf("m0000001"), user: 1, duration: 1_800)),
        // a 16-byte id, the longest meal, one millionth of a kcal, 18 digits of fat
        ("abcdefghijklmnop,u0000001,0,14400,snack,0.000001,0,0.5,123456789.123456789",
         Candidate.meal(start: 0, kcalMicros: 1, idHash: hashOf("abcdefghijklmnop"), user: 0, duration: 14_400)),
        // a zero-length meal, leading zeros, 12 + 6 digits of kcal
        ("m,u0000001,0001700000000,1700000000,lunch,123456789012.123456,1,2,3",
         Candidate.meal(start: 1_700_000_000, kcalMicros: 123_456_789_012_123_456, idHash: hashOf("m"), user: 0, duration: 0)),
        // a 15-digit start, an 8-byte id (one full word, then the comma) with quotes and a 2-byte character
        ("\"m\u{E9}001\",u0000002,999999999985600,999999999999999,dinner,7,0.25,10.125,99",
         Candidate.meal(start: 999_999_999_985_600, kcalMicros: 7_000_000, idHash: hashOf("\"m\u{E9}001\""), user: 1, duration: 14_399)),
    ])
    func acceptedMeal(line: String, expected: Candidate) throws {
        // Given a plainly valid meal line of a canonical file, followed by another line
        let runner = try PathRunner(.meals)
        // When both paths parse it
        let sut = runner.run(line)
        // Then the fast path returns the hand-worked candidate, as the general path does, and stops at the line's \n
        #expect(sut.fast?.candidate == expected)
        #expect(sut.general == expected)
        #expect(sut.fast?.lineEnd == sut.lineEnd)
    }

    @Test("a plain step sample becomes the general path's candidate", arguments: [
        ("s0000001,u0000001,watch,1700000000,1700003600,1234.5",
         Candidate.step(start: 1_700_000_000, count: 1234.5, idHash: hashOf("s0000001"), user: 0, duration: 3_600, source: .watch)),
        ("s1,u0000002,phone,0,86400,0.1",
         Candidate.step(start: 0, count: 0.1, idHash: hashOf("s1"), user: 1, duration: 86_400, source: .phone)),
        ("s000000003,u0000001,phone,1772380851,1772382989,0.0",
         Candidate.step(start: 1_772_380_851, count: 0, idHash: hashOf("s000000003"), user: 0, duration: 2_138, source: .phone)),
        // Digits below 2^53: all of them enter the mantissa, divided once, as in FieldParsing.decimal (more go
        // to the general path, which rounds them once)
        ("s,u0000002,watch,5,6,9007199254740991",
         Candidate.step(start: 5, count: 9_007_199_254_740_991, idHash: hashOf("s"), user: 1, duration: 1, source: .watch)),
        ("s,u0000002,watch,5,6,1234567.12345678",
         Candidate.step(start: 5, count: 1_234_567.123_456_78, idHash: hashOf("s"), user: 1, duration: 1, source: .watch)),
    ])
    func acceptedStep(line: String, expected: Candidate) throws {
        // Given a plainly valid step line of a canonical file, followed by another line
        let runner = try PathRunner(.steps)
        // When both paths parse it
        let sut = runner.run(line)
        // Then the fast path returns the hand-worked candidate, as the general path does, and stops at the line's \n
        #expect(sut.fast?.candidate == expected)
        #expect(sut.general == expected)
        #expect(sut.fast?.lineEnd == sut.lineEnd)
    }

    @Test("lineEnd is the offset of the line's \\n from the chunk's base, or the chunk's end for its last line")
    func lineEnds() {
        // Given a chunk of a 6-byte line, a 63-byte meal line and a 62-byte last meal line without \n
        let first = "m0000001,u0000001,1700000000,1700001800,lunch,650.5,30,70.25,20"
        let chunk = Array(("header\n" + first + "\n" + first.dropLast()).utf8)
        // When the fast path parses the two meal lines
        let sut = chunk.withUnsafeBufferPointer { bytes in
            [7, 71].map { CanonicalRows.meal(bytes.baseAddress!, start: $0, end: bytes.count, users: twoUsers)?.lineEnd }
        }
        // Then the first ends at its \n (7 + 63) and the second at the chunk's end (71 + 62)
        #expect(sut == [70, 133])
    }

    // MARK: lines left to the general path

    @Test("a meal line that is not plainly valid and accepted gets nil", arguments: [
        ("meal_id", ""), ("user_id", ""), ("user_id", "u0000003"), ("user_id", "U0000001"), ("user_id", "u0000001 "),
        ("start", ""), ("start", "+1700000000"), ("start", "1.5"), ("start", "1e9"), ("start", " 1700000000"),
        ("start", "9223372036854775808"), ("start", "99999999999999999999"),
        ("end", "1699999999"), ("end", "1700014401"), ("end", "1700001800 "),
        ("type", "Lunch"), ("type", "brunch"), ("type", "breakfas"), ("type", "breakfasts"), ("type", "lunch "), ("type", ""),
        ("type", "dinnerx"), ("type", "snak"),
        ("kcal", "-650.5"), ("kcal", "650."), ("kcal", ".5"), ("kcal", "1e2"), ("kcal", "NaN"), ("kcal", ""), ("kcal", "\"650.5\""),
        ("protein_g", "-1"), ("protein_g", "+30"), ("protein_g", "30."), ("protein_g", ".5"), ("protein_g", "1..2"), ("protein_g", ""),
        ("carbs_g", "70.25.1"), ("carbs_g", "-0.0000001"), ("carbs_g", "7O"),
        ("fat_g", "20g"), ("fat_g", "-20.5"), ("fat_g", "20\r"), ("fat_g", "20,"), ("fat_g", "20,x"), ("fat_g", ""), ("fat_g", "2 0"),
    ])
    func nilMeal(column: String, text: String) throws {
        // Given the default meal with one column spoiled (a rejection, a grammar error, an extra field, a \r line end)
        let runner = try PathRunner(.meals)
        // When the fast path parses it
        let sut = runner.run(CSVRowBuilder.meal.with(column, text).line)
        // Then it declines
        #expect(sut.fast == nil)
    }

    @Test("a step line that is not plainly valid and accepted gets nil", arguments: [
        ("sample_id", ""), ("user_id", ""), ("user_id", "u0000003"), ("source", "Watch"), ("source", "WATCH"),
        ("source", "watch "), ("source", "tablet"), ("source", "phon"), ("source", ""), ("start", "+1700000000"),
        ("start", "1.0"), ("end", "1700000000"), ("end", "1700086401"), ("end", "1e9"), ("end", "-1"),
        ("count", "-1"), ("count", "-1234.5"), ("count", "1e3"), ("count", ".5"), ("count", "5."), ("count", "NaN"),
        ("count", ""), ("count", "1234.5\r"), ("count", "1234.5,"), ("count", "1 234"),
    ])
    func nilStep(column: String, text: String) throws {
        // Given the default step sample with one column spoiled
        let runner = try PathRunner(.steps)
        // When the fast path parses it
        let sut = runner.run(CSVRowBuilder.step.with(column, text).line)
        // Then it declines
        #expect(sut.fast == nil)
    }

    @Test("a line of the wrong shape gets nil", arguments: [
        "", "\r", ",,,,,,,,", "m0000001,u0000001,1700000000,1700001800,lunch,650.5,30,70.25",
        "m0000001,u0000001,1700000000,,1700001800,lunch,650.5,30,70.25,20", "m0000001,,u0000001,1700000000,1700001800,lunch,650.5,30,70.25,20",
        "m0000001,u0000001,1700000000,1700001800,lunch,650.5,30,70.25,20,", "m0000001,u0000001,1700000000,1700001800,lunch,650.5,30,70.25,20\r",
        "m0000001;u0000001;1700000000;1700001800;lunch;650.5;30;70.25;20",
    ])
    func nilShape(line: String) throws {
        // Given a blank line, a line with a field too few or too many, a CRLF line end or other separators
        let runner = try PathRunner(.meals)
        // When the fast path parses it
        let sut = runner.run(line)
        // Then it declines
        #expect(sut.fast == nil)
    }

    @Test("a valid meal in a shape the fast path does not cover gets nil, and the general path accepts it", arguments: [
        CSVRowBuilder.meal.with("kcal", "-0"), CSVRowBuilder.meal.with("protein_g", "-0.0"), CSVRowBuilder.meal.with("fat_g", "-0"),
        CSVRowBuilder.meal.with("start", "-5").with("end", "100"), CSVRowBuilder.meal.with("kcal", "650.1234567"),
        CSVRowBuilder.meal.with("kcal", "1234567890123"), CSVRowBuilder.meal.with("start", "0001700000000000").with("end", "1700000000000"),
        CSVRowBuilder.meal.with("meal_id", "m0000001-00000001"), CSVRowBuilder.meal.with("protein_g", "1234567890.123456789"),
    ])
    func uncoveredMeal(row: CSVRowBuilder) throws {
        // Given a valid meal with a sign, more digits than the fast path parses exactly, or an id over 16 bytes
        let runner = try PathRunner(.meals)
        // When both paths parse it
        let sut = runner.run(row.line)
        // Then the fast path declines and the general path accepts it
        #expect(sut.fast == nil)
        #expect(sut.general != nil)
    }

    @Test("a valid step in a shape the fast path does not cover gets nil, and the general path accepts it", arguments: [
        CSVRowBuilder.step.with("count", "-0"), CSVRowBuilder.step.with("count", "-0.0"),
        CSVRowBuilder.step.with("count", "12345678901234567890"), CSVRowBuilder.step.with("count", "0.1234567890123456789"),
        CSVRowBuilder.step.with("count", "9007199254740993"), CSVRowBuilder.step.with("count", "1234567890.12345678"),
        CSVRowBuilder.step.with("start", "-100").with("end", "100"), CSVRowBuilder.step.with("sample_id", "s0000001-00000001"),
    ])
    func uncoveredStep(row: CSVRowBuilder) throws {
        // Given a valid step sample with a sign, more digits than the fast path parses exactly, or an id over 16 bytes
        let runner = try PathRunner(.steps)
        // When both paths parse it
        let sut = runner.run(row.line)
        // Then the fast path declines and the general path accepts it
        #expect(sut.fast == nil)
        #expect(sut.general != nil)
    }

    @Test("a user id over 16 bytes is left to the general path, which finds the user")
    func longUserId() throws {
        // Given a directory whose only user has a 19-byte id
        let users = OddUsers(ids: [Array("user-with-a-long-id".utf8)]).directory
        let runner = try PathRunner(.meals, users: users)
        // When both paths parse a meal of that user
        let sut = runner.run(CSVRowBuilder.meal.with("user_id", "user-with-a-long-id").line)
        // Then the fast path declines and the general path accepts it for user 0
        #expect(sut.fast == nil)
        #expect(sut.general == Candidate.meal(start: 1_700_000_000, kcalMicros: 650_500_000, idHash: hashOf("m0000001"), user: 0, duration: 1_800))
    }

    @Test("a line that ends the chunk is not read past its end", arguments: [
        ("m0000001,u0000001,1700000000,1700001800,lunch,650.5,30,70.25,20", true), ("m,u0000001,1,2,lunch,1,2,3,4", true),
        ("m0000001,u0000001,1700000000,1700001800,lunch,650.5,30,70.25,", false), ("m0000001,u0000001,1700000000,1700001800,lunch,6", false),
        ("m0000001,u0000001,1700000000,17", false), ("m0000001,u0000001", false), ("m0000001,", false), ("m", false),
    ])
    func chunkEnd(line: String, accepted: Bool) throws {
        // Given a line that ends where an unreadable page begins (a read past its end would crash)
        let runner = try PathRunner(.meals)
        let guarded = GuardedChunk()
        // When the fast path parses it
        let sut = guarded.withBytes(Array(line.utf8)) { runner.run($0, start: 0, end: line.utf8.count) }
        // Then it keeps the contract, and accepts the valid lines up to the chunk's end
        #expect(sut.keepsContract, "\(sut)")
        #expect((sut.fast?.lineEnd == line.utf8.count) == accepted)
    }

    // MARK: the contract on random lines

    @Test("on 10,000 random valid and spoiled lines in 3 places, a fast answer is always the general path's, and every valid line gets one",
          arguments: [DatasetKind.meals, .steps, .users], [false, true])
    func contract(kind: DatasetKind, numberedUsers: Bool) throws {
        // Given seeded valid lines (even) and spoiled ones (odd), each after another line, and ending a guarded chunk alone
        // or before two more lines and part of a third (so that no read past the chunk, even to look ahead, goes unnoticed),
        // naming users of a hashed or of a numbered directory
        var rows = RandomRows(seed: [.meals: 20_250_601, .steps: 20_250_602, .users: 20_250_603][kind]!, numbered: numberedUsers)
        let runner = try PathRunner(kind, users: rows.users.directory)
        let guarded = GuardedChunk()
        var breaches: [String] = [], declinedValid: [String] = [], generalRejected = 0, fastAccepted = 0
        for i in 0..<10_000 {
            let fields = rows.fields(of: kind)
            let line = i % 2 == 0 ? Array(fields.joined(separator: [UInt8(ascii: ",")])) : rows.spoiled(fields)
            let next = Array(rows.fields(of: kind).joined(separator: [UInt8(ascii: ",")]))
            let newline = [UInt8(ascii: "\n")]
            let followed = line + newline + next + newline + next + newline + next.prefix(Int.random(in: 0...next.count, using: &rows.random))
            // When both paths parse it in these three places
            let placed = [runner.run(line, next: next), guarded.withBytes(line) { runner.run($0, start: 0, end: line.count) },
                          guarded.withBytes(followed) { runner.run($0, start: 0, end: followed.count) }]
            // Then (collected) every fast answer keeps the contract, and valid lines are answered
            breaches += placed.filter { !$0.keepsContract }.map(\.description)
            declinedValid += placed.filter { i % 2 == 0 && $0.fast == nil }.map(\.description)
            generalRejected += placed.filter { $0.general == nil }.count
            fastAccepted += placed.filter { $0.fast != nil }.count
        }
        #expect(breaches.isEmpty, "\(breaches.count) breaches, first: \(breaches.prefix(3))")
        #expect(declinedValid.isEmpty, "\(declinedValid.count) valid lines declined, first: \(declinedValid.prefix(3))")
        // And most of the 15,000 placements of spoiled lines are rejected, while some spoiled lines stay valid and are accepted
        #expect(generalRejected > 10_000)
        #expect(fastAccepted > 15_000)
    }

    // MARK: the header

    @Test("isCanonical accepts exactly the kind's columns, ignoring a BOM and a trailing \\r", arguments: [
        ("meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g", DatasetKind.meals, true),
        ("\u{FEFF}meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g", .meals, true),
        ("meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g\r", .meals, true),
        ("\u{FEFF}meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g\r", .meals, true),
        ("sample_id,user_id,source,start,end,count", .steps, true),
        ("\u{FEFF}sample_id,user_id,source,start,end,count\r", .steps, true),
        ("user_id,meal_id,start,end,type,kcal,protein_g,carbs_g,fat_g", .meals, false),
        ("meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g,note", .meals, false),
        ("meal_id,user_id,start,end,type,kcal,protein_g,carbs_g", .meals, false),
        ("meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g,", .meals, false),
        (" meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g", .meals, false),
        ("Meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g", .meals, false),
        ("meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g\r\r", .meals, false),
        ("\r\u{FEFF}meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g", .meals, false),
        ("\u{FEFF}\u{FEFF}sample_id,user_id,source,start,end,count", .steps, false),
        ("user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity", .users, true),
        ("\u{FEFF}user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity\r", .users, true),
        ("user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm", .users, false),
        ("user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity,note", .users, false),
        ("sample_id,user_id,source,start,end,count", .meals, false),
        ("meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g", .steps, false),
        ("", .steps, false),
    ])
    func isCanonical(header: String, kind: DatasetKind, expected: Bool) {
        // Given a header line without its \n
        // When checked against the kind's columns
        let sut = withBytes(header) { CanonicalRows.isCanonical(header: $0, kind: kind) }
        // Then only the canonical list, with at most a BOM before and a \r after, is canonical
        #expect(sut == expected)
    }
}
