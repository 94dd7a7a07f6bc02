import Foundation

/// A value behind a lock: `NSLock` (a pthread mutex, which ThreadSanitizer follows; it reported the futex of
/// `Synchronization.Mutex` here as a race between two `withLock`s).
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
