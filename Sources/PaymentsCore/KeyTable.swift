/// A map from one user's interned ids or keys (`UInt32`) to values, for the processor's per-user
/// state: open addressing with linear probing and a multiplicative hash (no SipHash per lookup),
/// and a stamp per slot, so that emptying it for the next user is O(1) and keeps its memory.
@usableFromInline package struct KeyTable<Value: Sendable>: Sendable {
    @usableFromInline struct Slot: Sendable {
        @usableFromInline var key: UInt32
        /// The slot is occupied when its stamp is the table's `epoch`.
        @usableFromInline var stamp: UInt32
        @usableFromInline var value: Value?

        @usableFromInline init(key: UInt32, stamp: UInt32, value: Value?) {
            self.key = key
            self.stamp = stamp
            self.value = value
        }
    }

    @usableFromInline var slots: [Slot]
    @usableFromInline var epoch: UInt32 = 1
    @usableFromInline var mask: Int
    /// Occupied slots.
    @usableFromInline var count = 0

    /// An empty table with room for about `capacity` keys before it grows.
    @usableFromInline package init(capacity: Int = 48) {
        var size = 16
        while size * 3 < capacity * 4 { size *= 2 }
        slots = Array(repeating: Slot(key: 0, stamp: 0, value: nil), count: size)
        mask = size - 1
    }

    /// The slot of `key`: where it is, or the empty slot where it would go.
    @inlinable func slot(of key: UInt32) -> (index: Int, found: Bool) {
        var index = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        while true {
            let slot = slots[index]
            if slot.stamp != epoch { return (index, false) }
            if slot.key == key { return (index, true) }
            index = (index + 1) & mask
        }
    }

    /// The value of `key`, nil when it has none.
    @inlinable package subscript(key: UInt32) -> Value? {
        let (index, found) = slot(of: key)
        return found ? slots[index].value : nil
    }

    /// Sets the value of `key`.
    @inlinable package mutating func set(_ key: UInt32, to value: Value) {
        var (index, found) = slot(of: key)
        if !found, (count + 1) * 4 > (mask + 1) * 3 {
            grow()
            index = slot(of: key).index
        }
        if !found { count += 1 }
        slots[index] = Slot(key: key, stamp: epoch, value: value)
    }

    /// Changes the value of `key` in place, when it has one.
    @inlinable package mutating func modify(_ key: UInt32, _ change: (inout Value) -> Void) {
        let (index, found) = slot(of: key)
        guard found else { return }
        change(&slots[index].value!)
    }

    /// Forgets every key, keeping the memory.
    @usableFromInline package mutating func removeAll() {
        count = 0
        if epoch == .max {
            for i in slots.indices { slots[i].stamp = 0 }
            epoch = 1
        } else {
            epoch += 1
        }
    }

    /// Twice the slots, every key moved to its new place.
    @usableFromInline mutating func grow() {
        let old = slots, oldEpoch = epoch
        slots = Array(repeating: Slot(key: 0, stamp: 0, value: nil), count: 2 * old.count)
        mask = slots.count - 1
        epoch = 1
        count = 0
        for slot in old where slot.stamp == oldEpoch { set(slot.key, to: slot.value!) }
    }
}
