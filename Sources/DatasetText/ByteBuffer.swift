/// A growable byte buffer that row encoders write into directly, without a `String` per field.
/// It is owned by one task at a time (hence `@unchecked Sendable`): fill it, hand it on, reuse it.
public final class ByteBuffer: @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline package var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) @usableFromInline package var capacity: Int
    /// Bytes written so far.
    @exclusivity(unchecked) public var count: Int

    /// An empty buffer with room for `capacity` bytes (at least 64).
    public init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        storage = .allocate(capacity: self.capacity)
        count = 0
    }

    deinit { storage.deallocate() }

    /// The bytes written so far; valid until the next write.
    public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage, count: count) }

    /// Makes room for `extra` more bytes; the unchecked writes after it must stay within them.
    @inlinable public func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(to: count + extra) }
    }

    /// Forgets the content, keeping the memory.
    public func removeAll() { count = 0 }

    /// Appends bytes, growing as needed.
    @inlinable package func append(_ source: UnsafeBufferPointer<UInt8>) {
        reserve(source.count)
        if let base = source.baseAddress { (storage + count).update(from: base, count: source.count) }
        count &+= source.count
    }

    /// Appends the bytes of a string (for headers and rare values, not per row).
    public func append(_ text: String) {
        var copy = text
        copy.withUTF8 { append($0) }
    }

    @usableFromInline package func grow(to needed: Int) {
        var newCapacity = capacity
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: storage, count: count)
        storage.deallocate()
        storage = bigger
        capacity = newCapacity
    }
}
