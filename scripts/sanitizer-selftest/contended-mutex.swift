// Not a defect: a Synchronization.Mutex<Int> incremented under its lock by two threads. Built with
// `swiftc -sanitize=thread` on Linux (Swift 6.3), ThreadSanitizer reports a race on the value when the
// lock is contended, because the contended path (futex calls in the uninstrumented
// libswiftSynchronization.so) is invisible to it. `scripts/sanitizers.sh selftest` shows that the
// suppressions in scripts/tsan-suppressions.txt are needed for this and only this: it runs this
// program with a suppression for `contendedIncrement` and expects silence.
import Dispatch
import Synchronization

let counter = Mutex(0)

func contendedIncrement() {
    for _ in 0..<100_000 { counter.withLock { $0 += 1 } }
}

DispatchQueue.concurrentPerform(iterations: 2) { _ in contendedIncrement() }
print("contended mutex: \(counter.withLock { $0 })")
