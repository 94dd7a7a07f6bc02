import Testing
import WorldExecutors

/// `WorldExecutors` stands on Swift 6.3's experimental executor SPI (`_createExecutors`, `ExecutorFactory`,
/// `MainExecutor`, `SchedulingExecutor`). A toolchain that changes its shape fails to compile the module;
/// one that keeps the shape but stops honouring it fails here.
@Suite("The experimental executor SPI the worlds stand on")
struct ExecutorSPIShapeTests {
    @Test("the process's default executor is the routing one, installed before main")
    func routingExecutorsAreInstalled() {
        // Given this test process, whose constructor installed the executors; When the runtime is asked
        // Then its default executor is WorldExecutors'
        #expect(ProcessExecutors.installed)
    }

    @Test("off a world, jobs run on the platform's executors: a task group and the main actor finish")
    func offAWorldJobsRunAsBefore() async {
        // Given the harness's own code; When it runs child tasks and hops to the main actor
        let sum = await withTaskGroup(of: Int.self) { group in
            for value in 1...4 { group.addTask { value } }
            return await group.reduce(0, +)
        }
        let onMain = await MainActor.run { MainActor.assertIsolated(); return true }
        // Then both finish, as without the routing executors
        #expect(sum == 10)
        #expect(onMain)
    }
}
