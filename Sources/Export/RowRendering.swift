import DatasetText
import Datasets
@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

/// The four files `generate` writes, with their columns in SPEC order.
@_spi(Tooling) public typealias GeneratedFile = DatasetKind

/// Renders generated rows, faults included, as SPEC rows through a `RecordEncoder`.
package enum RowRendering {
    /// Encodes the rows of `file` in `batch`; returns the number of rows written.
    package static func encode(_ file: GeneratedFile, of batch: SimulationBatch, into encoder: inout RecordEncoder) -> Int {
        switch file {
        case .users:
            var rows = 0
            for user in batch.users {
                encode(user, into: &encoder)
                rows += 1
                if user.fault == .duplicate {
                    encode(user, into: &encoder)
                    rows += 1
                }
            }
            return rows
        case .meals:
            for meal in batch.meals { encode(meal, into: &encoder) }
            return batch.meals.count
        case .steps:
            for step in batch.steps { encode(step, into: &encoder) }
            return batch.steps.count
        case .payments:
            for payment in batch.payments { encode(payment, into: &encoder) }
            return batch.payments.count
        }
    }

    @inline(__always) static func userId(_ user: UInt32, known: Bool, into encoder: inout RecordEncoder) {
        encoder.id(known ? Ids.user : UInt8(ascii: "z"), UInt64(user))
    }

    /// Writes a `users` row, with its injected fault.
    package static func encode(_ user: UserRow, into encoder: inout RecordEncoder) {
        let broken: UInt8? = user.fault == .malformed ? user.variant : nil
        encoder.beginRecord()
        if broken == 3 { encoder.text("") } else { encoder.id(Ids.user, UInt64(user.index)) }
        switch broken {
        case 0: encoder.int(9999)
        case 2: encoder.decoratedInt(Int64(user.utcOffsetMinutes.magnitude), prefix: "+")
        default: encoder.int(Int64(user.utcOffsetMinutes))
        }
        if broken == 1 { encoder.text("5:2") } else { encoder.text(user.fastingProtocol.spelling) }
        encoder.text(user.sex.spelling)
        encoder.int(Int64(user.age))
        encoder.milli(Int64(user.weightMilli))
        encoder.milli(Int64(user.heightMilli))
        encoder.text(user.activity.spelling)
        encoder.endRecord()
    }

    /// Writes a `meals` row, with its injected fault.
    package static func encode(_ meal: MealRow, into encoder: inout RecordEncoder) {
        let broken: UInt8? = meal.fault == .malformed ? meal.variant : nil
        encoder.beginRecord()
        if broken == 0 {
            encoder.text("")
        } else {
            encoder.id(Ids.meal, owner: UInt64(meal.user), ordinal: UInt64(meal.ordinal))
        }
        userId(meal.user, known: meal.fault != .unknownUser, into: &encoder)
        if broken == 1 { encoder.decoratedInt(meal.start, suffix: ".5") } else { encoder.int(meal.start) }
        encoder.int(meal.end)
        if broken == 2 { encoder.text("brunch") } else { encoder.text(meal.type.spelling) }
        if broken == 3 { encoder.text("NaN") } else { encoder.milli(Int64(meal.kcalMilli)) }
        encoder.milli(Int64(meal.proteinMilli))
        encoder.milli(Int64(meal.carbsMilli))
        encoder.milli(Int64(meal.fatMilli))
        encoder.endRecord()
    }

    /// Writes a `steps` row, with its injected fault.
    package static func encode(_ step: StepRow, into encoder: inout RecordEncoder) {
        let broken: UInt8? = step.fault == .malformed ? step.variant : nil
        encoder.beginRecord()
        if broken == 0 {
            encoder.text("")
        } else {
            encoder.id(Ids.sample, owner: UInt64(step.user), ordinal: UInt64(step.ordinal))
        }
        userId(step.user, known: step.fault != .unknownUser, into: &encoder)
        if broken == 1 { encoder.text("tablet") } else { encoder.text(step.source.spelling) }
        encoder.int(step.start)
        if broken == 3 { encoder.decoratedInt(step.end, suffix: ".0") } else { encoder.int(step.end) }
        if broken == 2 { encoder.decoratedInt(Int64(step.countMilli / 1000), suffix: "e0") } else { encoder.milli(Int64(step.countMilli)) }
        encoder.endRecord()
    }

    /// Writes a `payments` row, with its injected fault.
    package static func encode(_ payment: PaymentRow, into encoder: inout RecordEncoder) {
        let fault = payment.fault
        let broken: UInt8? = fault == .malformed ? payment.variant : nil
        let user = UInt64(payment.user)
        encoder.beginRecord()
        encoder.id(Ids.payment, owner: user, ordinal: UInt64(payment.ordinal))
        if fault == .missingKey {
            if payment.variant == 0 { encoder.text("") } else { encoder.repeated(UInt8(ascii: "K"), count: PaymentRejection.maximumKeyLength + 1) }
        } else if payment.hasLongKey {
            encoder.id(
                UInt8(ascii: "k"), owner: user, ordinal: UInt64(payment.keyOrdinal), padding: UInt8(ascii: "K"),
                count: PaymentRejection.maximumKeyLength - PaymentRow.keyIdLength
            )
        } else {
            encoder.id(UInt8(ascii: "k"), owner: user, ordinal: UInt64(payment.keyOrdinal))
        }
        userId(payment.user, known: fault != .unknownUser, into: &encoder)
        if broken == 0 { encoder.text("chargeback") } else { encoder.text(payment.kind.spelling) }
        if fault == .invalidAmount, payment.variant == 2 {
            encoder.decoratedInt(payment.amountMinor, suffix: ".50")
        } else {
            encoder.int(payment.amountMinor)
        }
        if fault == .unsupportedCurrency {
            switch payment.variant {
            case 0: encoder.text("usd")
            case 1: encoder.text("XAU")
            default: encoder.text("BTC")
            }
        } else {
            encoder.text(payment.currency.codeLiteral)
        }
        if broken == 2 { encoder.decoratedInt(payment.createdAt, prefix: "+") } else { encoder.int(payment.createdAt) }
        if broken == 3 {
            encoder.id(Ids.payment, owner: user, ordinal: 0)
        } else if payment.refundOf == PaymentRow.noCharge {
            encoder.text("")
        } else {
            let ghost = payment.refundOf & PaymentRow.ghostBit != 0
            encoder.id(ghost ? UInt8(ascii: "q") : Ids.payment, owner: user, ordinal: UInt64(payment.refundOf & ~PaymentRow.ghostBit))
        }
        if broken == 1 { encoder.text("A;X") } else { script(payment.script, into: &encoder) }
        encoder.endRecord()
    }

    /// The most bytes a gateway script's text takes.
    static var scriptBytes: Int { 2 * CompactScript.capacity }

    static func script(_ script: CompactScript, into encoder: inout RecordEncoder) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scriptBytes) { bytes in
            let end = Self.script(script, at: bytes.baseAddress!)
            encoder.text(UnsafeBufferPointer(start: bytes.baseAddress!, count: end - bytes.baseAddress!))
        }
    }

    /// Writes `script` at `p` as its text, the responses' tokens (`GatewayResponse.tokenByte`) joined
    /// by `;` (at most `scriptBytes` bytes); returns where it stopped.
    @inline(__always) static func script(_ script: CompactScript, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var q = p
        for i in 0..<script.count {
            if i > 0 {
                q.pointee = UInt8(ascii: ";")
                q += 1
            }
            q.pointee = script.response(at: i).tokenByte
            q += 1
        }
        return q
    }
}
