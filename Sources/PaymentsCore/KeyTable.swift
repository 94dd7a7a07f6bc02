/// A map from one user's interned ids or keys (`UInt32`) to values, for the processor's per-user
/// state: open addressing with linear probing and a multiplicative hash (no SipHash per lookup),
/// and a stamp per slot, so that emptying it for the next user is O(1) and keeps its memory.
public struct KeyTable<Value: Sendable>: Sendable {
    @usableFromInline var keys: [UInt32]
    @usableFromInline var values: [Value?]
    /// A slot is occupied when its stamp is `epoch`.
    @usableFromInline var stamps: [UInt32]
    @usableFromInline var epoch: UInt32 = 1
    @usableFromInline var mask: Int
    /// Occupied slots.
    @usableFromInline var count = 0

    /// An empty table with room for about `capacity` keys before it grows.
    public init(capacity: Int = 48) {
        var slots = 16
        while slots * 3 < capacity * 4 { slots *= 2 }
        keys = Array(repeating: 0, count: slots)
        values = Array(repeating: nil, count: slots)
        stamps = Array(repeating: 0, count: slots)
        mask = slots - 1
    }

    /// The slot of `key`: where it is, or the empty slot where it would go.
    @inlinable func slot(of key: UInt32) -> (index: Int, found: Bool) {
        var index = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        while true {
            if stamps[index] != epoch { return (index, false) }
            if keys[index] == key { return (index, true) }
            index = (index + 1) & mask
        }
    }

    /// The value of `key`, nil when it has none.
    @inlinable public subscript(key: UInt32) -> Value? {
        let (index, found) = slot(of: key)
        return found ? values[index] : nil
    }

    /// Sets the value of `key`.
    @inlinable public mutating func set(_ key: UInt32, to value: Value) {
        var (index, found) = slot(of: key)
        if !found {
            if (count + 1) * 4 > (mask + 1) * 3 {
                grow()
                index = slot(of: key).index
            }
            keys[index] = key
            stamps[index] = epoch
            count += 1
        }
        values[index] = value
    }

    /// Changes the value of `key` in place, when it has one.
    @inlinable public mutating func modify(_ key: UInt32, _ change: (inout Value) -> Void) {
        let (index, found) = slot(of: key)
        guard found else { return }
        change(&values[index]!)
    }

    /// Forgets every key, keeping the memory.
    public mutating func removeAll() {
        count = 0
        if epoch == .max {
            for i in stamps.indices { stamps[i] = 0 }
            epoch = 1
        } else {
            epoch += 1
        }
    }

    /// Twice the slots, every key moved to its new place.
    @usableFromInline mutating func grow() {
        let old = (keys, values, stamps, epoch)
        let slots = 2 * (mask + 1)
        keys = Array(repeating: 0, count: slots)
        values = Array(repeating: nil, count: slots)
        stamps = Array(repeating: 0, count: slots)
        mask = slots - 1
        epoch = 1
        count = 0
        for i in old.0.indices where old.2[i] == old.3 { set(old.0[i], to: old.1[i]!) }
    }
}
