@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore
@_spi(Tooling) import Scenarios

/// One generated user: a `users` row and the habits the analyzers need (`utcOffsetMinutes`,
/// `fastingProtocol`). Its id is `u` and `index` zero-padded to 7 digits.
package struct UserRow: Hashable, Sendable {
    /// The user's index (its id's number).
    package var index: UInt32
    /// Minutes east of UTC.
    package var utcOffsetMinutes: Int32
    /// The fasting protocol.
    package var fastingProtocol: FastingProtocol
    /// The sex.
    package var sex: Sex
    /// The activity level.
    package var activity: ActivityLevel
    /// Age in years.
    package var age: Int32
    /// Weight and height in thousandths of a kg and of a cm (written with one decimal).
    package var weightMilli: Int32
    /// Height in thousandths of a cm.
    package var heightMilli: Int32
    /// Whether the user owns a watch (steps from two devices).
    package var hasWatch: Bool
    /// The injected fault, `nil` for a clean row.
    package var fault: UserFault?
    /// Which field a `malformed` row breaks.
    package var variant: UInt8

    /// Whether `users` accepts this user (a duplicate's first copy is accepted).
    package var isAccepted: Bool { fault != .malformed }

    /// The daily energy need of SPEC §1, in kcal.
    package var energyNeedKcal: Double {
        (try? EnergyNeed.dailyKcal(sex: sex, weightKg: Double(weightMilli) / 1000, heightCm: Double(heightMilli) / 1000, age: Int(age), activity: activity)) ?? 0
    }

    /// What the fasting analyzer needs to know about this user.
    package func fastingConfiguration(minimumFastSeconds: Int64 = FastingConfiguration.defaultMinimumFast) -> FastingConfiguration {
        FastingConfiguration(utcOffsetMinutes: utcOffsetMinutes, fastingProtocol: fastingProtocol, minimumFastSeconds: minimumFastSeconds)
    }

    /// The profile as the readers produce it.
    package var profile: UserProfile {
        UserProfile(
            id: Ids.user(index), utcOffsetMinutes: utcOffsetMinutes, fastingProtocol: fastingProtocol, sex: sex, age: Int(age),
            weightKg: Double(weightMilli) / 1000, heightCm: Double(heightMilli) / 1000, activity: activity
        )
    }
}

/// One generated `meals` row. Its id is `m<user>-<ordinal>`; an injected `duplicate` is an exact
/// copy of an earlier row (same ordinal).
@usableFromInline package struct MealRow: Hashable, Sendable {
    /// The user's index.
    @usableFromInline package var user: UInt32
    /// The row's number within its user.
    @usableFromInline package var ordinal: UInt32
    /// `start`, seconds since 1970.
    @usableFromInline package var start: Int64
    /// `end`, seconds since 1970.
    @usableFromInline package var end: Int64
    /// kcal and grams of protein, carbohydrate and fat, in thousandths.
    @usableFromInline package var kcalMilli: Int32
    /// Protein, in thousandths of a gram.
    @usableFromInline package var proteinMilli: Int32
    /// Carbohydrate, in thousandths of a gram.
    @usableFromInline package var carbsMilli: Int32
    /// Fat, in thousandths of a gram.
    @usableFromInline package var fatMilli: Int32
    /// The meal's `type`.
    @usableFromInline package var type: MealType
    /// The rejection this row was made to trigger, `nil` for a clean row. The values carry the
    /// fault (`end < start`, a negative kcal, …) except `malformed` and `unknown_user`, which
    /// exist only in the written text.
    @usableFromInline package var fault: MealRejection?
    /// Which field a `malformed` row breaks.
    @usableFromInline package var variant: UInt8
    /// Delivered later than its place in time (out-of-order delivery).
    @usableFromInline package var late: Bool

    /// The row as the fasting analyzer sees it.
    @inlinable package var meal: Meal {
        Meal(start: start, end: end, kcalMicros: Int64(kcalMilli) &* 1000)
    }

    /// Whether any of kcal and the macros is below zero.
    @inlinable package var hasNegativeValue: Bool { kcalMilli < 0 || proteinMilli < 0 || carbsMilli < 0 || fatMilli < 0 }

    /// A key unique across the dataset for the `meal_id` (`user << 32 | ordinal`).
    @inlinable package var idKey: UInt64 { UInt64(user) << 32 | UInt64(ordinal) }
}

/// One generated `steps` row. Its id is `s<user>-<ordinal>`.
@usableFromInline package struct StepRow: Hashable, Sendable {
    /// The user's index.
    @usableFromInline package var user: UInt32
    /// The row's number within its user.
    @usableFromInline package var ordinal: UInt32
    /// `start`, seconds since 1970.
    @usableFromInline package var start: Int64
    /// `end`, seconds since 1970.
    @usableFromInline package var end: Int64
    /// Steps in thousandths.
    @usableFromInline package var countMilli: Int32
    /// The device.
    @usableFromInline package var source: StepSource
    /// The rejection this row was made to trigger, `nil` for a clean row.
    @usableFromInline package var fault: StepRejection?
    /// Which field a `malformed` row breaks.
    @usableFromInline package var variant: UInt8
    /// Delivered later than its place in time.
    @usableFromInline package var late: Bool

    /// The row as the step aggregator sees it.
    @inlinable package var sample: StepSample {
        StepSample(start: start, end: end, count: Double(countMilli) / 1000, source: source)
    }

    /// A key unique across the dataset for the `sample_id` (`user << 32 | ordinal`).
    @inlinable package var idKey: UInt64 { UInt64(user) << 32 | UInt64(ordinal) }
}

/// One generated `payments` row. Its id is `p<user>-<ordinal>`, its idempotency key
/// `k<user>-<keyOrdinal>`; `refundOf` is the ordinal of the charge it refunds.
@usableFromInline package struct PaymentRow: Hashable, Sendable {
    /// The user's index.
    @usableFromInline package var user: UInt32
    /// The row's number within its user (its `payment_id`).
    @usableFromInline package var ordinal: UInt32
    /// The number of its idempotency key within its user.
    @usableFromInline package var keyOrdinal: UInt32
    /// The refunded charge's ordinal; `PaymentRow.noCharge` for a charge, `ghostBit` set for a
    /// refund naming a payment that does not exist (`q<user>-<ordinal>`).
    @usableFromInline package var refundOf: UInt32
    /// `amount_minor`.
    @usableFromInline package var amountMinor: Int64
    /// `created_at`, seconds since 1970.
    @usableFromInline package var createdAt: Int64
    /// The gateway script.
    package var script: CompactScript
    /// `charge` or `refund`.
    @usableFromInline package var kind: PaymentKind
    /// The currency.
    @usableFromInline package var currency: Currency
    /// The rejection this row was made to trigger, `nil` for a clean row.
    @usableFromInline package var fault: PaymentRejection?
    /// Which field a `malformed` row breaks; for a row without a fault, `longKeyVariant` gives it an
    /// idempotency key of exactly the maximum length (its id padded with `K`).
    @usableFromInline package var variant: UInt8
    /// Delivered later than its place in time.
    @usableFromInline package var late: Bool

    /// `variant` of a clean row whose key has the maximum length.
    @usableFromInline package static let longKeyVariant: UInt8 = 1
    /// The length of a key written as an id, `k0000042-000017`.
    package static let keyIdLength = 15
    /// Whether the row's key is padded to the maximum length.
    @inlinable package var hasLongKey: Bool { fault == nil && variant == Self.longKeyVariant }

    /// `refundOf` of a charge.
    package static let noCharge = UInt32.max
    /// Marks a refund that names a payment that does not exist.
    package static let ghostBit: UInt32 = 1 << 31

    /// The row as the payment processor sees it (per user: ids are ordinals, which sort as the
    /// zero-padded `payment_id`s do, so `idRank` is the identity). Only meaningful for rows that
    /// are neither `malformed` nor `unknown_user`.
    package var request: PaymentRequest {
        var keyLength = hasLongKey ? PaymentRejection.maximumKeyLength : Self.keyIdLength
        var amount: Int64? = amountMinor
        var currency: Currency? = currency
        switch fault {
        case .missingKey: keyLength = variant == 0 ? 0 : PaymentRejection.maximumKeyLength + 1
        case .unsupportedCurrency: currency = nil
        case .invalidAmount where variant == 2: amount = nil
        default: break
        }
        return PaymentRequest(
            id: ordinal, key: keyOrdinal, keyLength: keyLength, kind: kind, amountMinor: amount, currency: currency,
            createdAt: createdAt, refundOf: refundOf == Self.noCharge ? nil : refundOf, script: script.script
        )
    }
}

/// A gateway script of up to 7 responses in 16 bits (3 bits of count, 2 bits per response).
package struct CompactScript: Hashable, Sendable {
    /// The count (3 bits) and the responses (2 bits each).
    package var bits: UInt16

    /// The most responses it holds.
    package static let capacity = 7

    /// An empty script; append at least one response.
    package init() { bits = 0 }

    /// The script of `responses` (at most `capacity`).
    package init(_ responses: [GatewayResponse]) {
        bits = 0
        for response in responses { append(response) }
    }

    /// Adds the response to the next attempt.
    package mutating func append(_ response: GatewayResponse) {
        precondition(count < Self.capacity, "a compact script holds at most \(Self.capacity) responses")
        bits = (bits | UInt16(response.rawValue) << (3 + 2 * UInt16(count))) + 1
    }

    /// Responses held.
    package var count: Int { Int(bits & 7) }

    /// The response to attempt `i` (0-based, below `count`).
    package func response(at i: Int) -> GatewayResponse { GatewayResponse(rawValue: UInt8((bits >> (3 + 2 * UInt16(i))) & 3))! }

    /// Every response, in attempt order.
    package var responses: [GatewayResponse] { (0..<count).map(response(at:)) }

    /// The script as the processor takes it: the same two bits a response, in the same order.
    package var script: GatewayScript { GatewayScript(packed: UInt64(bits >> 3), count: count) }

    /// The charge's final state under `maxAttempts` attempts (SPEC §4 step 4): captured or not.
    package func captures(maxAttempts: Int) -> Bool {
        for attempt in 0..<maxAttempts {
            switch response(at: min(attempt, count - 1)) {
            case .approved, .lost: return true
            case .declined: return false
            case .timedOut: continue
            }
        }
        return false
    }
}

extension MealRow {
    /// The rejection that only the written text shows — `malformed`, else `unknown_user` (also for
    /// every row of a user whose `users` row is rejected) — or `nil` when the analyzer's own checks
    /// on `meal` and on duplicate `idKey`s decide.
    @inlinable package func textRejection(userAccepted: Bool) -> MealRejection? {
        if fault == .malformed { return .malformed }
        if fault == .unknownUser || !userAccepted { return .unknownUser }
        return nil
    }
}

extension StepRow {
    /// As `MealRow.textRejection(userAccepted:)`.
    @inlinable package func textRejection(userAccepted: Bool) -> StepRejection? {
        if fault == .malformed { return .malformed }
        if fault == .unknownUser || !userAccepted { return .unknownUser }
        return nil
    }
}

extension PaymentRow {
    /// As `MealRow.textRejection(userAccepted:)`; the processor decides the rest from `request`.
    @inlinable package func textRejection(userAccepted: Bool) -> PaymentRejection? {
        if fault == .malformed { return .malformed }
        if fault == .unknownUser || !userAccepted { return .unknownUser }
        return nil
    }
}
