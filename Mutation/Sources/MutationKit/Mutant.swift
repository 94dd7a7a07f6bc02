/// The kinds of mutation the tool makes.
public enum MutationKind: String, CaseIterable, Sendable {
    /// `<`↔`<=`, `>`↔`>=`, `==`↔`!=`.
    case relational
    /// `&&`↔`||`.
    case logical
    /// An integer literal plus one and minus one.
    case literal
    /// A `guard` whose conditions always hold.
    case guardRemoval = "guard"
    /// A `return` inside an `if` that does not return.
    case returnRemoval = "return"
    /// `min(…)`↔`max(…)`.
    case minMax = "minmax"
    /// One stored field left out of a struct's `==` (synthesized or hand-written).
    case equality
}

/// One mutant: a single change at one place of one file.
public struct Mutant: Hashable, Sendable {
    /// Its number in one generated package (1-based; 0 is the original); not stable across edits.
    public var id: Int
    /// The file, relative to `Sources/` (`HealthCore/Fasting.swift`).
    public var file: String
    /// The line of the mutated code in that file.
    public var line: Int
    /// The enclosing declaration (`FastingAccumulator.add(_:onDay:)`).
    public var function: String
    /// What kind of change.
    public var kind: MutationKind
    /// The code changed (`<`, `7`, `guard`).
    public var original: String
    /// What it became (`<=`, `8`, `removed`).
    public var replacement: String
    /// Its index among the mutants of the same file, function, original and replacement, in source order.
    public var occurrence: Int

    public init(
        id: Int, file: String, line: Int, function: String, kind: MutationKind, original: String, replacement: String, occurrence: Int
    ) {
        self.id = id
        self.file = file
        self.line = line
        self.function = function
        self.kind = kind
        self.original = original
        self.replacement = replacement
        self.occurrence = occurrence
    }

    /// The identity that survives edits elsewhere: `HealthCore/Fasting.swift FastingAccumulator.add(_:onDay:) <= -> < #0`.
    public var key: String { "\(file) \(function) \(original) -> \(replacement) #\(occurrence)" }

    /// `file:line` and the change, as a survivor is listed.
    public var description: String { "\(file):\(line) \(function): \(original) -> \(replacement)  [\(key)]" }
}
