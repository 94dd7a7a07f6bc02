import SimHarnessKit

await SimHarness.main()
