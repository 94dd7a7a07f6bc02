@_spi(Tooling) import SimulationCore

/// How both `simulate` paths (SimHarness's own service and a user's) write a seed or a trace hash in
/// their summaries and reproduce lines: `0x` and lowercase hex digits (`ReproduceLine.hex`).
func hex(_ value: UInt64) -> String { ReproduceLine.hex(value) }
