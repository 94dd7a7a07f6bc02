/// A memory regression added on purpose around each run of a workload, to show that the performance
/// gate catches it. Chosen with `SIMHARNESS_INJECT_REGRESSION` like `InjectedRegression`: `memory:N`
/// or `bytes:N`; `none` otherwise. Kept apart from `InjectedRegression` so that the workloads' inner
/// loops, whose instructions `scripts/instruction-gate.sh` counts, stay as they are.
@_spi(Tooling) public enum InjectedMemory: Sendable, Equatable {
    case none
    /// `N` more bytes held, every page written, through each run: more peak memory (resident and heap).
    /// The perf gate sizes it to 10 % of a test's peak resident memory.
    case held(bytes: Int)
    /// `N` more bytes requested in one allocation at the start of each run and freed at once, never
    /// written: more allocated bytes and one more allocation, no more resident memory (a buffer
    /// reserved far too large).
    case requested(bytes: Int)

    /// The memory regression named by `SIMHARNESS_INJECT_REGRESSION`.
    @_spi(Tooling) public static func fromEnvironment(_ environment: [String: String]) -> InjectedMemory {
        switch environment["SIMHARNESS_INJECT_REGRESSION"] {
        case let text? where text.hasPrefix("memory:"): Int(text.dropFirst(7)).map { .held(bytes: max(0, $0)) } ?? .none
        case let text? where text.hasPrefix("bytes:"): Int(text.dropFirst(6)).map { .requested(bytes: max(0, $0)) } ?? .none
        default: .none
        }
    }

    /// Runs `body`, one run of a workload, with the memory this regression holds or requests.
    @inline(never) @_spi(Tooling) public func around<T>(_ body: () throws -> T) rethrows -> T {
        switch self {
        case .held(let bytes) where bytes > 0:
            let block = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes, alignment: 16)
            defer { block.deallocate() }
            block.initializeMemory(as: UInt8.self, repeating: 1)  // every page resident
            let result = try body()
            precondition(block[bytes / 2] == 1)  // keeps the block alive and written through the run
            return result
        case .requested(let bytes) where bytes > 0:
            let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
            block.deallocate()
            return try body()
        default:
            return try body()
        }
    }
}
