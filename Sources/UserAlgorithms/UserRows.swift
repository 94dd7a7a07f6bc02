@_spi(Tooling) import HealthCore
import PaymentsCore

/// The user whose rows an algorithm is given: what the SPEC algorithms need to know about them.
public struct AnalyzedUser: Hashable, Sendable {
    /// The user's index (the number in their id, `u_000042` is 42).
    public var index: UInt32
    /// Minutes east of UTC: local days start at local midnight.
    public var utcOffsetMinutes: Int32
    /// The fasting protocol the user's days are evaluated against.
    public var fastingProtocol: FastingProtocol

    /// A profile of all its fields.
    public init(index: UInt32, utcOffsetMinutes: Int32, fastingProtocol: FastingProtocol) {
        self.index = index
        self.utcOffsetMinutes = utcOffsetMinutes
        self.fastingProtocol = fastingProtocol
    }
}

/// One user's accepted rows, as the harness hands them to an algorithm: a view of the harness's
/// scratch memory, valid only during the call it is passed to (do not keep it). The rows come in
/// the order the stream made them, nearly but not always sorted; the rows may be reordered in place
/// (`sort(by:)`), which is how the SPEC algorithms start.
public struct UserRows<Row>: RandomAccessCollection, MutableCollection {
    /// The user the rows belong to.
    public let user: AnalyzedUser
    private let rows: UnsafeMutableBufferPointer<Row>

    /// A view of `rows`, which must stay valid and unaliased while the view is used.
    public init(user: AnalyzedUser, rows: UnsafeMutableBufferPointer<Row>) {
        self.user = user
        self.rows = rows
    }

    /// 0: the first row.
    public var startIndex: Int { 0 }
    /// The number of rows.
    public var endIndex: Int { rows.count }

    /// The row at `position`; setting it changes the harness's scratch copy of the row.
    public subscript(position: Int) -> Row {
        get { rows[position] }
        nonmutating set { rows[position] = newValue }
    }

    /// Calls `body` with the rows' memory (always contiguous), for fast reads and sorts.
    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Row>) throws -> R) rethrows -> R? {
        try body(UnsafeBufferPointer(rows))
    }

    /// Calls `body` with the rows' memory to change in place (always contiguous): `sort` uses it.
    public mutating func withContiguousMutableStorageIfAvailable<R>(
        _ body: (inout UnsafeMutableBufferPointer<Row>) throws -> R
    ) rethrows -> R? {
        var view = rows
        return try body(&view)
    }
}

/// One user's accepted meals (SPEC §2).
public typealias UserMeals = UserRows<Meal>
/// One user's accepted step samples (SPEC §3).
public typealias UserSteps = UserRows<StepSample>
/// One user's payment requests (SPEC §4), already in processing order `(created_at, payment_id)`:
/// every row but the `malformed` and `unknown_user` ones, so also rows that fail the rest of SPEC §4
/// step 1 (`missing_key`, `unsupported_currency`, `invalid_amount`, `over_limit`), which the
/// implementation rejects (`PaymentProcessing`).
public typealias UserPayments = UserRows<PaymentRequest>
