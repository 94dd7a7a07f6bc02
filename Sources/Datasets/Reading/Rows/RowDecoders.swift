import DatasetText
@_spi(Tooling) import HealthCore
import UserProfiles
import PaymentsCore

/// A rejected row: its line within its chunk, the reason (an index into the kind's reasons), the
/// culprit column when known (-1 otherwise) and the accepted user it names (`.max` when none).
package struct RowRejection: Sendable, Equatable {
    /// The line within its chunk.
    package var line: UInt32
    /// The reason, as an index into the kind's reasons.
    package var reason: UInt8
    /// The culprit column, -1 when none is known.
    package var column: Int8
    /// The accepted user the row names, `.max` when none.
    package var user: UInt32

    /// A rejection of all its parts.
    package init(line: UInt32, reason: UInt8, column: Int8, user: UInt32) {
        self.line = line
        self.reason = reason
        self.column = column
        self.user = user
    }
}

/// What a decoder makes of one row: an accepted row comes with the 64-bit hash of its id.
public enum RowVerdict<Row> {
    case accepted(Row, idHash: UInt64)
    case rejected(reason: UInt8, column: Int8, user: UInt32)
}

/// A meal row that passed every check but `duplicate` (24 bytes: 8 M rows stay in memory).
public struct MealCandidate: Sendable, Equatable, BitwiseCopyable {
    /// `start`, seconds since 1970.
    public var start: Int64
    /// `kcal` in millionths.
    public var kcalMicros: Int64
    /// The user's index.
    public var user: UInt32
    /// `end − start` in seconds (at most 14,400: longer meals are rejected).
    public var duration: UInt16
    /// Whether an earlier row took its `meal_id`.
    public var duplicate = false

    /// A candidate of all its parts.
    @inlinable public init(start: Int64, kcalMicros: Int64, user: UInt32, duration: UInt16, duplicate: Bool = false) {
        self.start = start
        self.kcalMicros = kcalMicros
        self.user = user
        self.duration = duration
        self.duplicate = duplicate
    }

    /// The meal for the analyzer.
    public var meal: Meal { Meal(start: start, end: start + Int64(duration), kcalMicros: kcalMicros) }
}

/// A step row that passed every check but `duplicate`; duration, source and the duplicate mark
/// share one word (24 bytes: 23 M rows stay in memory).
public struct StepCandidate: Sendable, Equatable, BitwiseCopyable {
    /// `start`, seconds since 1970.
    public var start: Int64
    /// `count`.
    public var count: Double
    /// The user's index.
    public var user: UInt32
    @usableFromInline var packed: UInt32

    /// A candidate of all its parts.
    @inlinable public init(start: Int64, count: Double, user: UInt32, duration: UInt32, source: StepSource) {
        self.start = start
        self.count = count
        self.user = user
        packed = duration | UInt32(source.rawValue) << 30
    }

    /// `end − start` in seconds.
    package var duration: UInt32 { packed & 0x3FFF_FFFF }
    /// `watch` or `phone`.
    package var source: StepSource { StepSource(rawValue: UInt8(truncatingIfNeeded: (packed >> 30) & 1))! }
    /// Whether an earlier row took its `sample_id`.
    package var duplicate: Bool {
        get { packed & 0x8000_0000 != 0 }
        set { packed = newValue ? packed | 0x8000_0000 : packed & 0x7FFF_FFFF }
    }

    /// The sample for the aggregator.
    public var sample: StepSample { StepSample(start: start, end: start + Int64(duration), count: count, source: source) }
}

/// Column positions, as in `DatasetKind.columns`.
enum Column {
    enum Users { static let id = 0, offset = 1, proto = 2, sex = 3, age = 4, weight = 5, height = 6, activity = 7 }
    enum Meals { static let id = 0, user = 1, start = 2, end = 3, type = 4, kcal = 5, protein = 6, carbs = 7, fat = 8 }
    enum Steps { static let id = 0, user = 1, source = 2, start = 3, end = 4, count = 5 }
    enum Payments {
        static let id = 0, key = 1, user = 2, kind = 3, amount = 4, currency = 5, createdAt = 6, refundOf = 7, gateway = 8
    }
}

/// Decodes the rows of each kind from a tokenizer's fields (SPEC §0–§4 validation up to, not
/// including, the checks that need other rows).
public enum RowDecoders {
    /// A user row, or the malformed column.
    public static func user(_ f: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>) -> Result<UserProfile, MalformedColumn> {
        typealias C = Column.Users
        guard !f[C.id].isEmpty else { return .failure(MalformedColumn(C.id)) }
        guard let offset = FieldParsing.int64(f[C.offset]), UserProfile.utcOffsetRange.contains(offset) else {
            return .failure(MalformedColumn(C.offset))
        }
        guard let proto = FastingProtocol(field: f[C.proto]) else { return .failure(MalformedColumn(C.proto)) }
        guard let age = FieldParsing.int64(f[C.age]), let ageValue = Int(exactly: age) else { return .failure(MalformedColumn(C.age)) }
        guard let weight = FieldParsing.decimal(f[C.weight]) else { return .failure(MalformedColumn(C.weight)) }
        guard let height = FieldParsing.decimal(f[C.height]) else { return .failure(MalformedColumn(C.height)) }
        return .success(UserProfile(
            id: String(decoding: f[C.id], as: UTF8.self), utcOffsetMinutes: Int32(offset), fastingProtocol: proto,
            sex: Sex(field: f[C.sex]), age: ageValue, weightKg: weight, heightCm: height,
            activity: ActivityLevel(field: f[C.activity])
        ))
    }

    /// The column that made a row malformed.
    public struct MalformedColumn: Error, Equatable {
        /// The culprit column's index.
        public var column: Int
        /// The column `column`.
        package init(_ column: Int) { self.column = column }
    }

    @inline(__always) static func userIndex(_ field: UnsafeBufferPointer<UInt8>, _ users: UserDirectory) -> UInt32 {
        field.isEmpty ? .max : users.index(of: field) ?? .max
    }

    /// `MealType`'s spellings, in its order (breakfast, lunch, dinner, snack).
    static let mealTypes: [[UInt8]] = MealType.allCases.map { Array($0.name.utf8) }

    @inline(__always) static func isMealType(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        switch b.count {
        case 5: return b[0] == UInt8(ascii: "l") && FieldParsing.equal(b, mealTypes[1].withUnsafeBufferPointer { $0 })
            || b[0] == UInt8(ascii: "s") && FieldParsing.equal(b, mealTypes[3].withUnsafeBufferPointer { $0 })
        case 6: return FieldParsing.equal(b, mealTypes[2].withUnsafeBufferPointer { $0 })
        case 9: return FieldParsing.equal(b, mealTypes[0].withUnsafeBufferPointer { $0 })
        default: return false
        }
    }

    /// A meal row (reasons index `MealRejection.allCases`).
    @inline(__always)
    public static func meal(_ f: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, users: UserDirectory) -> RowVerdict<MealCandidate> {
        typealias C = Column.Meals
        let malformed = UInt8(0), unknownUser = UInt8(1)
        let user = userIndex(f[C.user], users)
        guard !f[C.id].isEmpty else { return .rejected(reason: malformed, column: Int8(C.id), user: user) }
        guard !f[C.user].isEmpty else { return .rejected(reason: malformed, column: Int8(C.user), user: user) }
        guard let start = FieldParsing.int64(f[C.start]) else { return .rejected(reason: malformed, column: Int8(C.start), user: user) }
        guard let end = FieldParsing.int64(f[C.end]) else { return .rejected(reason: malformed, column: Int8(C.end), user: user) }
        guard isMealType(f[C.type]) else { return .rejected(reason: malformed, column: Int8(C.type), user: user) }
        guard let kcal = FieldParsing.decimalMicros(f[C.kcal]) else { return .rejected(reason: malformed, column: Int8(C.kcal), user: user) }
        guard let protein = FieldParsing.decimalIsNegative(f[C.protein]) else { return .rejected(reason: malformed, column: Int8(C.protein), user: user) }
        guard let carbs = FieldParsing.decimalIsNegative(f[C.carbs]) else { return .rejected(reason: malformed, column: Int8(C.carbs), user: user) }
        guard let fat = FieldParsing.decimalIsNegative(f[C.fat]) else { return .rejected(reason: malformed, column: Int8(C.fat), user: user) }
        let negative = kcal.negative || protein || carbs || fat
        guard user != .max else { return .rejected(reason: unknownUser, column: Int8(C.user), user: user) }
        if let reason = MealRejection.check(start: start, end: end, hasNegativeValue: negative) {
            return .rejected(reason: UInt8(MealRejection.allCases.firstIndex(of: reason)!), column: -1, user: user)
        }
        return .accepted(
            MealCandidate(start: start, kcalMicros: kcal.micros, user: user, duration: UInt16(end - start)),
            idHash: FieldParsing.hash(f[C.id])
        )
    }

    /// A step row (reasons index `StepRejection.allCases`).
    @inline(__always)
    public static func step(_ f: UnsafeMutableBufferPointer<UnsafeBufferPointer<UInt8>>, users: UserDirectory) -> RowVerdict<StepCandidate> {
        typealias C = Column.Steps
        let malformed = UInt8(0), unknownUser = UInt8(1)
        let user = userIndex(f[C.user], users)
        guard !f[C.id].isEmpty else { return .rejected(reason: malformed, column: Int8(C.id), user: user) }
        guard !f[C.user].isEmpty else { return .rejected(reason: malformed, column: Int8(C.user), user: user) }
        let sourceField = f[C.source]
        let source: StepSource
        if FieldParsing.equal(sourceField, watchBytes.withUnsafeBufferPointer { $0 }) {
            source = .watch
        } else if FieldParsing.equal(sourceField, phoneBytes.withUnsafeBufferPointer { $0 }) {
            source = .phone
        } else {
            return .rejected(reason: malformed, column: Int8(C.source), user: user)
        }
        guard let start = FieldParsing.int64(f[C.start]) else { return .rejected(reason: malformed, column: Int8(C.start), user: user) }
        guard let end = FieldParsing.int64(f[C.end]) else { return .rejected(reason: malformed, column: Int8(C.end), user: user) }
        guard let count = FieldParsing.decimal(f[C.count]) else { return .rejected(reason: malformed, column: Int8(C.count), user: user) }
        guard user != .max else { return .rejected(reason: unknownUser, column: Int8(C.user), user: user) }
        if let reason = StepRejection.check(start: start, end: end, count: count) {
            return .rejected(reason: UInt8(StepRejection.allCases.firstIndex(of: reason)!), column: -1, user: user)
        }
        return .accepted(
            StepCandidate(start: start, count: count == 0 ? 0 : count, user: user, duration: UInt32(end - start), source: source),
            idHash: FieldParsing.hash(f[C.id])
        )
    }

    static let watchBytes = Array(StepSource.watch.name.utf8)
    static let phoneBytes = Array(StepSource.phone.name.utf8)
}
