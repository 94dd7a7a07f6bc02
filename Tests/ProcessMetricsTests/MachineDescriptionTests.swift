import Testing
@_spi(Tooling) import ProcessMetrics

@Suite struct MachineDescriptionTests {
    @Test func takesTheFirstModelNameFromCpuinfo() {
        // Given two processors in /proc/cpuinfo
        let cpuinfo = """
            processor\t: 0
            vendor_id\t: GenuineIntel
            model name\t: Intel(R) Xeon(R) CPU @ 2.20GHz
            processor\t: 1
            model name\t: Other CPU
            """

        // When / Then
        #expect(MachineDescription.processorModel(cpuinfo: cpuinfo) == "Intel(R) Xeon(R) CPU @ 2.20GHz")
    }

    @Test func cpuinfoWithoutModelNameGivesNil() {
        #expect(MachineDescription.processorModel(cpuinfo: "processor\t: 0\nfeatures\t: fp asimd\n") == nil)
    }

    @Test func describesThisMachine() {
        // Given / When
        let sut = MachineDescription.current()

        // Then
        #expect(sut.logicalCores >= 1)
        #expect(sut.memoryBytes > 0)
        #expect(!sut.operatingSystem.isEmpty)
        #expect(!sut.architecture.isEmpty)
        #expect(sut.allocator == AllocationBackend.current)
    }

    @Test func summaryNamesEveryField() {
        // Given a described machine with 2 GiB
        let sut = MachineDescription(
            processor: "Test CPU", logicalCores: 2, memoryBytes: 2 << 30, operatingSystem: "Linux 6.1.0",
            architecture: "x86_64", allocator: .jemalloc
        )

        // When / Then
        #expect(sut.summary == "Test CPU, 2 cores, 2.0 GiB, Linux 6.1.0 x86_64, jemalloc")
    }
}
