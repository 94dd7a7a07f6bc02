import PaymentsCore

/// A payment row as read: the request for the processor, its user, and the rejection decided
/// while reading (`malformed`, `unknown_user`), if any.
public struct DecodedPayment: Sendable {
    /// The payment as the processor sees it.
    public var request: PaymentRequest
    /// The accepted user the row names, `.max` when none.
    public var user: UInt32
    /// `malformed` or `unknown_user` when the row was rejected while read.
    public var rejection: PaymentRejection?
    /// The culprit column of a malformed row, -1 when none.
    public var column: Int8
    /// The row's line in its file.
    public var line: Int
}

/// Decodes payment rows in file order, interning ids and keys so requests hold no strings, and
/// refusing a file that repeats a `payment_id` (SPEC §4).
public struct PaymentRowDecoder {
    /// `payment_id` and `refund_of` values.
    public private(set) var ids: ByteStringTable
    /// `idempotency_key` values.
    package private(set) var keys: ByteStringTable
    /// The line of the row that carries each interned id as its `payment_id`, 0 when none.
    private var lineOfPayment: [Int] = []
    /// The accepted users, which rows are checked against.
    package let users: UserDirectory
    /// The file's name, for messages.
    package let file: String

    /// A decoder of the rows of `file`, with room for about `expectedRows` ids and keys (the
    /// tables grow past it, each time placing every string again).
    public init(users: UserDirectory, file: String, expectedRows: Int = 1 << 16) {
        self.users = users
        self.file = file
        ids = ByteStringTable(capacity: expectedRows)
        keys = ByteStringTable(capacity: expectedRows)
        lineOfPayment.reserveCapacity(expectedRows)
    }

    /// Decodes one row; throws `InputRefusal` when its `payment_id` was seen before.
    public mutating func decode(
        line: Int, malformedColumn: Int?, fields f: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, tokenized: Bool
    ) throws -> DecodedPayment {
        typealias C = Column.Payments
        let row = ParsedPayment(line: line, malformedColumn: malformedColumn, fields: f, tokenized: tokenized, users: users)
        return try intern(row, id: f[C.id], key: f[C.key], refundOf: f[C.refundOf])
    }

    /// Interns the rows of `parsed` in their order, each as line `linesBefore` + its line, into
    /// `rows`; throws `InputRefusal` at the first row whose `payment_id` was seen before.
    public mutating func intern(_ parsed: ParsedPayments, linesBefore: Int, into rows: inout [DecodedPayment]) throws {
        // The tables' slots are cache misses: each row's are loaded several rows ahead.
        let ahead = 8
        for row in parsed.rows.prefix(ahead) { prefetch(row) }
        try parsed.bytes.withUnsafeBufferPointer { bytes in
            var at = 0
            func take(_ count: Int) -> UnsafeBufferPointer<UInt8> {
                defer { at += count }
                return UnsafeBufferPointer(rebasing: bytes[at..<at + count])
            }
            for (i, var row) in parsed.rows.enumerated() {
                if i + ahead < parsed.rows.count { prefetch(parsed.rows[i + ahead]) }
                row.line += linesBefore
                rows.append(try intern(row, id: take(row.idCount), key: take(row.keyCount), refundOf: take(row.refundCount)))
            }
        }
    }

    private func prefetch(_ row: ParsedPayment) {
        ids.prefetch(hash: row.idHash)
        keys.prefetch(hash: row.keyHash)
    }

    /// The row of `row` with its ids and key interned (ids, then refund, then key, as ever).
    private mutating func intern(
        _ row: ParsedPayment, id idField: UnsafeBufferPointer<UInt8>, key keyField: UnsafeBufferPointer<UInt8>,
        refundOf refundField: UnsafeBufferPointer<UInt8>
    ) throws -> DecodedPayment {
        let id = ids.intern(idField, hash: row.idHash).id
        while lineOfPayment.count < ids.count { lineOfPayment.append(0) }
        if !idField.isEmpty {
            if lineOfPayment[Int(id)] != 0 {
                throw InputRefusal(
                    file: file, line: row.line,
                    reason: "repeated payment_id '\(ids.strings.string(Int(id)))' (first at line \(lineOfPayment[Int(id)]))"
                )
            }
            lineOfPayment[Int(id)] = row.line
        }
        let refundOf: UInt32? = refundField.isEmpty ? nil : ids.intern(refundField).id
        while lineOfPayment.count < ids.count { lineOfPayment.append(0) }
        let request = PaymentRequest(
            id: id, key: keys.intern(keyField, hash: row.keyHash).id, keyLength: row.keyLength, kind: row.kind ?? .charge,
            amountMinor: row.amountMinor, currency: row.currency, createdAt: row.createdAt ?? 0, refundOf: refundOf,
            script: row.script ?? GatewayScript([.approved])
        )
        return DecodedPayment(request: request, user: row.user, rejection: row.rejection, column: row.column, line: row.line)
    }
}

/// A payment row's fields as read, but for its ids and key: those are numbered in file order by
/// `PaymentRowDecoder`, so only their hashes and lengths are here. Made on any task.
struct ParsedPayment: Sendable {
    var line: Int
    let user: UInt32
    let kind: PaymentKind?
    let createdAt: Int64?
    let script: GatewayScript?
    let amountMinor: Int64?
    let currency: Currency?
    let keyLength: Int
    let idHash: UInt64, keyHash: UInt64
    let idCount: Int, keyCount: Int, refundCount: Int
    let rejection: PaymentRejection?
    let column: Int8

    /// The row of a line's fields (`tokenized`: the line split into one field per column).
    init(
        line: Int, malformedColumn: Int?, fields f: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, tokenized: Bool,
        users: UserDirectory
    ) {
        typealias C = Column.Payments
        self.init(
            line: line, malformedColumn: malformedColumn, tokenized: tokenized,
            user: f[C.user].isEmpty ? nil : users.index(of: f[C.user]) ?? .max, kind: PaymentKind(field: f[C.kind]),
            createdAt: FieldParsing.int64(f[C.createdAt]),
            script: GatewayScript(field: f[C.gateway]), amountMinor: FieldParsing.int64(f[C.amount]), currency: Currency(field: f[C.currency]),
            id: f[C.id], key: f[C.key], refundOf: f[C.refundOf]
        )
    }

    /// The row of values read from its fields: `user` is `nil` for an empty field, `.max` for an
    /// unknown user; `kind`, `createdAt`, `script`, `amountMinor` and `currency` are `nil` for a
    /// field that does not parse.
    init(
        line: Int, malformedColumn: Int?, tokenized: Bool, user: UInt32?, kind: PaymentKind?, createdAt: Int64?, script: GatewayScript?,
        amountMinor: Int64?, currency: Currency?, id: UnsafeBufferPointer<UInt8>, key: UnsafeBufferPointer<UInt8>,
        refundOf: UnsafeBufferPointer<UInt8>
    ) {
        typealias C = Column.Payments
        self.line = line
        self.user = user ?? .max
        self.kind = kind
        self.createdAt = createdAt
        self.script = script
        self.amountMinor = amountMinor
        self.currency = currency
        keyLength = FieldParsing.scalarCount(key)
        idHash = FieldParsing.hash(id)
        keyHash = FieldParsing.hash(key)
        idCount = id.count
        keyCount = key.count
        refundCount = refundOf.count
        var badColumn: Int? = malformedColumn
        if tokenized && badColumn == nil {
            if id.isEmpty { badColumn = C.id }
            else if user == nil { badColumn = C.user }
            else if kind == nil { badColumn = C.kind }
            else if createdAt == nil { badColumn = C.createdAt }
            else if script == nil { badColumn = C.gateway }
            else if kind == .charge && !refundOf.isEmpty { badColumn = C.refundOf }
        }
        if !tokenized || badColumn != nil {
            rejection = .malformed
            column = Int8(badColumn ?? -1)
        } else if self.user == .max {
            rejection = .unknownUser
            column = Int8(C.user)
        } else {
            rejection = nil
            column = -1
        }
    }
}

/// Payment rows parsed apart from their decoder, on any task (a chunk of a file read on several
/// at once), for `PaymentRowDecoder.intern(_:linesBefore:into:)` to number their ids in file order.
public struct ParsedPayments: Sendable {
    /// The rows, in order.
    private(set) var rows: [ParsedPayment] = []
    /// Each row's `payment_id`, `idempotency_key` and `refund_of` bytes, row after row.
    private(set) var bytes: [UInt8] = []

    /// Room for about `expectedRows` rows (of some 30 bytes of ids and key).
    public init(expectedRows: Int = 0) {
        rows.reserveCapacity(expectedRows)
        bytes.reserveCapacity(expectedRows * 32)
    }

    /// Parses the row of line `line` (its number as `intern` will add to it).
    public mutating func append(
        line: Int, malformedColumn: Int?, fields f: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, tokenized: Bool,
        users: UserDirectory
    ) {
        typealias C = Column.Payments
        append(ParsedPayment(line: line, malformedColumn: malformedColumn, fields: f, tokenized: tokenized, users: users),
               id: f[C.id], key: f[C.key], refundOf: f[C.refundOf])
    }

    /// Appends `row` with the bytes of its ids and key.
    mutating func append(
        _ row: ParsedPayment, id: UnsafeBufferPointer<UInt8>, key: UnsafeBufferPointer<UInt8>, refundOf: UnsafeBufferPointer<UInt8>
    ) {
        rows.append(row)
        bytes.append(contentsOf: id)
        bytes.append(contentsOf: key)
        bytes.append(contentsOf: refundOf)
    }
}

