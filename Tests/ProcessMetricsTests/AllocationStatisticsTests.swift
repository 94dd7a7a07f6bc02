import Testing
@_spi(Tooling) import ProcessMetrics

/// The counters are process-wide and other suites run in parallel, so the comparisons of counts run
/// in a process of their own (an exit test), where nothing else allocates.
@Suite struct AllocationStatisticsTests {
    static let heavyCount = 20_000
    static let heavySize = 256

    /// Allocates and frees `heavyCount` blocks of `heavySize` bytes.
    static func allocationHeavy() {
        for _ in 0..<heavyCount {
            let block = UnsafeMutableRawPointer.allocate(byteCount: heavySize, alignment: 8)
            blackHole(block)
            block.deallocate()
        }
    }

    @Test(.enabled(if: AllocationBackend.current.countsAllocations))
    func allocationHeavyClosureCountsMoreAllocationsThanAnEmptyOne() async {
        // Given / When the same measurement around an empty and an allocation-heavy closure, alone in
        // a process of their own
        // Then every one of the 20,000 allocations is counted, and the empty closure shows fewer
        await #expect(processExitsWith: .success) {
            let empty = AllocationDelta.measure {}.delta
            let sut = AllocationDelta.measure { AllocationStatisticsTests.allocationHeavy() }.delta
            precondition((sut.allocations ?? 0) >= AllocationStatisticsTests.heavyCount, "heavy: \(String(describing: sut.allocations))")
            precondition((empty.allocations ?? .max) < AllocationStatisticsTests.heavyCount / 10, "empty: \(String(describing: empty.allocations))")
        }
    }

    @Test(.enabled(if: AllocationBackend.current == .mallocInterposer))
    func allocationHeavyClosureRequestsMoreBytesThanAnEmptyOne() async {
        // Given / When the same measurements, alone in a process of their own
        // Then at least 20,000 × 256 = 5,120,000 bytes were requested, and far fewer by the empty closure
        await #expect(processExitsWith: .success) {
            let empty = AllocationDelta.measure {}.delta
            let sut = AllocationDelta.measure { AllocationStatisticsTests.allocationHeavy() }.delta
            precondition((sut.allocatedBytes ?? 0) >= 5_120_000, "heavy: \(String(describing: sut.allocatedBytes))")
            precondition((empty.allocatedBytes ?? .max) < 512_000, "empty: \(String(describing: empty.allocatedBytes))")
        }
    }

    @Test(.enabled(if: !AllocationBackend.current.countsAllocations))
    func withoutACountingBackendCountsAreUnknown() {
        // Given / When
        let sut = AllocationDelta.measure { Self.allocationHeavy() }.delta

        // Then
        #expect(sut.allocations == nil)
        #expect(sut.allocatedBytes == nil)
    }

    @Test(.enabled(if: AllocationBackend.current == .jemalloc))
    func jemallocReportsActiveAndResidentPages() throws {
        // Given / When one snapshot (one jemalloc epoch)
        let sut = AllocationStatistics.current()

        // Then allocated ≤ active (whole pages) ≤ resident (active, metadata and dirty pages)
        let allocated = try #require(sut.bytesInUse)
        let active = try #require(sut.activeBytes)
        let resident = try #require(sut.residentBytes)
        #expect(allocated > 0)
        #expect(allocated <= active)
        #expect(active <= resident)
    }

    @Test func liveAllocationRaisesBytesInUse() throws {
        // Given / When a 64 MiB block is still alive at the end of the measured closure
        let (block, sut) = AllocationDelta.measure {
            UnsafeMutableRawPointer.allocate(byteCount: 64 << 20, alignment: 16)
        }
        defer { block.deallocate() }

        // Then bytes in use grew by most of it (other tests may free some memory meanwhile)
        let change = try #require(sut.bytesInUseChange)
        #expect(change >= 32 << 20)
    }

    @Test func deltaSubtractsEachKnownField() {
        // Given two snapshots, the earlier one with more bytes in use and no active-byte figure
        let earlier = AllocationStatistics(allocations: 4, allocatedBytes: 40, bytesInUse: 80)
        let later = AllocationStatistics(allocations: 10, allocatedBytes: 100, bytesInUse: 50, activeBytes: 7)

        // When
        let sut = later.delta(since: earlier)

        // Then 10 − 4, 100 − 40, 50 − 80
        #expect(sut == AllocationDelta(allocations: 6, allocatedBytes: 60, bytesInUseChange: -30))
    }

    @Test func deltaOfAFieldUnknownOnEitherSideIsUnknown() {
        // Given
        let earlier = AllocationStatistics(allocations: nil, allocatedBytes: 40)
        let later = AllocationStatistics(allocations: 3, allocatedBytes: nil)

        // When / Then
        #expect(later.delta(since: earlier) == AllocationDelta())
    }

    @Test(arguments: [
        (AllocationBackend.jemalloc, true), (.mallocInterposer, true), (.libc, false),
    ])
    func onlyTheLibcBackendCannotCount(backend: AllocationBackend, counts: Bool) {
        #expect(backend.countsAllocations == counts)
    }
}
