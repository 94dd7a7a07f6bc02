#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Synchronization

/// Turns the SIGBUS that a memory-mapped input raises when the file shrinks under it (another
/// process truncated it while it was being read) into a clear refusal: the message names the
/// file and the process exits with status 2, as for any refused input, instead of dying on the
/// signal. `MappedFile` registers each mapping while it exists; a SIGBUS outside every registered
/// mapping keeps its default action.
enum TruncationGuard {
    /// A registered mapping: its address range and the message to print, as C strings made ahead
    /// (a signal handler may not allocate).
    private struct Slot {
        var start: UInt = 0
        var end: UInt = 0
        var message: UnsafeMutablePointer<CChar>?
        var length = 0
    }

    private static let capacity = 64
    /// Read by the handler without a lock: slots are written whole under `lock` before a mapping is
    /// read, and cleared only after it is unmapped.
    nonisolated(unsafe) private static let slots = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
    private static let lock = Mutex(false)

    /// Registers `range` of the file at `path`; returns the slot to pass to `unregister`, or `nil`
    /// when every slot is taken (the mapping then goes unguarded).
    static func register(_ range: UnsafeBufferPointer<UInt8>, path: String) -> Int? {
        guard let base = range.baseAddress else { return nil }
        let text = "simharness: error: \(path): the file was truncated while it was being read\n"
        return lock.withLock { installed -> Int? in
            if !installed {
                slots.initialize(repeating: Slot(), count: capacity)
                installHandler()
                installed = true
            }
            guard let free = (0..<capacity).first(where: { slots[$0].end == 0 }) else { return nil }
            let message = strdup(text)
            slots[free] = Slot(start: UInt(bitPattern: base), end: UInt(bitPattern: base + range.count), message: message, length: strlen(text))
            return free
        }
    }

    /// Forgets a mapping (after it was unmapped).
    static func unregister(_ slot: Int) {
        lock.withLock { _ in
            free(slots[slot].message)
            slots[slot] = Slot()
        }
    }

    private static func installHandler() {
        var action = sigaction()
        action.sa_flags = SA_SIGINFO
        let handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = { signal, info, _ in
            #if canImport(Glibc)
            let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
            #else
            let address = UInt(bitPattern: info?.pointee.si_addr)
            #endif
            for i in 0..<TruncationGuard.capacity {
                let slot = TruncationGuard.slots[i]
                if slot.start <= address, address < slot.end, let message = slot.message {
                    _ = write(2, message, slot.length)
                    _exit(2)
                }
            }
            // Not ours: the default action (the process stops on SIGBUS).
            #if canImport(Glibc)
            Glibc.signal(signal, SIG_DFL)
            #else
            Darwin.signal(signal, SIG_DFL)
            #endif
            raise(signal)
        }
        #if canImport(Glibc)
        action.__sigaction_handler.sa_sigaction = handler
        #else
        action.__sigaction_u.__sa_sigaction = handler
        #endif
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, nil)
    }
}
