/// An intermittent-fasting protocol and its eating-window limit (SPEC §1).
public enum FastingProtocol: UInt8, CaseIterable, Sendable {
    /// `16:8`: an eating window of at most 8 hours.
    case sixteenEight
    /// `18:6`: an eating window of at most 6 hours.
    case eighteenSix
    /// `20:4`: an eating window of at most 4 hours.
    case twentyFour
    /// `omad`, one meal a day: an eating window of at most 1 hour.
    case omad
    /// `none`: no protocol; the user's days are not evaluated.
    case none

    /// The spelling used in dataset files.
    public var name: String { spelling.description }

    /// The spelling used in dataset files, as a literal.
    @inlinable package var spelling: StaticString {
        switch self {
        case .sixteenEight: "16:8"
        case .eighteenSix: "18:6"
        case .twentyFour: "20:4"
        case .omad: "omad"
        case .none: "none"
        }
    }

    /// The protocol spelled `name` in dataset files, nil for another text.
    @usableFromInline package init?(name: some StringProtocol) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }


    /// The longest compliant eating window in seconds, or `nil` for `none` (not evaluated).
    @inlinable public var windowLimitSeconds: Int64? {
        switch self {
        case .sixteenEight: 8 * 3600
        case .eighteenSix: 6 * 3600
        case .twentyFour: 4 * 3600
        case .omad: 3600
        case .none: nil
        }
    }
}
