@_spi(Tooling) import PaymentService
import PaymentsCore

extension World {
    /// What the scheduler runs.
    enum Event {
        case submit(Int)
        case clientTimeout(Int, generation: Int)
        case replay(Int)
        case service(ServiceInput, incarnation: Int)
        case gateway(GatewayCall, incarnation: Int)
        case reconcile(ServiceRequest, incarnation: Int)
        case reply(client: Int, payment: UInt32, PaymentOutcome)
        case restart
    }

    /// Schedules `event` at `time`, after the events of earlier time and in a seeded order among
    /// those of the same time; returns its slot, for `cancel`.
    @discardableResult
    func schedule(_ event: Event, at time: Int64) -> Int {
        events.add(event, at: time, tie: random.next() >> 44)
    }

    /// Runs `event` again when the service's stall ends; a timeout keeps its slot up to date, so an
    /// answer can still cancel it.
    func postpone(_ event: Event) {
        let slot = schedule(event, at: live.pausedUntil)
        if case .service(.timeout(let payment, let attempt), _) = event { attempts[payment, attempt].timeoutSlot = slot }
    }

    /// Drops the event waiting in `slot`; its slot is freed when its time comes.
    func cancel(_ slot: Int?) {
        events.cancel(slot)
    }
}

/// The world's scheduler and its virtual clock: each entry is ordered by the event's time
/// (milliseconds from `start`) above 20 random bits drawn from the seed, which order events of
/// equal time; the event itself waits in `pending[slot]`.
struct EventSchedule {
    private var queue = EventQueue(farAhead: 500 << 20)
    private var pending: [World.Event?] = []
    private var freeSlots: [Int] = []
    /// The time of the event being handled.
    private(set) var now: Int64
    /// The time the world started at.
    let start: Int64

    init(start: Int64) {
        self.start = start
        now = start
    }

    /// Adds `event` at `time`, ordered among those of the same time by `tie` (20 bits); returns its slot.
    mutating func add(_ event: World.Event, at time: Int64, tie: UInt64) -> Int {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            pending[slot] = event
        } else {
            slot = pending.count
            pending.append(event)
        }
        queue.insert(EventQueue.Entry(order: UInt64(time - start) << 20 | tie, slot: slot), now: UInt64(now - start) << 20)
        return slot
    }

    /// Drops the event waiting in `slot`, if any.
    mutating func cancel(_ slot: Int?) {
        if let slot { pending[slot] = nil }
    }

    /// The next event that was not cancelled, with the clock moved to its time; nil when none is left.
    mutating func next() -> World.Event? {
        while let next = queue.popMin() {
            now = start + Int64(next.order >> 20)
            freeSlots.append(next.slot)
            if let event = pending[next.slot] {
                pending[next.slot] = nil
                return event
            }
        }
        return nil
    }
}
