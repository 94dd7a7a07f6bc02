@_spi(Tooling) import PaymentService
@_spi(Tooling) import SimulationCore
import PaymentsCore

extension World {
    /// The events of one watched payment, kept for a violation's history (none kept, the fast way,
    /// when no payment is watched; see `PaymentWorldSimulator.run`).
    struct History {
        struct Entry {
            var step: Int
            var time: Int64
            /// nil: the service crashed.
            var event: Event?
        }

        /// The watched payment, nil for none.
        let watched: UInt32?
        var entries: [Entry] = []

        /// Whether events are kept.
        var isKept: Bool { watched != nil }
    }

    /// Keeps `event` (nil: a crash) when it concerns the watched payment or the whole service.
    func remember(_ event: Event?) {
        switch event {
        case .service(_, let incarnation)?, .reconcile(_, let incarnation)?:
            guard incarnation < 0 || incarnation == live.incarnation else { return }  // meant for a service that crashed
        default: break
        }
        let watched = history.watched
        guard event.map({ Self.payment(of: $0, submissions) ?? watched }) ?? watched == watched else { return }
        history.entries.append(History.Entry(step: report.steps, time: now, event: event))
    }

    func historyLines() -> [String] {
        history.entries.suffix(24).map { "step \($0.step) at \($0.time - start) ms: " + ($0.event.map(Self.describe) ?? "the service crashes") }
    }

    static func payment(of event: Event, _ submissions: [Submission]) -> UInt32? {
        switch event {
        case .submit(let index), .clientTimeout(let index, _), .replay(let index): submissions[index].request.payment.id
        case .service(let input, _):
            switch input {
            case .request(let request, _): request.payment.id
            case .step(.admit(let request)): request.payment.id
            case .step(.writeIntent(let payment, _)), .step(.call(let payment, _)), .step(.settle(let payment, _)),
                 .answer(let payment, _, _), .timeout(let payment, _), .reconciled(let payment, _): payment
            }
        case .gateway(let call, _): call.request.payment.id
        case .reconcile(let request, _): request.payment.id
        case .reply(_, let payment, _): payment
        case .restart: nil
        }
    }

    static func describe(_ event: Event) -> String {
        switch event {
        case .submit(let index): "client sends request \(index)"
        case .clientTimeout(let index, _): "client times out on request \(index) and retries"
        case .replay(let index): "client replays request \(index)"
        case .service(let input, _):
            switch input {
            case .request(_, let client): "service receives the request (client \(client))"
            case .step(.admit): "service admits"
            case .step(.writeIntent(_, let attempt)): "service writes the intent of attempt \(attempt)"
            case .step(.call(_, let attempt)): "service sends attempt \(attempt)"
            case .step(.settle(_, let outcome)): "service settles: \(describe(outcome))"
            case .answer(_, let attempt, let response): "service gets answer \(response.token) to attempt \(attempt)"
            case .timeout(_, let attempt): "attempt \(attempt) times out"
            case .reconciled(_, let acted): "gateway says it \(acted ? "acted" : "did not act")"
            }
        case .gateway(let call, _): "gateway receives attempt \(call.attempt) (key \(call.key))"
        case .reconcile: "service asks the gateway whether it acted"
        case .reply(let client, _, let outcome): "client \(client) gets \(describe(outcome))"
        case .restart: "service restarts"
        }
    }

    static func describe(_ outcome: PaymentOutcome) -> String {
        outcome.state.rawValue + (outcome.reason.map { "(\($0.rawValue))" } ?? "") + " after \(outcome.attempts) attempts"
    }
}
