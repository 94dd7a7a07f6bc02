import Glibc
nonisolated(unsafe) var phaseStart = ContinuousClock.now
func debugRSS(_ label: String) {
    guard getenv("SIMHARNESS_DEBUG_RSS") != nil else { return }
    let f = fopen("/proc/self/status", "r")!
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    var out = label + " +\(ContinuousClock.now - phaseStart)"
    phaseStart = .now
    while fgets(&line, 256, f) != nil {
        let s = String(cString: line)
        if s.hasPrefix("VmHWM") { out += " " + s.dropLast() }
    }
    var r = rusage()
    getrusage(RUSAGE_SELF.rawValue, &r)
    out += " user \(r.ru_utime.tv_sec).\(r.ru_utime.tv_usec / 1000) sys \(r.ru_stime.tv_sec).\(r.ru_stime.tv_usec / 1000)"
    print(out)
}
