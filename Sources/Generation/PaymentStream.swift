@_spi(Tooling) import Scenarios
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import PaymentsCore

extension UserGenerator {
    /// A currency's typical payment, in major units.
    static func typicalAmount(_ currency: Currency) -> Double {
        switch currency {
        case .usd: 25
        case .eur: 22
        case .gbp: 20
        case .chf: 25
        case .cad: 32
        case .aud: 35
        case .sek: 250
        case .inr: 1500
        case .brl: 120
        case .jpy: 3500
        case .kwd: 8
        case .bhd: 9
        }
    }

    /// Appends the user's payments: charges arriving as a Poisson process with a daily cycle,
    /// client retries reusing the key, refunds (partial, repeated), and the injected faults;
    /// sorted by `(created_at, payment_id)` before out-of-order delivery.
    func payments(into batch: inout SimulationBatch) {
        guard boundaryPlan == nil else { return boundaryPayments(into: &batch) }
        let model = scenario.payments
        let gaussian = context.gaussian
        var random = stream(.payments)
        var faults = stream(.paymentFaults)
        let rates = context.paymentFaults
        let user = profile.row.index
        let first = batch.payments.count
        var ordinal: UInt32 = 0
        var lastCleanCharge: PaymentRow?

        let odds = GatewayOdds(timeout: model.timeoutRate, lost: model.lostRate, decline: model.declineRate)

        func script() -> CompactScript {
            var script = CompactScript()
            while script.count < 4 {
                let response = odds.response(for: random.unit())
                script.append(response)
                if response == .approved || response == .declined { break }
            }
            return script
        }

        func row(kind: PaymentKind, amount: Int64, currency: Currency, at createdAt: Int64, refundOf: UInt32) -> PaymentRow {
            defer { ordinal += 1 }
            return PaymentRow(
                user: user, ordinal: ordinal, keyOrdinal: ordinal, refundOf: refundOf, amountMinor: amount, createdAt: createdAt,
                script: script(), kind: kind, currency: currency, fault: nil, variant: 0, late: false
            )
        }

        /// A retry of `original`: a new row with the same key and values, seconds to minutes later.
        func maybeRetry(_ original: PaymentRow, batch: inout SimulationBatch) {
            guard random.chance(model.retryRate) else { return }
            var retry = row(kind: original.kind, amount: original.amountMinor, currency: original.currency,
                            at: original.createdAt + random.integer(1, 300), refundOf: original.refundOf)
            retry.keyOrdinal = original.keyOrdinal
            batch.payments.append(retry)
        }

        func refund(of charge: PaymentRow, amount: Int64, currency: Currency, after: Int64, fault: PaymentRejection?,
                    batch: inout SimulationBatch) -> PaymentRow {
            var refund = row(kind: .refund, amount: amount, currency: currency, at: after + random.integer(600, 14 * 86_400),
                             refundOf: charge.ordinal)
            refund.fault = fault
            batch.payments.append(refund)
            return refund
        }

        for day in 0..<scenario.days {
            let midnight = dayStart(day)
            let arrivals = random.poisson(expMinusMean: profile.paymentExpMinusMean)
            var arrivalTimes = batch.dayTimes.writer(room: arrivals)
            for _ in 0..<arrivals { arrivalTimes.append(context.paymentHours.draw(&random) * 3600 + random.integer(0, 3599)) }
            let times = arrivalTimes.written
            sortShort(times)
            for i in 0..<arrivals {
                let currency = random.chance(model.travelRate) ? model.currencies.draw(&random) : profile.homeCurrency
                let major = Self.typicalAmount(currency) * model.amountScale * profile.amountFactor * exp(model.amountSigma * gaussian.draw(&random))
                var scale = 1.0
                for _ in 0..<currency.exponent { scale *= 10 }
                let amount = min(currency.limitMinor, max(1, Int64((major * scale).rounded())))
                var charge = row(kind: .charge, amount: amount, currency: currency, at: midnight + times[i], refundOf: PaymentRow.noCharge)
                let fault = rates.draw(&faults)
                switch fault {
                case .none:
                    break
                case .idempotencyConflict?:
                    // Reuse an earlier charge's key with a different amount.
                    if let earlier = lastCleanCharge {
                        charge.keyOrdinal = earlier.keyOrdinal
                        charge.currency = earlier.currency
                        charge.amountMinor = earlier.amountMinor + 1 + Int64(faults.below(1000))
                        charge.fault = .idempotencyConflict
                    }
                case .unknownCharge?, .currencyMismatch?, .refundExceeds?:
                    break
                case let other?:
                    charge.fault = other
                    switch other {
                    case .malformed: charge.variant = UInt8(faults.below(4))
                    case .missingKey: charge.variant = UInt8(faults.below(2))
                    case .unsupportedCurrency: charge.variant = UInt8(faults.below(3))
                    case .invalidAmount:
                        charge.variant = UInt8(faults.below(3))
                        if charge.variant == 0 { charge.amountMinor = 0 }
                        if charge.variant == 1 { charge.amountMinor = -charge.amountMinor }
                    case .overLimit: charge.amountMinor = currency.limitMinor + 1 + Int64(faults.below(1_000_000))
                    default: break
                    }
                }
                batch.payments.append(charge)
                guard charge.fault == nil else { continue }
                lastCleanCharge = charge
                maybeRetry(charge, batch: &batch)
                let captures = charge.script.captures(maxAttempts: RetryPolicy.defaultMaxAttempts)
                switch fault {
                case .unknownCharge?:
                    var ghost = refund(of: charge, amount: max(1, charge.amountMinor / 2), currency: charge.currency,
                                       after: charge.createdAt, fault: .unknownCharge, batch: &batch)
                    ghost.refundOf = charge.ordinal | PaymentRow.ghostBit
                    batch.payments[batch.payments.count - 1] = ghost
                case .currencyMismatch? where captures:
                    let other = Currency.allCases[(Int(charge.currency.rawValue) + 1) % Currency.allCases.count]
                    _ = refund(of: charge, amount: 1, currency: other, after: charge.createdAt, fault: .currencyMismatch, batch: &batch)
                case .refundExceeds? where captures:
                    _ = refund(of: charge, amount: charge.amountMinor + 1 + Int64(faults.below(1000)), currency: charge.currency,
                               after: charge.createdAt, fault: .refundExceeds, batch: &batch)
                default:
                    break
                }
                guard captures, random.chance(model.refundRate) else { continue }
                if random.chance(model.partialRefundShare), charge.amountMinor >= 4 {
                    let part = Int64(random.integer(1, charge.amountMinor / 2))
                    let firstRefund = refund(of: charge, amount: part, currency: charge.currency, after: charge.createdAt, fault: nil, batch: &batch)
                    maybeRetry(firstRefund, batch: &batch)
                    if random.chance(model.repeatRefundRate) {
                        let second = refund(of: charge, amount: random.integer(1, charge.amountMinor - part), currency: charge.currency,
                                            after: firstRefund.createdAt, fault: nil, batch: &batch)
                        maybeRetry(second, batch: &batch)
                    }
                } else {
                    let full = refund(of: charge, amount: charge.amountMinor, currency: charge.currency, after: charge.createdAt, fault: nil, batch: &batch)
                    maybeRetry(full, batch: &batch)
                }
            }
        }
        // Sorted through a buffer pointer: `sort` on the array's slice copied the user's rows first.
        batch.payments.withUnsafeMutableBufferPointer { (all: inout UnsafeMutableBufferPointer<PaymentRow>) in
            var rows = UnsafeMutableBufferPointer(rebasing: all[first...])
            rows.sort { (a: PaymentRow, b: PaymentRow) in a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.ordinal < b.ordinal }
        }
        shuffleLate(&batch.payments, from: first, chance: rates.outOfOrder, using: &faults)
    }
}
