// A planted out-of-bounds read for `scripts/sanitizers.sh selftest`: one element past a heap block.
// Built with `swiftc -sanitize=address`, it must make AddressSanitizer report and fail; if it does
// not, the sanitizer step of CI would pass over real overflows too.
let block = UnsafeMutablePointer<Int>.allocate(capacity: 4)
block.initialize(repeating: 7, count: 4)
let index = 3 + CommandLine.arguments.count  // 4: one past the end, unknown to the optimizer
print("planted overflow: \(block[index])")
block.deallocate()
