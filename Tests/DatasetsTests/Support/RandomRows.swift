import Datasets
import PaymentsCore

/// Seeded meal, step and user lines for property tests: valid lines in every shape the canonical fast
/// path covers, and lines spoiled by field and byte mutations. Only `random` decides, so a seed
/// reproduces a failing line.
struct RandomRows {
    var random: SplitMix64
    let users: OddUsers

    /// Bytes an id may hold besides letters: anything but a comma or a newline, a quote, a zero byte, `\r` and UTF-8 included.
    static let idBytes = Array("abcxyzABCXYZ0123456789-_.:; \"'\t\r".utf8) + [0x00, 0x7F, 0xC3, 0xA9, 0xFF]
    /// Bytes that break grammars.
    static let nastyBytes = Array(",,,\n\r.-+eE \"0159ax".utf8) + [0x00, 0x80, 0xFF]

    /// Users with random ids of 1 to 20 bytes (a hashed directory), or with `numbered` ids
    /// `u0000` to `u0059` (a `NumberedIdIndex`).
    init(seed: UInt64, numbered: Bool = false) {
        random = SplitMix64(seed: seed)
        var generator = SplitMix64(seed: seed ^ 0x5EED)
        var ids: [[UInt8]] = []
        if numbered {
            ids = (0..<60).map { Array(("u00" + ($0 < 10 ? "0" : "") + String($0)).utf8) }
        } else {
            for length in 1...20 {
                for _ in 0..<3 { ids.append((0..<length).map { _ in Self.idBytes.randomElement(using: &generator)! }) }
            }
        }
        users = OddUsers(ids: ids)
    }

    // MARK: valid lines

    /// The fields of a meal the fast path accepts.
    mutating func mealFields() -> [[UInt8]] {
        let start = Int64.random(in: 0..<100_000_000_000_000, using: &random)
        let end = start + Int64.random(in: 0...14_400, using: &random)
        let type = ["breakfast", "lunch", "dinner", "snack"].randomElement(using: &random)!
        return [id(), shortUserId(), integer(start), integer(end), Array(type.utf8),
                decimal(integerDigits: 1...12, fractionDigits: 0...6), decimal(integerDigits: 1...10, fractionDigits: 0...8),
                decimal(integerDigits: 1...10, fractionDigits: 0...8), decimal(integerDigits: 1...10, fractionDigits: 0...8)]
    }

    /// The fields of a step sample the fast path accepts.
    mutating func stepFields() -> [[UInt8]] {
        let start = Int64.random(in: 0..<100_000_000_000_000, using: &random)
        let end = start + Int64.random(in: 1...86_400, using: &random)
        let source = Bool.random(using: &random) ? "watch" : "phone"
        return [id(), shortUserId(), Array(source.utf8), integer(start), integer(end), decimal(integerDigits: 1...8, fractionDigits: 0...7)]
    }

    /// The fields of a row of `kind` (meals, steps or users) the fast path accepts.
    mutating func fields(of kind: DatasetKind) -> [[UInt8]] {
        switch kind {
        case .meals: mealFields()
        case .steps: stepFields()
        default: userFields()
        }
    }

    /// The fields of a user the fast path accepts (known or unknown sex and activity, none empty
    /// but the activity).
    mutating func userFields() -> [[UInt8]] {
        let offset = Int64.random(in: -720...840, using: &random)
        let sex = ["male", "female", "other", "x", "\u{E9}"].randomElement(using: &random)!
        let activity = ["sedentary", "light", "moderate", "active", "very_active", "lazy", "", "very_active_too"].randomElement(using: &random)!
        return [id(), (offset < 0 ? Array("-".utf8) : []) + integer(abs(offset)),
                Array(["16:8", "18:6", "20:4", "omad", "none"].randomElement(using: &random)!.utf8), Array(sex.utf8),
                integer(Int64.random(in: 0...130, using: &random)), decimal(integerDigits: 1...4, fractionDigits: 0...3),
                decimal(integerDigits: 1...4, fractionDigits: 0...3), Array(activity.utf8)]
    }

    /// An id of 1 to 16 bytes.
    mutating func id() -> [UInt8] {
        (0..<Int.random(in: 1...16, using: &random)).map { _ in Self.idBytes.randomElement(using: &random)! }
    }

    /// The id of a user with at most 16 bytes.
    mutating func shortUserId() -> [UInt8] {
        users.ids.filter { $0.count <= 16 }.randomElement(using: &random)!
    }

    /// `value`, sometimes with leading zeros, in at most 15 digits.
    mutating func integer(_ value: Int64) -> [UInt8] {
        let digits = Array(String(value).utf8)
        let zeros = Int.random(in: 0...max(0, 15 - digits.count), using: &random)
        return Array(repeating: UInt8(ascii: "0"), count: Bool.random(using: &random) ? 0 : zeros) + digits
    }

    /// Random digits (leading zeros included) with an optional fraction.
    mutating func decimal(integerDigits: ClosedRange<Int>, fractionDigits: ClosedRange<Int>) -> [UInt8] {
        let integer = digits(Int.random(in: integerDigits, using: &random))
        let fraction = Int.random(in: fractionDigits, using: &random)
        return fraction == 0 ? integer : integer + [UInt8(ascii: ".")] + digits(fraction)
    }

    mutating func digits(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &random) }
    }

    // MARK: spoiled lines

    /// `fields` joined by commas after one field mutation (half of the time) and up to three byte mutations.
    mutating func spoiled(_ fields: [[UInt8]]) -> [UInt8] {
        var fields = fields
        if Bool.random(using: &random) { mutateField(&fields) }
        var line = Array(fields.joined(separator: [UInt8(ascii: ",")]))
        for _ in 0..<Int.random(in: 0...3, using: &random) { mutateBytes(&line) }
        return line
    }

    mutating func mutateField(_ fields: inout [[UInt8]]) {
        let i = Int.random(in: 0..<fields.count, using: &random)
        switch Int.random(in: 0..<12, using: &random) {
        case 0: fields[i] = []
        case 1: fields.remove(at: i)
        case 2: fields.insert(Array("x".utf8), at: i)
        case 3: fields.swapAt(i, Int.random(in: 0..<fields.count, using: &random))
        case 4: fields[i] = Array("-".utf8) + fields[i]
        case 5: fields[i] = Array("+".utf8) + fields[i]
        case 6: fields[i] = digits(Int.random(in: 16...24, using: &random))
        case 7: fields[i] = Array(["-0", "-0.0", "0.", ".5", "1e3", "NaN", "1..2", "1.2.3"].randomElement(using: &random)!.utf8)
        case 8: fields[1] = users.ids.randomElement(using: &random)! + (Bool.random(using: &random) ? [] : Array("?".utf8))
        case 9: fields[i] = fields[i].map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") ? $0 &+ 0x31 : $0 }
        case 10: fields[i] = decimal(integerDigits: 1...20, fractionDigits: 0...12)
        default: fields.append(Bool.random(using: &random) ? [] : Array("x".utf8))
        }
    }

    mutating func mutateBytes(_ line: inout [UInt8]) {
        guard !line.isEmpty else { return }
        let i = Int.random(in: 0..<line.count, using: &random)
        let nasty = Self.nastyBytes.randomElement(using: &random)!
        switch Int.random(in: 0..<7, using: &random) {
        case 0: line[i] = nasty
        case 1: line.remove(at: i)
        case 2: line.insert(nasty, at: i)
        case 3: line.removeSubrange(i...)
        case 4: line.append(UInt8(ascii: "\r"))
        case 5: line[i] = line[i] &+ 1
        default:
            if let comma = line.indices.filter({ line[$0] == UInt8(ascii: ",") }).randomElement(using: &random) {
                line.insert(UInt8(ascii: ","), at: comma)
            }
        }
    }
}
