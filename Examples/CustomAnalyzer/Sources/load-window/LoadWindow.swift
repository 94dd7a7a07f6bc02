import SimHarnessKit
import WindowFasting

@main struct LoadWindow {
    static func main() async { await SimHarness.main(fasting: WindowFastingAnalyzer.self) }
}
