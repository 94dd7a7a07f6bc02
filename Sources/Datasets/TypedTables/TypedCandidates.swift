import DatasetText
@_spi(Tooling) import HealthCore
import Parquet

/// Meal and step candidates made straight from a row group's typed values: the Parquet counterpart
/// of `CanonicalRows`, without rendering the row to text.
///
/// A row is taken only when the CSV line `TypedRowText` renders for it would be read by
/// `RowTokenizer` + `RowDecoders` as an accepted candidate, and the candidate and id hash are the
/// ones they make of that line. For anything else — an empty id, a string holding `,` or `\n`, an id
/// over 16 bytes, an unknown user, a value outside SPEC's enums, a time with a fraction of a second, a
/// DOUBLE that is not a whole number of thousandths below 10¹² in magnitude, a null, a row SPEC rejects
/// — it returns `nil`, and the caller renders the row and reads its text, which decides and explains.
@usableFromInline package enum TypedCandidates {
    /// The columns of a meals row group, in `DatasetKind.meals.columns` order, with the user and the
    /// validity of the type of each dictionary entry (or row) looked up once; `nil` when a column is
    /// nullable (a null renders as an empty field, which only the text path judges). Made once a row
    /// group: every run of the group shares its columns.
    @usableFromInline package struct MealColumns {
        @usableFromInline let id, user, start, end, type, kcal, protein, carbs, fat: ParquetColumnStorage
        /// The accepted user of each slot of `user`, `UInt32.max` for none.
        @usableFromInline let userOfSlot: [UInt32]
        /// Whether each slot of `type` is a meal type of SPEC.
        @usableFromInline let isMealTypeOfSlot: [Bool]

        package init?(_ run: TypedRun, users: UserDirectory) {
            let c = run.columns
            guard c.count == DatasetKind.meals.columns.count, c.allSatisfy({ $0.validity.isEmpty }) else { return nil }
            (id, user, start, end, type, kcal, protein, carbs, fat) = (c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8])
            userOfSlot = TypedCandidates.usersOfSlots(c[1], users)
            isMealTypeOfSlot = (0..<c[4].ends.count).map { TypedCandidates.isMealType(c[4], slot: $0) }
        }
    }

    /// The columns of a steps row group, in `DatasetKind.steps.columns` order, with the user and the
    /// source of each dictionary entry (or row) looked up once; `nil` when one is nullable.
    @usableFromInline package struct StepColumns {
        @usableFromInline let id, user, source, start, end, count: ParquetColumnStorage
        /// The accepted user of each slot of `user`, `UInt32.max` for none.
        @usableFromInline let userOfSlot: [UInt32]
        /// The step source each slot of `source` names, if one of SPEC's.
        @usableFromInline let sourceOfSlot: [StepSource?]
        /// The count of each dictionary entry of `count` as `stepCount` reads it; empty when the
        /// column is stored plainly.
        @usableFromInline let countOfEntry: [Double]

        package init?(_ run: TypedRun, users: UserDirectory) {
            let c = run.columns
            guard c.count == DatasetKind.steps.columns.count, c.allSatisfy({ $0.validity.isEmpty }) else { return nil }
            (id, user, source, start, end, count) = (c[0], c[1], c[2], c[3], c[4], c[5])
            userOfSlot = TypedCandidates.usersOfSlots(c[1], users)
            sourceOfSlot = (0..<c[2].ends.count).map { TypedCandidates.source(c[2], slot: $0) }
            countOfEntry = c[5].indices.isEmpty ? [] : c[5].words.map { TypedCandidates.stepCount(Double(bitPattern: $0)) }
        }
    }

    /// Row `row` of `c` as an accepted meal candidate and the hash of its `meal_id`, or `nil`.
    @inlinable @inline(__always)
    package static func meal(_ row: Int, of c: MealColumns) -> (MealCandidate, idHash: UInt64)? {
        let user = c.userOfSlot[c.user.slot(row)]
        guard user != .max,
              let id = plainId(c.id, slot: c.id.slot(row)),
              let from = seconds(c.start.int64(row)),
              let to = seconds(c.end.int64(row)),
              c.isMealTypeOfSlot[c.type.slot(row)],
              let kcal = thousandths(c.kcal.double(row)),
              let protein = thousandths(c.protein.double(row)),
              let carbs = thousandths(c.carbs.double(row)),
              let fat = thousandths(c.fat.double(row)),
              MealRejection.check(start: from, end: to, hasNegativeValue: kcal < 0 || protein < 0 || carbs < 0 || fat < 0) == nil
        else { return nil }
        let candidate = MealCandidate(start: from, kcalMicros: kcal &* 1000, user: user, duration: UInt16(to &- from))
        return (candidate, FieldParsing.hash(low: id.low, high: id.high, count: id.count))
    }

    /// Row `row` of `c` as an accepted step candidate and the hash of its `sample_id`, or `nil`.
    @inlinable @inline(__always)
    package static func step(_ row: Int, of c: StepColumns) -> (StepCandidate, idHash: UInt64)? {
        let user = c.userOfSlot[c.user.slot(row)]
        guard user != .max,
              let source = c.sourceOfSlot[c.source.slot(row)],
              let id = plainId(c.id, slot: c.id.slot(row)),
              let from = seconds(c.start.int64(row)),
              let to = seconds(c.end.int64(row))
        else { return nil }
        let count = c.countOfEntry.isEmpty ? stepCount(c.count.double(row)) : c.countOfEntry[Int(c.count.indices[row])]
        guard !count.isNaN, StepRejection.check(start: from, end: to, count: count) == nil else { return nil }
        let candidate = StepCandidate(start: from, count: count, user: user, duration: UInt32(to &- from), source: source)
        return (candidate, FieldParsing.hash(low: id.low, high: id.high, count: id.count))
    }

    /// A step count as the text path reads its rendered text (-0.0 renders as "0"), NaN when it is not
    /// a whole number of thousandths (`thousandths`).
    @inlinable @inline(__always)
    static func stepCount(_ value: Double) -> Double {
        thousandths(value) == nil ? .nan : value == 0 ? 0 : value
    }

    /// The accepted user each slot of the STRING column `column` names (its dictionary entries, or
    /// its rows when stored plainly), `UInt32.max` for none; consecutive slots mostly name the same
    /// user, which is looked up once.
    static func usersOfSlots(_ column: ParquetColumnStorage, _ users: UserDirectory) -> [UInt32] {
        var last: (low: UInt64, high: UInt64, count: Int, index: UInt32)?
        return (0..<column.ends.count).map { slot in
            guard let id = plainId(column, slot: slot) else { return .max }
            if let last, id.count == last.count, id.low == last.low, id.high == last.high { return last.index }
            let index = users.index(low: id.low, high: id.high, count: id.count) ?? .max
            last = (id.low, id.high, id.count, index)
            return index
        }
    }

    /// Slot `slot` of a STRING column (a row, or a dictionary entry) when it is a non-empty id of at
    /// most 16 bytes without `,` or `\n`: its bytes as the little-endian words of
    /// `CanonicalFields.shortId`; `nil` otherwise.
    @inlinable @inline(__always)
    static func plainId(_ column: ParquetColumnStorage, slot: Int) -> (low: UInt64, high: UInt64, count: Int)? {
        let start = slot == 0 ? 0 : column.ends[slot &- 1]
        let count = column.ends[slot] &- start
        guard count > 0, count <= 16, let base = column.bytes.baseAddress else { return nil }
        let low: UInt64, high: UInt64
        if column.bytes.count &- start >= 16 {
            // Whole words (the bytes after the id belong to the next rows), masked to the id.
            let raw = UnsafeRawPointer(base + start)
            let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            low = count >= 8 ? first : first & CanonicalFields.bytesBelow(count)
            high = count >= 16 ? second : count <= 8 ? 0 : second & CanonicalFields.bytesBelow(count &- 8)
        } else {
            var words: (low: UInt64, high: UInt64) = (0, 0)
            for i in 0..<count {
                let byte = UInt64(base[start &+ i]) &<< UInt64(8 &* (i & 7))
                if i < 8 { words.low |= byte } else { words.high |= byte }
            }
            (low, high) = words
        }
        guard CanonicalFields.stops(low) | CanonicalFields.stops(high) == 0 else { return nil }
        return (low, high, count)
    }

    /// The seconds of a TIMESTAMP(MICROS) that is a whole number of seconds (rendered as an integer).
    @inlinable @inline(__always)
    static func seconds(_ micros: Int64) -> Int64? {
        // The literal, not `CanonicalText.microsPerSecond`: a global of another module would be a division.
        let (seconds, fraction) = micros.quotientAndRemainder(dividingBy: 1_000_000)
        return fraction == 0 ? seconds : nil
    }

    /// The thousandths `m` of a DOUBLE that is exactly `CanonicalText.double(milli: m)` with |m| below
    /// 10¹⁵: such a value renders as the decimal text of `m` thousandths, which the decoders read back
    /// as `m` thousandths (and as this very DOUBLE). `nil` for any other value.
    @inlinable @inline(__always)
    static func thousandths(_ value: Double) -> Int64? {
        // A whole number (the common case) needs no division to check.
        if value.magnitude < 999_999_999_999, Double(Int64(value)) == value { return Int64(value) &* 1000 }
        let scaled = value * 1000
        // Within 10¹⁵ the product is within 0.25 of the thousandths, so adding ½ and truncating finds them.
        guard scaled.magnitude < 999_999_999_999_999.5 else { return nil }
        let milli = Int64(scaled + (scaled < 0 ? -0.5 : 0.5))
        return CanonicalText.double(milli: milli) == value ? milli : nil
    }

    /// Whether slot `slot` of `column` is a meal type of SPEC (`MealType`'s spellings).
    static func isMealType(_ column: ParquetColumnStorage, slot: Int) -> Bool {
        MealType.allCases.contains { spells(column, slot: slot, $0.spelling) }
    }

    /// The step source slot `slot` of `column` names, if one of SPEC's (`StepSource`'s spellings).
    static func source(_ column: ParquetColumnStorage, slot: Int) -> StepSource? {
        StepSource.allCases.first { spells(column, slot: slot, $0.spelling) }
    }

    /// Whether slot `slot` of a STRING column holds exactly the bytes of `word`. Once a dictionary
    /// entry, not a row: a category column is dictionary-encoded.
    static func spells(_ column: ParquetColumnStorage, slot: Int, _ word: StaticString) -> Bool {
        let start = slot == 0 ? 0 : column.ends[slot - 1]
        guard column.ends[slot] - start == word.utf8CodeUnitCount else { return false }
        return UnsafeBufferPointer(rebasing: column.bytes[start..<column.ends[slot]])
            .elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
    }
}
