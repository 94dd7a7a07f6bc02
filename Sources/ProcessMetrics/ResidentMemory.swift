#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The resident set of this process: on Linux as `/proc/self/status` reports it, on Darwin as the
/// Mach task's basic information (`task_info`, `MACH_TASK_BASIC_INFO`) reports it.
@_spi(Tooling) public struct ResidentMemory: Hashable, Sendable, Codable {
    /// `VmRSS` (Darwin: `resident_size`): resident bytes now.
    @_spi(Tooling) public var currentBytes: Int
    /// `VmHWM` (Darwin: `resident_size_max`): the high-water mark of the resident bytes since start or,
    /// on Linux, since `resetPeak()`.
    @_spi(Tooling) public var peakBytes: Int

    /// A reading of all its parts.
    package init(currentBytes: Int, peakBytes: Int) {
        self.currentBytes = currentBytes
        self.peakBytes = peakBytes
    }

    /// Reads `/proc/self/status` on Linux, `task_info` on Darwin; `nil` where neither answers.
    @_spi(Tooling) public static func current() -> ResidentMemory? {
        #if os(Linux)
        guard let text = readSmallFile("/proc/self/status") else { return nil }
        return parse(status: text)
        #elseif canImport(Darwin)
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let status = withUnsafeMutablePointer(to: &info) {
            $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        guard status == KERN_SUCCESS else { return nil }
        return ResidentMemory(currentBytes: Int(info.resident_size), peakBytes: Int(info.resident_size_max))
        #else
        return nil
        #endif
    }

    /// Extracts `VmRSS` and `VmHWM` (in kB) from the text of a `/proc/<pid>/status` file.
    package static func parse(status text: String) -> ResidentMemory? {
        var current: Int?
        var peak: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { current = kilobytes(line) }
            if line.hasPrefix("VmHWM:") { peak = kilobytes(line) }
        }
        guard let current, let peak else { return nil }
        return ResidentMemory(currentBytes: current * 1024, peakBytes: peak * 1024)
    }

    /// Resets the high-water mark to the current resident size (`echo 5 > /proc/self/clear_refs`,
    /// Linux 4.0+), so that the next `peakBytes` covers only what runs after this call.
    /// Returns false when the kernel refuses it, and always off Linux (Darwin has no such reset);
    /// `peakBytes` then keeps counting from process start.
    @discardableResult
    @_spi(Tooling) public static func resetPeak() -> Bool {
        #if os(Linux)
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
        #else
        return false
        #endif
    }

    private static func kilobytes(_ line: Substring) -> Int? {
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    }
}

/// The contents of a small text file such as those under `/proc`, or `nil` if it cannot be read.
func readSmallFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { return nil }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}
