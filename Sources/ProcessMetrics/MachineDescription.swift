#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a measurement ran on, stored with baselines so that a reader can tell machines apart.
public struct MachineDescription: Hashable, Sendable, Codable {
    /// The processor's model name (`model name` in `/proc/cpuinfo`), or `unknown`.
    public var processor: String
    /// Online logical processors.
    public var logicalCores: Int
    /// Physical memory in bytes.
    public var memoryBytes: Int
    /// Kernel name and release, e.g. `Linux 6.1.0`.
    public var operatingSystem: String
    /// e.g. `x86_64`.
    public var architecture: String
    /// The allocation-statistics backend of this build.
    public var allocator: AllocationBackend

    /// A description of all its parts (as read from a file).
    public init(
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
    public static func current() -> MachineDescription {
        var names = utsname()
        uname(&names)
        let pages = sysconf(Int32(_SC_PHYS_PAGES))
        let pageSize = sysconf(Int32(_SC_PAGESIZE))
        return MachineDescription(
            processor: readSmallFile("/proc/cpuinfo").flatMap(processorModel(cpuinfo:)) ?? "unknown",
            logicalCores: sysconf(Int32(_SC_NPROCESSORS_ONLN)),
            memoryBytes: pages * pageSize,
            operatingSystem: "\(field(&names.sysname)) \(field(&names.release))",
            architecture: field(&names.machine),
            allocator: .current
        )
    }

    /// The first `model name` in the text of `/proc/cpuinfo`.
    public static func processorModel(cpuinfo text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingSpaces()
        }
        return nil
    }

    /// One line for people, e.g. `Intel Xeon, 2 cores, 23.4 GiB, Linux 6.1.0 x86_64, malloc-interposer`.
    public var summary: String {
        let gib = Double(memoryBytes) / 1_073_741_824
        let memory = (gib * 10).rounded() / 10
        return "\(processor), \(logicalCores) cores, \(memory) GiB, \(operatingSystem) \(architecture), \(allocator.rawValue)"
    }

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
