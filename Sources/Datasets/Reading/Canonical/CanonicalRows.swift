import DatasetText
@_spi(Tooling) import HealthCore

/// One-pass parsing of the rows of a CSV file whose header is exactly the canonical column list
/// of its kind: the common case of `meals.csv` and `steps.csv`, read without tokenizing.
///
/// A parser returns a candidate only for a plainly valid, accepted row, identical to the one
/// `RowTokenizer` + `RowDecoders` make of the same line; for anything else (`\r\n`, blank line,
/// wrong field count, empty field, sign, exponent, unknown user, any rejection, an id over 16
/// bytes, a number with more digits than it parses exactly) it returns `nil`, and the caller
/// runs the general path on that line, which decides and explains everything else.
///
/// The parsers read whole words, also past the line's end but never past the chunk's, and ask the
/// cache for the user of the line three lines ahead (a hint that changes no result). They are
/// `@inlinable` so that a reader in another module gets them compiled into its loop.
public enum CanonicalRows {
    /// Whether a CSV header line (without its `\n`; a trailing `\r` and a UTF-8 BOM are ignored,
    /// as `RowTokenizer` does) is exactly `kind.columns` joined by commas.
    public static func isCanonical(header: UnsafeBufferPointer<UInt8>, kind: DatasetKind) -> Bool {
        var line = RowTokenizer.trimmed(header)
        if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF { line = UnsafeBufferPointer(rebasing: line[3...]) }
        return Array(kind.columns.joined(separator: ",").utf8).withUnsafeBufferPointer { FieldParsing.equal($0, line) }
    }

    /// Parses the meal line that starts at `base + start`, in a chunk that ends at `base + end`:
    /// the accepted candidate, the hash of its id and the offset of the line's `\n` (or `end`), or
    /// `nil` when the line is not a plainly valid, accepted meal.
    @inlinable
    public static func meal(_ base: UnsafePointer<UInt8>, start: Int, end: Int, users: UserDirectory) -> (MealCandidate, idHash: UInt64, lineEnd: Int)? {
        typealias F = CanonicalFields
        var p = base + start
        let limit = base + end
        guard let id = F.shortId(&p, limit),
              let user = F.user(&p, limit, users),
              let from = F.integer(&p, limit),
              let to = F.integer(&p, limit),
              MealRejection.check(start: from, end: to, hasNegativeValue: false) == nil,
              F.mealType(&p, limit),
              // kcal in millionths: exact with at most 12 digits before the point and 6 after it, so it is
              // the value `FieldParsing.decimalMicros` gives (which only rounds or saturates past that).
              // Spelled out here: as a function, `micros` was called, not inlined, with `p` through memory.
              let kcal = F.decimal(&p, limit), kcal.fractionDigits <= 6, kcal.digits - kcal.fractionDigits <= 12,
              F.skip(UInt8(ascii: ","), &p, limit),
              F.decimal(&p, limit) != nil, F.skip(UInt8(ascii: ","), &p, limit),
              F.decimal(&p, limit) != nil, F.skip(UInt8(ascii: ","), &p, limit),
              F.decimal(&p, limit) != nil,
              let lineEnd = F.lineEnd(p, limit, from: base)
        else { return nil }
        if lineEnd < end, users.benefitsFromPrefetch { F.prefetchUser(2, linesAfter: base + lineEnd + 1, limit, users) }
        let idHash = FieldParsing.hash(low: id.low, high: id.high, count: id.count)
        let kcalMicros = Int64(kcal.value &* F.powerOfTen(6 - kcal.fractionDigits))
        return (MealCandidate(start: from, kcalMicros: kcalMicros, user: user, duration: UInt16(to - from)), idHash, lineEnd)
    }

    /// Parses the step line that starts at `base + start`, in a chunk that ends at `base + end`:
    /// the accepted candidate, the hash of its id and the offset of the line's `\n` (or `end`), or
    /// `nil` when the line is not a plainly valid, accepted step sample.
    @inlinable
    public static func step(_ base: UnsafePointer<UInt8>, start: Int, end: Int, users: UserDirectory) -> (StepCandidate, idHash: UInt64, lineEnd: Int)? {
        typealias F = CanonicalFields
        var p = base + start
        let limit = base + end
        guard let id = F.shortId(&p, limit),
              let user = F.user(&p, limit, users),
              let source = F.source(&p, limit),
              let from = F.integer(&p, limit),
              let to = F.integer(&p, limit),
              let count = F.count(&p, limit),
              StepRejection.check(start: from, end: to, count: count) == nil,
              let lineEnd = F.lineEnd(p, limit, from: base)
        else { return nil }
        if lineEnd < end, users.benefitsFromPrefetch { F.prefetchUser(2, linesAfter: base + lineEnd + 1, limit, users) }
        let idHash = FieldParsing.hash(low: id.low, high: id.high, count: id.count)
        let candidate = StepCandidate(start: from, count: count, user: user, duration: UInt32(to - from), source: source)
        return (candidate, idHash, lineEnd)
    }
}
