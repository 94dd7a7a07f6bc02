/// How both `simulate` paths (SimHarness's own service and a user's) write a seed or a trace hash in
/// their summaries and reproduce lines: `0x` and lowercase hex digits.
func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
