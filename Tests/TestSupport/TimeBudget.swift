import Testing

/// How much slower the tests run than in a plain debug build: 1, or 4 in a build made with
/// `-D SANITIZED_TESTS` (`scripts/sanitizers.sh`: ThreadSanitizer's instrumentation, beside CI's other lanes).
public enum TimeBudget {
    #if SANITIZED_TESTS
    public static let slowdown = 4
    #else
    public static let slowdown = 1
    #endif
}

extension Trait where Self == TimeLimitTrait {
    /// A suite's time limit: `minutes` in a plain debug build, scaled by ``TimeBudget/slowdown``.
    public static func budget(minutes: Int) -> Self {
        .timeLimit(.minutes(minutes * TimeBudget.slowdown))
    }
}
