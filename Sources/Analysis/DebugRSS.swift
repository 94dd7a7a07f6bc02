import Glibc
func debugRSS(_ label: String) {
    guard getenv("SIMHARNESS_DEBUG_RSS") != nil else { return }
    let f = fopen("/proc/self/status", "r")!
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, f) != nil {
        let s = String(cString: line)
        if s.hasPrefix("VmRSS") || s.hasPrefix("VmHWM") { print("\(label): \(s)", terminator: "") }
    }
}
