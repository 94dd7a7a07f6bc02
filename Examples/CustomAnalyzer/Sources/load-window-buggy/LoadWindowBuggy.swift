import SimHarnessKit
import WindowFasting

@main struct LoadWindowBuggy {
    static func main() async { await SimHarness.main(fasting: OvernightBugAnalyzer.self) }
}
