#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import DatasetText
import Parquet
import PaymentsCore

/// Payment rows parsed straight from a row group's typed values: the Parquet counterpart of
/// `ParsedPayments.append(line:malformedColumn:fields:tokenized:users:)`, without rendering the
/// row to text.
///
/// A row is taken only when its rendered CSV line would split into the rendered fields and each
/// field would read as the typed value: a known or unknown user of a plain id, `charge` or
/// `refund`, a supported currency, a valid gateway script, a time that is a whole number of
/// seconds. The user, kind, currency and script of each dictionary entry are read once a row group.
/// Any other row (`append` returns `false`) is left to the text path, which decides and explains.
public enum TypedPayments {
    /// The columns of a payments row group, in `DatasetKind.payments.columns` order, with what each
    /// slot (dictionary entry, or row of a column stored plainly) of the user, kind, currency and
    /// gateway columns reads as: `nil` to leave a row of that slot to the text path.
    public struct Columns {
        let id, key, user, kind, amount, currency, createdAt, refundOf, gateway: ParquetColumnStorage
        let userOfSlot: [UInt32?]
        let kindOfSlot: [PaymentKind?]
        let currencyOfSlot: [Currency?]
        let scriptOfSlot: [GatewayScript?]

        /// `nil` when a column other than `refund_of` holds nulls, or when an id or key of the group
        /// holds a `,` or `\n` (its line would split elsewhere): the group is then read as text.
        public init?(_ run: TypedRun, users: UserDirectory) {
            let c = run.columns
            guard c.count == DatasetKind.payments.columns.count,
                  c.indices.allSatisfy({ $0 == Column.Payments.refundOf || c[$0].validity.isEmpty }),
                  [c[0], c[1], c[7]].allSatisfy(Self.splitsNowhere)
            else { return nil }
            (id, key, user, kind, amount, currency, createdAt, refundOf, gateway) = (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8])
            userOfSlot = TypedCandidates.usersOfSlots(c[2], users).enumerated().map { slot, user in
                user == .max && TypedCandidates.plainId(c[2], slot: slot) == nil ? nil : user
            }
            kindOfSlot = Self.slots(of: c[3]) { PaymentKind(field: $0) }
            currencyOfSlot = Self.slots(of: c[5]) { Currency(field: $0) }
            // The last column: a `\r` ends the line's text, so it splits the field differently too.
            scriptOfSlot = Self.slots(of: c[8]) { $0.contains(UInt8(ascii: "\r")) ? nil : GatewayScript(field: $0) }
        }

        /// What each slot of the STRING column `column` reads as.
        static func slots<T>(of column: ParquetColumnStorage, _ read: (UnsafeBufferPointer<UInt8>) -> T?) -> [T?] {
            (0..<column.ends.count).map { slot in
                let start = slot == 0 ? 0 : column.ends[slot - 1]
                return read(UnsafeBufferPointer(rebasing: column.bytes[start..<column.ends[slot]]))
            }
        }

        /// Whether no string of the STRING column `column` holds a `,` or `\n`.
        static func splitsNowhere(_ column: ParquetColumnStorage) -> Bool {
            guard let base = column.bytes.baseAddress else { return true }
            return memchr(base, Int32(UInt8(ascii: ",")), column.bytes.count) == nil && memchr(base, Int32(UInt8(ascii: "\n")), column.bytes.count) == nil
        }
    }
}

extension ParsedPayments {
    /// Appends row `row` of `c` as line `line` when the typed path takes it (`TypedPayments`);
    /// returns `false`, appending nothing, to leave the row to the text path.
    public mutating func append(row: Int, of c: TypedPayments.Columns, line: Int) -> Bool {
        guard let user = c.userOfSlot[c.user.slot(row)],
              let kind = c.kindOfSlot[c.kind.slot(row)],
              let currency = c.currencyOfSlot[c.currency.slot(row)],
              let script = c.scriptOfSlot[c.gateway.slot(row)],
              let createdAt = TypedCandidates.seconds(c.createdAt.int64(row))
        else { return false }
        let id = c.id.utf8(row), key = c.key.utf8(row), refundOf = c.refundOf.utf8(row)
        append(
            ParsedPayment(
                line: line, malformedColumn: nil, tokenized: true, user: user, kind: kind, createdAt: createdAt, script: script,
                amountMinor: c.amount.int64(row), currency: currency, id: id, key: key, refundOf: refundOf
            ),
            id: id, key: key, refundOf: refundOf
        )
        return true
    }
}
