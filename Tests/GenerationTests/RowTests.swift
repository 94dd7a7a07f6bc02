import Datasets
@_spi(Tooling) @testable import Export
@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import Generation

/// Builds generated rows with readable defaults.
struct RowBuilder {
    static func meal(fault: MealRejection? = nil, variant: UInt8 = 0) -> MealRow {
        MealRow(user: 42, ordinal: 17, start: 1_736_150_400, end: 1_736_152_200, kcalMilli: 512_250, proteinMilli: 30_000,
                carbsMilli: 60_500, fatMilli: 15_125, type: .lunch, fault: fault, variant: variant, late: false)
    }

    static func step(fault: StepRejection? = nil, variant: UInt8 = 0) -> StepRow {
        StepRow(user: 3, ordinal: 5, start: 100, end: 700, countMilli: 1_200_000, source: .watch, fault: fault, variant: variant, late: false)
    }

    static func payment(fault: PaymentRejection? = nil, variant: UInt8 = 0, kind: PaymentKind = .charge, refundOf: UInt32 = PaymentRow.noCharge) -> PaymentRow {
        PaymentRow(user: 7, ordinal: 2, keyOrdinal: 1, refundOf: refundOf, amountMinor: 12_345, createdAt: 1_736_200_000,
                   script: CompactScript([.timedOut, .lost]), kind: kind, currency: .kwd, fault: fault, variant: variant, late: false)
    }

    static func user(fault: UserFault? = nil, variant: UInt8 = 0) -> UserRow {
        UserRow(index: 9, utcOffsetMinutes: -210, fastingProtocol: .sixteenEight, sex: .female, activity: .veryActive, age: 34,
                weightMilli: 61_500, heightMilli: 168_000, hasWatch: true, fault: fault, variant: variant)
    }
}

@Suite("Generated rows")
struct RowTests {
    private func csv(_ file: GeneratedFile, _ encode: (inout RecordEncoder) -> Void) -> String {
        let buffer = ByteBuffer()
        var encoder = RecordEncoder(format: .csv, columns: file.columns, buffer: buffer)
        encode(&encoder)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test("a clean row of each file is written as SPEC spells it")
    func cleanRows() {
        #expect(csv(.users) { RowRendering.encode(RowBuilder.user(), into: &$0) } == "u0000009,-210,16:8,female,34,61.5,168,very_active\n")
        #expect(csv(.meals) { RowRendering.encode(RowBuilder.meal(), into: &$0) }
            == "m0000042-000017,u0000042,1736150400,1736152200,lunch,512.25,30,60.5,15.125\n")
        #expect(csv(.steps) { RowRendering.encode(RowBuilder.step(), into: &$0) } == "s0000003-000005,u0000003,watch,100,700,1200\n")
        #expect(csv(.payments) { RowRendering.encode(RowBuilder.payment(), into: &$0) }
            == "p0000007-000002,k0000007-000001,u0000007,charge,12345,KWD,1736200000,,T;L\n")
        #expect(csv(.payments) { RowRendering.encode(RowBuilder.payment(kind: .refund, refundOf: 1), into: &$0) }
            == "p0000007-000002,k0000007-000001,u0000007,refund,12345,KWD,1736200000,p0000007-000001,T;L\n")
    }

    @Test("malformed and unknown-user rows break exactly one field", arguments: [
        (RowBuilder.meal(fault: .malformed, variant: 0), ",u0000042,1736150400,1736152200,lunch,512.25,30,60.5,15.125\n"),
        (RowBuilder.meal(fault: .malformed, variant: 1), "m0000042-000017,u0000042,1736150400.5,1736152200,lunch,512.25,30,60.5,15.125\n"),
        (RowBuilder.meal(fault: .malformed, variant: 2), "m0000042-000017,u0000042,1736150400,1736152200,brunch,512.25,30,60.5,15.125\n"),
        (RowBuilder.meal(fault: .malformed, variant: 3), "m0000042-000017,u0000042,1736150400,1736152200,lunch,NaN,30,60.5,15.125\n"),
        (RowBuilder.meal(fault: .unknownUser), "m0000042-000017,z0000042,1736150400,1736152200,lunch,512.25,30,60.5,15.125\n"),
    ])
    func brokenMeals(row: MealRow, line: String) {
        #expect(csv(.meals) { RowRendering.encode(row, into: &$0) } == line)
    }

    @Test("broken steps", arguments: [
        (RowBuilder.step(fault: .malformed, variant: 0), ",u0000003,watch,100,700,1200\n"),
        (RowBuilder.step(fault: .malformed, variant: 1), "s0000003-000005,u0000003,tablet,100,700,1200\n"),
        (RowBuilder.step(fault: .malformed, variant: 2), "s0000003-000005,u0000003,watch,100,700,1200e0\n"),
        (RowBuilder.step(fault: .malformed, variant: 3), "s0000003-000005,u0000003,watch,100,700.0,1200\n"),
        (RowBuilder.step(fault: .unknownUser), "s0000003-000005,z0000003,watch,100,700,1200\n"),
    ])
    func brokenSteps(row: StepRow, line: String) {
        #expect(csv(.steps) { RowRendering.encode(row, into: &$0) } == line)
    }

    @Test("broken payments", arguments: [
        (RowBuilder.payment(fault: .malformed, variant: 0), "p0000007-000002,k0000007-000001,u0000007,chargeback,12345,KWD,1736200000,,T;L\n"),
        (RowBuilder.payment(fault: .malformed, variant: 1), "p0000007-000002,k0000007-000001,u0000007,charge,12345,KWD,1736200000,,A;X\n"),
        (RowBuilder.payment(fault: .malformed, variant: 2), "p0000007-000002,k0000007-000001,u0000007,charge,12345,KWD,+1736200000,,T;L\n"),
        (RowBuilder.payment(fault: .malformed, variant: 3), "p0000007-000002,k0000007-000001,u0000007,charge,12345,KWD,1736200000,p0000007-000000,T;L\n"),
        (RowBuilder.payment(fault: .missingKey, variant: 0), "p0000007-000002,,u0000007,charge,12345,KWD,1736200000,,T;L\n"),
        (RowBuilder.payment(fault: .unsupportedCurrency, variant: 0), "p0000007-000002,k0000007-000001,u0000007,charge,12345,usd,1736200000,,T;L\n"),
        (RowBuilder.payment(fault: .invalidAmount, variant: 2), "p0000007-000002,k0000007-000001,u0000007,charge,12345.50,KWD,1736200000,,T;L\n"),
        (RowBuilder.payment(fault: .unknownCharge, kind: .refund, refundOf: 1 | PaymentRow.ghostBit),
         "p0000007-000002,k0000007-000001,u0000007,refund,12345,KWD,1736200000,q0000007-000001,T;L\n"),
    ])
    func brokenPayments(row: PaymentRow, line: String) {
        #expect(csv(.payments) { RowRendering.encode(row, into: &$0) } == line)
    }

    @Test("broken users", arguments: [
        (RowBuilder.user(fault: .malformed, variant: 0), "u0000009,9999,16:8,female,34,61.5,168,very_active\n"),
        (RowBuilder.user(fault: .malformed, variant: 1), "u0000009,-210,5:2,female,34,61.5,168,very_active\n"),
        (RowBuilder.user(fault: .malformed, variant: 2), "u0000009,+210,16:8,female,34,61.5,168,very_active\n"),
        (RowBuilder.user(fault: .malformed, variant: 3), ",-210,16:8,female,34,61.5,168,very_active\n"),
    ])
    func brokenUsers(row: UserRow, line: String) {
        #expect(csv(.users) { RowRendering.encode(row, into: &$0) } == line)
    }

    @Test("a long missing key has 256 characters")
    func longKey() {
        let line = csv(.payments) { RowRendering.encode(RowBuilder.payment(fault: .missingKey, variant: 1), into: &$0) }
        #expect(line.split(separator: ",")[1].count == 256)
    }

    @Test("rows convert to the core types")
    func conversions() {
        // Given one row of each kind
        // When they are converted
        let meal = RowBuilder.meal().meal
        let sample = RowBuilder.step().sample
        let request = RowBuilder.payment(kind: .refund, refundOf: 1).request
        // Then the values are the written ones (kcal 512.25 = 512,250,000 micro-kcal)
        #expect(meal == Meal(start: 1_736_150_400, end: 1_736_152_200, kcalMicros: 512_250_000))
        #expect(sample == StepSample(start: 100, end: 700, count: 1200, source: .watch))
        #expect(request.id == 2 && request.key == 1 && request.refundOf == 1 && request.kind == .refund)
        #expect(request.amountMinor == 12_345 && request.currency == .kwd && request.createdAt == 1_736_200_000)
        #expect(request.script == GatewayScript([.timedOut, .lost]))
    }

    @Test("faults that exist only in text show in the converted request", arguments: [
        (PaymentRejection.missingKey, UInt8(0), PaymentRejection.missingKey),
        (.missingKey, 1, .missingKey),
        (.unsupportedCurrency, 1, .unsupportedCurrency),
        (.invalidAmount, 2, .invalidAmount),
    ] as [(PaymentRejection, UInt8, PaymentRejection)])
    func textFaultsReachTheProcessor(fault: PaymentRejection, variant: UInt8, expected: PaymentRejection) {
        // Given a charge with a fault
        var sut = PaymentProcessor()
        sut.startUser()
        // When the processor sees the converted request
        let outcome = sut.process(RowBuilder.payment(fault: fault, variant: variant).request)
        // Then it rejects it with that reason
        #expect(outcome == .rejected(expected))
    }

    @Test("a compact script captures as SPEC §4 says", arguments: [
        ([GatewayResponse.approved], 3, true), ([.declined], 3, false), ([.lost, .declined], 3, true),
        ([.timedOut, .timedOut, .timedOut], 3, false), ([.timedOut, .timedOut, .lost], 3, true), ([.timedOut, .approved], 1, false),
        ([.timedOut], 5, false), ([.timedOut, .timedOut, .timedOut, .approved], 3, false),
        ([.timedOut, .lost, .declined, .timedOut, .timedOut, .lost, .approved], 7, true),
    ] as [([GatewayResponse], Int, Bool)])
    func scriptCaptures(responses: [GatewayResponse], attempts: Int, captured: Bool) {
        let sut = CompactScript(responses)
        #expect(sut.responses == responses)
        #expect(sut.captures(maxAttempts: attempts) == captured)
        #expect(sut.script == GatewayScript(responses))
    }

    @Test("a user row gives the profile and energy need of SPEC §1")
    func userProfile() {
        // Given a 34-year-old very active woman of 61.5 kg and 168 cm
        let sut = RowBuilder.user()
        // Then the need is (447.593 + 9.247 × 61.5 + 3.098 × 168 − 4.330 × 34) × 1.9 = 2640.10225 kcal
        #expect(abs(sut.energyNeedKcal - 2640.10225) < 1e-6)
        #expect(sut.profile.id == "u0000009")
        #expect(sut.fastingConfiguration().utcOffsetMinutes == -210)
        #expect(!RowBuilder.user(fault: .malformed).isAccepted && RowBuilder.user(fault: .duplicate).isAccepted)
    }
}
