// glibc only: the counter replaces glibc's malloc family (memalign, pvalloc… from its malloc.h).
#if os(Linux)
import CGlibcMalloc
import Foundation
import Testing
@_spi(Tooling) import ProcessMetrics

/// The package's malloc family (`CAllocationCounter`, the default backend): every C allocation
/// call behaves as glibc's and is counted, whichever thread makes it and whether or not that thread
/// still runs.
@Suite(.enabled(if: AllocationBackend.current == .mallocInterposer))
struct AllocationCounterTests {
    @Test func allocationsOfThreadsThatHaveEndedStayCounted() throws {
        // Given 32 threads that each allocate and free 1,000 blocks of 40 bytes and then end
        let threads = 32, blocks = 1_000
        let finished = DispatchSemaphore(value: 0)

        // When they have all run
        let sut = AllocationDelta.measure {
            for _ in 0..<threads {
                Thread {
                    for _ in 0..<blocks {
                        let block = malloc(40)
                        blackHole(block)
                        free(block)
                    }
                    finished.signal()
                }.start()
            }
            for _ in 0..<threads { finished.wait() }
        }.delta

        // Then all 32,000 calls and their bytes are in the totals (other suites may add theirs)
        let allocations = try #require(sut.allocations)
        let bytes = try #require(sut.allocatedBytes)
        #expect(allocations >= threads * blocks)
        #expect(bytes >= threads * blocks * 40)
    }

    @Test(arguments: [16, 64, 4096])
    func alignedAllocatorsHonourTheAlignment(alignment: Int) throws {
        // Given / When a block from each aligned allocator
        var fromPosix: UnsafeMutableRawPointer?
        let status = posix_memalign(&fromPosix, alignment, 100)
        let fromAligned = try #require(aligned_alloc(alignment, 100))
        let fromMemalign = try #require(memalign(alignment, 100))
        defer { free(fromPosix); free(fromAligned); free(fromMemalign) }

        // Then each starts on a multiple of the alignment
        #expect(status == 0)
        for block in [try #require(fromPosix), fromAligned, fromMemalign] {
            #expect(Int(bitPattern: block) % alignment == 0)
        }
    }

    @Test func badAlignmentsAreRefusedAsByGlibc() {
        // Given / When alignments that are no power of two (or, for posix_memalign, no multiple of a pointer)
        var block: UnsafeMutableRawPointer?
        let posixStatus = posix_memalign(&block, 4, 8)
        errno = 0
        let aligned = aligned_alloc(24, 8)
        let alignedError = errno

        // Then both are refused with EINVAL and nothing is allocated
        #expect(posixStatus == EINVAL)
        #expect(block == nil)
        #expect(aligned == nil)
        #expect(alignedError == EINVAL)
    }

    @Test func reallocKeepsTheContentsAndAZeroSizeFrees() throws {
        // Given a block holding 0, 1, 2, …, 15
        let block = try #require(malloc(16)).assumingMemoryBound(to: UInt8.self)
        for i in 0..<16 { block[i] = UInt8(i) }

        // When it grows to 1 MiB, and then is reallocated to size 0
        let grown = try #require(realloc(block, 1 << 20)).assumingMemoryBound(to: UInt8.self)
        let contents = (0..<16).map { grown[$0] }
        let freed = realloc(grown, 0)

        // Then the contents moved with it, and size 0 freed it
        #expect(contents == Array(0..<16))
        #expect(freed == nil)
    }

    @Test func callocGivesZeroedMemoryAndCountsItsBytes() throws {
        // Given / When 1,000 zeroed elements of 8 bytes
        let (zeroed, sut) = AllocationDelta.measure { calloc(1_000, 8) }
        let block = try #require(zeroed).assumingMemoryBound(to: UInt64.self)
        defer { free(block) }

        // Then every element is 0 and the 8,000 bytes are counted
        #expect((0..<1_000).allSatisfy { block[$0] == 0 })
        #expect(try #require(sut.allocatedBytes) >= 8_000)
    }

    @Test func aReallocatedBlockCountsOnceInThePeak() async {
        // Given / When an 8 MiB block reallocated four times, a page larger each time, alone in a
        // process of its own
        // Then the peak rise is the block's size, not the sum of its five sizes
        await #expect(processExitsWith: .success) {
            let size = 8 << 20
            let start = AllocationStatistics.current().bytesInUse ?? 0
            let peak = HeapHighWater.measure {
                var block = malloc(size)
                for step in 1...4 { block = realloc(block, size + step * 4096) }
                free(block)
            }.peakBytes ?? 0
            precondition(peak - start >= size && peak - start < size + (2 << 20), "peak rise \(peak - start)")
        }
    }
}
#endif
