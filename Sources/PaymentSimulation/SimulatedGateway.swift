import Foundation
import PaymentService
import PaymentsCore

/// The gateway of a simulated world, idempotent per `(user, key)` as SPEC §4 wants, and the
/// ground truth of the money that really moved. An attempt that arrives after its deadline is
/// ignored, so once a deadline has passed, "did you act?" has a final answer.
final class SimulatedGateway {
    /// Money that moved for one user in one currency.
    struct Moved: Hashable {
        var capturedMinor: Int64 = 0
        var refundedMinor: Int64 = 0
    }

    /// Which payment the gateway acted for, per `(user, key)`.
    private(set) var actedFor: [UInt64: UInt32] = [:]
    /// How many times it acted for each payment.
    private(set) var actions: [UInt32: Int] = [:]
    /// Money moved, per user and currency.
    private(set) var moved: [UInt32: [Currency: Moved]] = [:]
    private let truth: TruthFile?

    /// A gateway that acted for nothing yet, or for what `truth` recorded; it records each action
    /// in `truth` before it answers.
    init(truth: TruthFile? = nil) throws(SimulationError) {
        self.truth = truth
        for action in try truth?.load() ?? [] { apply(action) }
    }

    static func slot(_ user: UInt32, _ key: UInt32) -> UInt64 { UInt64(user) << 32 | UInt64(key) }

    /// Whether it acted for `user`'s `key`.
    func hasActed(user: UInt32, key: UInt32) -> Bool { actedFor[Self.slot(user, key)] != nil }

    /// Serves `call` arriving at `now`: returns what the gateway did (`response`, as a script token:
    /// `L` when it acted without a chance to answer, `T` when it ignored the call) and whether it acted.
    func serve(_ call: GatewayCall, now: Int64, down: Bool, declining: Bool) -> (response: GatewayResponse, acted: Bool) {
        guard now < call.deadline, !down else { return (.timedOut, false) }
        if actedFor[Self.slot(call.request.user, call.key)] != nil { return (.approved, false) }
        let scripted = declining ? .declined : call.request.payment.script.response(at: call.attempt)
        guard scripted.acted else { return (scripted, false) }
        let action = TruthFile.Action(payment: call.request.payment.id, user: call.request.user, key: call.key, request: call.request.payment)
        truth?.append(action)
        apply(action)
        return (scripted, true)
    }

    private func apply(_ action: TruthFile.Action) {
        actedFor[Self.slot(action.user, action.key)] = action.payment
        actions[action.payment, default: 0] += 1
        guard let amount = action.request.amountMinor, let currency = action.request.currency else { return }
        if action.request.kind == .charge {
            moved[action.user, default: [:]][currency, default: Moved()].capturedMinor += amount
        } else {
            moved[action.user, default: [:]][currency, default: Moved()].refundedMinor += amount
        }
    }
}

/// The gateway's ground truth in a file of its own, one line per action, written before the
/// gateway answers, so that it survives a killed process.
final class TruthFile {
    struct Action {
        var payment: UInt32
        var user: UInt32
        var key: UInt32
        var request: PaymentRequest
    }

    let path: String
    private let handle: FileHandle

    /// Opens (or creates) the file at `path` for appending.
    init(path: String) throws(SimulationError) {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw .unusableFile("\(path): cannot open the gateway's truth file") }
        self.handle = handle
        handle.seekToEndOfFile()
    }

    /// Appends `action` in one write.
    func append(_ action: Action) {
        let request = action.request
        let line = "\(action.payment) \(action.user) \(action.key) \(request.kind.rawValue) \(request.amountMinor ?? 0) \(request.currency?.rawValue ?? 255)\n"
        handle.write(Data(line.utf8))
    }

    /// The actions recorded so far.
    func load() throws(SimulationError) -> [Action] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .unusableFile("\(path): cannot read the gateway's truth file")
        }
        var actions: [Action] = []
        for (number, line) in text.split(separator: "\n").enumerated() {
            let fields = line.split(separator: " ").map { Int64($0) }
            guard fields.count == 6, fields.allSatisfy({ $0 != nil }), let kind = PaymentKind(rawValue: UInt8(clamping: fields[3]!)) else {
                throw .unusableFile("\(path):\(number + 1): not a gateway action: '\(line)'")
            }
            let request = PaymentRequest(
                id: UInt32(clamping: fields[0]!), key: UInt32(clamping: fields[2]!), keyLength: 1, kind: kind, amountMinor: fields[4]!,
                currency: Currency(rawValue: UInt8(clamping: fields[5]!)), createdAt: 0, refundOf: nil, script: GatewayScript([]))
            actions.append(Action(payment: request.id, user: UInt32(clamping: fields[1]!), key: request.key, request: request))
        }
        return actions
    }
}
