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
    public private(set) var keys: ByteStringTable
    /// The line of the row that carries each interned id as its `payment_id`, 0 when none.
    private var lineOfPayment: [Int] = []
    /// The accepted users, which rows are checked against.
    public let users: UserDirectory
    /// The file's name, for messages.
    public let file: String

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
        let idField = f[C.id], keyField = f[C.key], refundField = f[C.refundOf]
        // The tables' slots are cache misses: their loads start here and arrive while the other
        // fields are read (the tables are interned in the same order as ever: ids, then keys).
        let idHash = FieldParsing.hash(idField), keyHash = FieldParsing.hash(keyField)
        ids.prefetch(hash: idHash)
        keys.prefetch(hash: keyHash)
        let user = f[C.user].isEmpty ? UInt32.max : users.index(of: f[C.user]) ?? .max
        let kind: PaymentKind? = FieldParsing.equal(f[C.kind], Self.charge.withUnsafeBufferPointer { $0 }) ? .charge
            : FieldParsing.equal(f[C.kind], Self.refund.withUnsafeBufferPointer { $0 }) ? .refund : nil
        let createdAt = FieldParsing.int64(f[C.createdAt])
        let script = GatewayScript(field: f[C.gateway])
        let id = ids.intern(idField, hash: idHash).id
        while lineOfPayment.count < ids.count { lineOfPayment.append(0) }
        if !idField.isEmpty {
            if lineOfPayment[Int(id)] != 0 {
                throw InputRefusal(
                    file: file, line: line,
                    reason: "repeated payment_id '\(ids.strings.string(Int(id)))' (first at line \(lineOfPayment[Int(id)]))"
                )
            }
            lineOfPayment[Int(id)] = line
        }
        let refundOf: UInt32? = refundField.isEmpty ? nil : ids.intern(refundField).id
        while lineOfPayment.count < ids.count { lineOfPayment.append(0) }
        let request = PaymentRequest(
            id: id, key: keys.intern(keyField, hash: keyHash).id, keyLength: FieldParsing.scalarCount(keyField), kind: kind ?? .charge,
            amountMinor: FieldParsing.int64(f[C.amount]), currency: Currency(field: f[C.currency]),
            createdAt: createdAt ?? 0, refundOf: refundOf, script: script ?? GatewayScript([.approved])
        )
        var row = DecodedPayment(request: request, user: user, rejection: nil, column: -1, line: line)
        var badColumn: Int? = malformedColumn
        if tokenized && badColumn == nil {
            if f[C.id].isEmpty { badColumn = C.id }
            else if f[C.user].isEmpty { badColumn = C.user }
            else if kind == nil { badColumn = C.kind }
            else if createdAt == nil { badColumn = C.createdAt }
            else if script == nil { badColumn = C.gateway }
            else if kind == .charge && refundOf != nil { badColumn = C.refundOf }
        }
        if !tokenized || badColumn != nil {
            row.rejection = .malformed
            row.column = Int8(badColumn ?? -1)
        } else if user == .max {
            row.rejection = .unknownUser
            row.column = Int8(C.user)
        }
        return row
    }

    static let charge = Array("charge".utf8)
    static let refund = Array("refund".utf8)
}
