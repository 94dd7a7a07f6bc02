@_spi(Tooling) import SimulationCore
@_spi(Tooling) import PaymentService
import PlantedFlaws
import PaymentsCore
import SimulatedDisk

/// The service as the world runs it: the live incarnation, if one is up, and its clock's stall.
struct LiveService {
    /// nil while the service is down (crashed, not restarted yet).
    var service: PaymentService<ObservedStore, SplitMix64>?
    /// Counts the crashes: an event meant for an earlier incarnation is dropped.
    var incarnation = 0
    /// Inputs wait until then while the service's clock stalls.
    var pausedUntil: Int64 = 0
}

extension World {
    /// Makes `store` the service's, with the faults its transactions meet and the planted flaws.
    func attach(_ sound: any DurablePaymentStore) {
        let store = plants.store(sound)
        self.store = store
        observed?.observe(store, served: plants.served(store))
        store.failpoint = { [unowned self] write in
            if let disk = self.host?.disk, self.report.crashes < Self.maximumCrashes { self.armDisk(disk) }
            guard self.inject(.storage) else { return }
            throw StoreFailure("injected: the \(write.rawValue) transaction failed")
        }
    }

    /// Hands `input` to the live service, unless it is down, paused, or crashes right now.
    func deliver(_ input: ServiceInput, _ event: Event) {
        guard let service = live.service else { return }
        if now < live.pausedUntil {
            postpone(event)
            return
        }
        if report.crashes < Self.maximumCrashes, inject(.crash) {
            crash()
            return
        }
        if host != nil, report.crashes < Self.maximumCrashes, inject(.power) {
            crash(keptPermille: random.below(1001))
            return
        }
        if inject(.clock) {
            live.pausedUntil = now + Int64(300 + random.below(2_700))
            postpone(event)
            return
        }
        switch input {
        case .answer(let payment, let attempt, let response):
            if attempts[payment, attempt].decided == nil {
                attempts[payment, attempt].decided = response
                cancel(attempts[payment, attempt].timeoutSlot)  // the service would ignore it now
            }
        case .timeout(let payment, let attempt):
            if attempts[payment, attempt].decided == nil {
                attempts[payment, attempt].decided = attempts[payment, attempt].gatewayActed == true ? .lost : .timedOut
            }
        default: break
        }
        effects.removeAll(keepingCapacity: true)
        service.handle(input, now: now, effects: &effects)
        plants.rewrite(&effects)
        apply(effects)
        // A dead store (power lost at a sync, a failed sync or read) is never retried: restart.
        if let host, host.hasFailed, live.service != nil { crash(keptPermille: random.below(1001)) }
    }

    /// Carries out the service's effects: replies, its own steps, gateway calls and reconciliations.
    func apply(_ effects: [ServiceEffect]) {
        for effect in effects {
            switch effect {
            case .reply(let client, let payment, let outcome):
                if !dropped() { schedule(.reply(client: client, payment: payment, outcome), at: now + delay()) }
            case .schedule(let step, let delayMillis):
                schedule(.service(.step(step), incarnation: live.incarnation), at: now + delayMillis)
            case .send(let call):
                guard !attempts[call.request.payment.id, call.attempt].sent else {
                    return fail(.attemptSentTwice, "attempt \(call.attempt) of payment \(call.request.payment.id) went to the gateway twice",
                                payment: call.request.payment.id)
                }
                attempts[call.request.payment.id, call.attempt].sent = true
                schedule(.gateway(call, incarnation: live.incarnation), at: now + delay())
                attempts[call.request.payment.id, call.attempt].timeoutSlot =
                    schedule(.service(.timeout(payment: call.request.payment.id, attempt: call.attempt), incarnation: live.incarnation), at: call.deadline)
            case .reconcile(let request, let at):
                schedule(.reconcile(request, incarnation: live.incarnation), at: max(now, at))
            }
        }
    }

    /// The service crashes; on a simulated disk its machine goes down, keeping `keptPermille` of
    /// the unsynced writes (1000: a killed process).
    func crash(keptPermille: Int = 1000) {
        if history.isKept { remember(nil) }
        report.crashes += 1
        live.service = nil
        live.incarnation += 1
        if let unfinished = try? store.unfinished() { for record in unfinished { touchedUsers.insert(record.request.user) } }
        host?.goDown(keptPermille: keptPermille)
        schedule(.restart, at: now + Int64(50 + random.below(450)))
    }

    /// A new service recovers from what is durable (the machine first comes up, on a simulated disk).
    func restart() {
        if let host {
            if host.hasFailed && !host.disk.isDown { host.goDown(keptPermille: random.below(1001)) }  // it died recovering
            if host.disk.isDown {
                do { try host.comeUp() } catch {
                    schedule(.restart, at: now + 100)
                    return
                }
                attach(host.store)
                // A dead store could not say what was in progress when it died: the new one does.
                if let unfinished = try? store.unfinished() { for record in unfinished { touchedUsers.insert(record.request.user) } }
            }
        }
        let service = PaymentService(
            store: observed, configuration: plants.configuration(),
            random: SplitMix64(seed: configuration.seed &+ UInt64(live.incarnation) &* 0x9E37_79B9_7F4A_7C15))
        effects.removeAll(keepingCapacity: true)
        do {
            try service.recover(now: now, effects: &effects)
        } catch {
            schedule(.restart, at: now + 100)
            return
        }
        if live.incarnation > 0 || resumed { report.recoveries += 1 }
        live.service = service
        plants.rewrite(&effects)
        apply(effects)
    }
}
