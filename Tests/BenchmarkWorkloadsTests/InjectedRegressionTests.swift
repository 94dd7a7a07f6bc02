@_spi(Tooling) import BenchmarkWorkloads
@_spi(Tooling) import ProcessMetrics
import Testing

@Suite("Injected regressions: what SIMHARNESS_INJECT_REGRESSION adds to a workload")
struct InjectedRegressionTests {
    @Test(arguments: [
        (["SIMHARNESS_INJECT_REGRESSION": "allocation"], InjectedRegression.allocation),
        (["SIMHARNESS_INJECT_REGRESSION": "slowdown"], .slowdown),
        (["SIMHARNESS_INJECT_REGRESSION": "work:24"], .work(rounds: 24)),
        (["SIMHARNESS_INJECT_REGRESSION": "allocation-per-user"], .allocationPerUser),
        (["SIMHARNESS_INJECT_REGRESSION": "memory:4096"], .none),
        (["SIMHARNESS_INJECT_REGRESSION": "work:x"], .none),
        (["SIMHARNESS_INJECT_REGRESSION": "typo"], .none),
        ([:], .none),
    ])
    func readsTheEnvironment(environment: [String: String], expected: InjectedRegression) {
        #expect(InjectedRegression.fromEnvironment(environment) == expected)
    }

    @Test(arguments: [
        (["SIMHARNESS_INJECT_REGRESSION": "memory:4096"], InjectedMemory.held(bytes: 4096)),
        (["SIMHARNESS_INJECT_REGRESSION": "bytes:100"], .requested(bytes: 100)),
        (["SIMHARNESS_INJECT_REGRESSION": "memory:"], .none),
        (["SIMHARNESS_INJECT_REGRESSION": "allocation"], .none),
        ([:], .none),
    ])
    func readsTheMemoryRegression(environment: [String: String], expected: InjectedMemory) {
        #expect(InjectedMemory.fromEnvironment(environment) == expected)
    }

    @Test func noRegressionAddsNothing() {
        #expect(InjectedRegression.none.perEvent(42) == 0)
        #expect(InjectedRegression.none.perUser(42) == 0)
    }

    @Test func gradedWorkFallsOnEverySixteenthEvent() {
        let sut = InjectedRegression.work(rounds: 5)
        #expect(sut.perEvent(32) != 0)
        #expect(sut.perEvent(33) == 0)
    }

    @Test(.enabled(if: AllocationBackend.current.countsAllocations))
    func allocationRegressionAllocatesOncePerEvent() throws {
        // Given / When 10,000 events' worth of the injected allocation
        let sut = AllocationDelta.measure {
            var checksum: UInt64 = 0
            for event in 0..<10_000 { checksum &+= InjectedRegression.allocation.perEvent(event) }
            blackHole(checksum)
        }.delta

        // Then at least one allocation per event (other suites may allocate meanwhile)
        #expect(try #require(sut.allocations) >= 10_000)
    }

    @Test(arguments: [InjectedMemory.none, .held(bytes: 1 << 16), .requested(bytes: 1 << 16)])
    func injectedMemoryRunsTheBodyOnceAndReturnsItsResult(memory: InjectedMemory) {
        // Given
        var runs = 0

        // When
        let result = memory.around { runs += 1; return 42 }

        // Then
        #expect(result == 42)
        #expect(runs == 1)
    }
}
