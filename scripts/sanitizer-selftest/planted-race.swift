// A planted data race for `scripts/sanitizers.sh selftest`: a thread and the main thread increment one
// counter with no synchronization between them. ThreadSanitizer judges by happens-before, not by
// timing, so it reports this in every run. Built with `swiftc -sanitize=thread`, it must make TSan
// report and fail; if it does not, the sanitizer step of CI would pass over real races too.
#if canImport(Glibc)
import Glibc
#endif

final class Counter: @unchecked Sendable {
    var value = 0
}

let counter = Counter()
var thread = pthread_t()
pthread_create(&thread, nil, { _ in
    for _ in 0..<1_000 { counter.value += 1 }
    return nil
}, nil)
for _ in 0..<1_000 { counter.value += 1 }
pthread_join(thread, nil)
print("planted race: \(counter.value)")
