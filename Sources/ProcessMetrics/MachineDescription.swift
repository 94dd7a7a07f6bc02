#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a measurement ran on, stored with baselines so that a reader can tell machines apart.
@_spi(Tooling) public struct MachineDescription: Hashable, Sendable, Codable {
    /// The processor's model name (`model name` in `/proc/cpuinfo`; Darwin: `machdep.cpu.brand_string`), or `unknown`.
    @_spi(Tooling) public var processor: String
    /// Online logical processors.
    @_spi(Tooling) public var logicalCores: Int
    /// Physical memory in bytes.
    @_spi(Tooling) public var memoryBytes: Int
    /// Kernel name and release, e.g. `Linux 6.1.0`.
    @_spi(Tooling) public var operatingSystem: String
    /// e.g. `x86_64`.
    @_spi(Tooling) public var architecture: String
    /// The allocation-statistics backend of this build.
    @_spi(Tooling) public var allocator: AllocationBackend

    /// A description of all its parts (as read from a file).
    @_spi(Tooling) public init(
        processor: String, logicalCores: Int, memoryBytes: Int, operatingSystem: String, architecture: String,
        allocator: AllocationBackend
    ) {
        self.processor = processor
        self.logicalCores = logicalCores
        self.memoryBytes = memoryBytes
        self.operatingSystem = operatingSystem
        self.architecture = architecture
        self.allocator = allocator
    }

    /// This machine.
    @_spi(Tooling) public static func current() -> MachineDescription {
        var names = utsname()
        uname(&names)
        #if os(Linux)
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        let processor = readSmallFile("/proc/cpuinfo").flatMap(processorModel(cpuinfo:))
        let memoryBytes = pages * pageSize
        #elseif canImport(Darwin)
        let processor = systemControl(string: "machdep.cpu.brand_string")
        let memoryBytes = systemControl(integer: "hw.memsize") ?? 0
        #else
        let processor: String? = nil
        let memoryBytes = 0
        #endif
        return MachineDescription(
            processor: processor ?? "unknown",
            logicalCores: sysconf(Int32(_SC_NPROCESSORS_ONLN)),
            memoryBytes: memoryBytes,
            operatingSystem: "\(field(&names.sysname)) \(field(&names.release))",
            architecture: field(&names.machine),
            allocator: .current
        )
    }

    /// The first `model name` in the text of `/proc/cpuinfo`.
    package static func processorModel(cpuinfo text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingSpaces()
        }
        return nil
    }

    /// One line for people, e.g. `Intel Xeon, 2 cores, 23.4 GiB, Linux 6.1.0 x86_64, malloc-interposer`.
    @_spi(Tooling) public var summary: String {
        let gib = Double(memoryBytes) / 1_073_741_824
        let memory = (gib * 10).rounded() / 10
        return "\(processor), \(logicalCores) cores, \(memory) GiB, \(operatingSystem) \(architecture), \(allocator.rawValue)"
    }

    #if canImport(Darwin)
    /// A string `sysctl` value by name, e.g. `machdep.cpu.brand_string`.
    private static func systemControl(string name: String) -> String? {
        var size = 0
        guard sysctlbyname(name, nil, &size, nil, 0) == 0, size > 0 else { return nil }
        var bytes = [CChar](repeating: 0, count: size)
        guard sysctlbyname(name, &bytes, &size, nil, 0) == 0 else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A 64-bit integer `sysctl` value by name, e.g. `hw.memsize`.
    private static func systemControl(integer name: String) -> Int? {
        var value: Int64 = 0
        var size = MemoryLayout<Int64>.size
        return sysctlbyname(name, &value, &size, nil, 0) == 0 ? Int(value) : nil
    }
    #endif

    private static func field<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
