import HealthCore
import PaymentsCore
import Scenarios

/// One generated user: a `users` row and the habits the analyzers need (`utcOffsetMinutes`,
/// `fastingProtocol`). Its id is `u` and `index` zero-padded to 7 digits.
public struct UserRow: Hashable, Sendable {
    /// The user's index (its id's number).
    public var index: UInt32
    /// Minutes east of UTC.
    public var utcOffsetMinutes: Int32
    /// The fasting protocol.
    public var fastingProtocol: FastingProtocol
    /// The sex.
    public var sex: Sex
    /// The activity level.
    public var activity: ActivityLevel
    /// Age in years.
    public var age: Int32
    /// Weight and height in thousandths of a kg and of a cm (written with one decimal).
    public var weightMilli: Int32
    /// Height in thousandths of a cm.
    public var heightMilli: Int32
    /// Whether the user owns a watch (steps from two devices).
    public var hasWatch: Bool
    /// The injected fault, `nil` for a clean row.
    public var fault: UserFault?
    /// Which field a `malformed` row breaks.
    public var variant: UInt8

    /// Whether `users` accepts this user (a duplicate's first copy is accepted).
    public var isAccepted: Bool { fault != .malformed }

    /// The daily energy need of SPEC §1, in kcal.
    public var energyNeedKcal: Double {
        (try? EnergyNeed.dailyKcal(sex: sex, weightKg: Double(weightMilli) / 1000, heightCm: Double(heightMilli) / 1000, age: Int(age), activity: activity)) ?? 0
    }

    /// What the fasting analyzer needs to know about this user.
    public func fastingConfiguration(minimumFastSeconds: Int64 = FastingConfiguration.defaultMinimumFast) -> FastingConfiguration {
        FastingConfiguration(utcOffsetMinutes: utcOffsetMinutes, fastingProtocol: fastingProtocol, minimumFastSeconds: minimumFastSeconds)
    }

    /// The profile as the readers produce it.
    public var profile: UserProfile {
        UserProfile(
            id: Ids.user(index), utcOffsetMinutes: utcOffsetMinutes, fastingProtocol: fastingProtocol, sex: sex, age: Int(age),
            weightKg: Double(weightMilli) / 1000, heightCm: Double(heightMilli) / 1000, activity: activity
        )
    }
}

/// One generated `meals` row. Its id is `m<user>-<ordinal>`; an injected `duplicate` is an exact
/// copy of an earlier row (same ordinal).
public struct MealRow: Hashable, Sendable {
    /// The user's index.
    public var user: UInt32
    /// The row's number within its user.
    public var ordinal: UInt32
    /// `start`, seconds since 1970.
    public var start: Int64
    /// `end`, seconds since 1970.
    public var end: Int64
    /// kcal and grams of protein, carbohydrate and fat, in thousandths.
    public var kcalMilli: Int32
    /// Protein, in thousandths of a gram.
    public var proteinMilli: Int32
    /// Carbohydrate, in thousandths of a gram.
    public var carbsMilli: Int32
    /// Fat, in thousandths of a gram.
    public var fatMilli: Int32
    /// The meal's `type`.
    public var type: MealType
    /// The rejection this row was made to trigger, `nil` for a clean row. The values carry the
    /// fault (`end < start`, a negative kcal, …) except `malformed` and `unknown_user`, which
    /// exist only in the written text.
    public var fault: MealRejection?
    /// Which field a `malformed` row breaks.
    public var variant: UInt8
    /// Delivered later than its place in time (out-of-order delivery).
    public var late: Bool

    /// The row as the fasting analyzer sees it.
    @inlinable public var meal: Meal {
        Meal(start: start, end: end, kcalMicros: Int64(kcalMilli) &* 1000)
    }

    /// Whether any of kcal and the macros is below zero.
    @inlinable public var hasNegativeValue: Bool { kcalMilli < 0 || proteinMilli < 0 || carbsMilli < 0 || fatMilli < 0 }

    /// A key unique across the dataset for the `meal_id` (`user << 32 | ordinal`).
    @inlinable public var idKey: UInt64 { UInt64(user) << 32 | UInt64(ordinal) }
}

/// One generated `steps` row. Its id is `s<user>-<ordinal>`.
public struct StepRow: Hashable, Sendable {
    /// The user's index.
    public var user: UInt32
    /// The row's number within its user.
    public var ordinal: UInt32
    /// `start`, seconds since 1970.
    public var start: Int64
    /// `end`, seconds since 1970.
    public var end: Int64
    /// Steps in thousandths.
    public var countMilli: Int32
    /// The device.
    public var source: StepSource
    /// The rejection this row was made to trigger, `nil` for a clean row.
    public var fault: StepRejection?
    /// Which field a `malformed` row breaks.
    public var variant: UInt8
    /// Delivered later than its place in time.
    public var late: Bool

    /// The row as the step aggregator sees it.
    @inlinable public var sample: StepSample {
        StepSample(start: start, end: end, count: Double(countMilli) / 1000, source: source)
    }

    /// A key unique across the dataset for the `sample_id` (`user << 32 | ordinal`).
    @inlinable public var idKey: UInt64 { UInt64(user) << 32 | UInt64(ordinal) }
}

/// One generated `payments` row. Its id is `p<user>-<ordinal>`, its idempotency key
/// `k<user>-<keyOrdinal>`; `refundOf` is the ordinal of the charge it refunds.
public struct PaymentRow: Hashable, Sendable {
    /// The user's index.
    public var user: UInt32
    /// The row's number within its user (its `payment_id`).
    public var ordinal: UInt32
    /// The number of its idempotency key within its user.
    public var keyOrdinal: UInt32
    /// The refunded charge's ordinal; `PaymentRow.noCharge` for a charge, `ghostBit` set for a
    /// refund naming a payment that does not exist (`q<user>-<ordinal>`).
    public var refundOf: UInt32
    /// `amount_minor`.
    public var amountMinor: Int64
    /// `created_at`, seconds since 1970.
    public var createdAt: Int64
    /// The gateway script.
    public var script: CompactScript
    /// `charge` or `refund`.
    public var kind: PaymentKind
    /// The currency.
    public var currency: Currency
    /// The rejection this row was made to trigger, `nil` for a clean row.
    public var fault: PaymentRejection?
    /// Which field a `malformed` row breaks; for a row without a fault, `longKeyVariant` gives it an
    /// idempotency key of exactly the maximum length (its id padded with `K`).
    public var variant: UInt8
    /// Delivered later than its place in time.
    public var late: Bool

    /// `variant` of a clean row whose key has the maximum length.
    public static let longKeyVariant: UInt8 = 1
    /// The length of a key written as an id, `k0000042-000017`.
    public static let keyIdLength = 15
    /// Whether the row's key is padded to the maximum length.
    @inlinable public var hasLongKey: Bool { fault == nil && variant == Self.longKeyVariant }

    /// `refundOf` of a charge.
    public static let noCharge = UInt32.max
    /// Marks a refund that names a payment that does not exist.
    public static let ghostBit: UInt32 = 1 << 31

    /// The row as the payment processor sees it (per user: ids are ordinals, which sort as the
    /// zero-padded `payment_id`s do, so `idRank` is the identity). Only meaningful for rows that
    /// are neither `malformed` nor `unknown_user`.
    public var request: PaymentRequest {
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
public struct CompactScript: Hashable, Sendable {
    /// The count (3 bits) and the responses (2 bits each).
    public var bits: UInt16

    /// The most responses it holds.
    public static let capacity = 7

    /// An empty script; append at least one response.
    public init() { bits = 0 }

    /// The script of `responses` (at most `capacity`).
    public init(_ responses: [GatewayResponse]) {
        bits = 0
        for response in responses { append(response) }
    }

    /// Adds the response to the next attempt.
    public mutating func append(_ response: GatewayResponse) {
        precondition(count < Self.capacity, "a compact script holds at most \(Self.capacity) responses")
        bits = (bits | UInt16(response.rawValue) << (3 + 2 * UInt16(count))) + 1
    }

    /// Responses held.
    public var count: Int { Int(bits & 7) }

    /// The response to attempt `i` (0-based, below `count`).
    public func response(at i: Int) -> GatewayResponse { GatewayResponse(rawValue: UInt8((bits >> (3 + 2 * UInt16(i))) & 3))! }

    /// Every response, in attempt order.
    public var responses: [GatewayResponse] { (0..<count).map(response(at:)) }

    /// The script as the processor takes it: the same two bits a response, in the same order.
    public var script: GatewayScript { GatewayScript(packed: UInt64(bits >> 3), count: count) }

    /// The charge's final state under `maxAttempts` attempts (SPEC §4 step 4): captured or not.
    public func captures(maxAttempts: Int) -> Bool {
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
    @inlinable public func textRejection(userAccepted: Bool) -> MealRejection? {
        if fault == .malformed { return .malformed }
        if fault == .unknownUser || !userAccepted { return .unknownUser }
        return nil
    }
}

extension StepRow {
    /// As `MealRow.textRejection(userAccepted:)`.
    @inlinable public func textRejection(userAccepted: Bool) -> StepRejection? {
        if fault == .malformed { return .malformed }
        if fault == .unknownUser || !userAccepted { return .unknownUser }
        return nil
    }
}

extension PaymentRow {
    /// As `MealRow.textRejection(userAccepted:)`; the processor decides the rest from `request`.
    @inlinable public func textRejection(userAccepted: Bool) -> PaymentRejection? {
        if fault == .malformed { return .malformed }
        if fault == .unknownUser || !userAccepted { return .unknownUser }
        return nil
    }
}
