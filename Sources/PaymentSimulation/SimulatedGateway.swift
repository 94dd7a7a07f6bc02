import Foundation
@_spi(Tooling) import PaymentService
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

/// The gateway's ground truth in a file of its own, one line per action, written and synced
/// before the gateway answers, so that it survives a killed process and a power loss: `payment user key kind amount currency
/// run step` (currency 255: none), stamped with the run of the world (0 the first, one more at each
/// `--resume`) and its step at which the gateway acted.
final class TruthFile {
    struct Action {
        var payment: UInt32
        var user: UInt32
        var key: UInt32
        var request: PaymentRequest
        var run = 0
        var step = 0
    }

    /// Fields of a line.
    static let fields = ["payment", "user", "key", "kind", "amount", "currency", "run", "step"]

    let path: String
    private let handle: FileHandle
    /// The run stamped on the actions appended.
    var run = 0
    /// The step stamped on the next action appended (the world sets it at each step).
    var step = 0
    /// Why an action could not be made durable; the run's result is then not to be trusted.
    private(set) var failure: SimulationError?

    /// Opens (or creates) the file at `path` for appending.
    init(path: String) throws(SimulationError) {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        guard let handle = FileHandle(forUpdatingAtPath: path) else { throw .unusableFile("\(path): cannot open the gateway's truth file") }
        self.handle = handle
        handle.seekToEndOfFile()
    }

    /// Appends `action` in one write, stamped with `run` and `step`, and syncs it; a failure is kept
    /// in `failure` (the sync is not retried).
    func append(_ action: Action) {
        let request = action.request
        let line = "\(action.payment) \(action.user) \(action.key) \(request.kind.rawValue) \(request.amountMinor ?? 0) "
            + "\(request.currency?.rawValue ?? 255) \(run) \(step)\n"
        do {
            try handle.write(contentsOf: Data(line.utf8))
            try handle.synchronize()
        } catch {
            if failure == nil { failure = .unusableFile("\(path): the gateway's action could not be made durable: \(error)") }
        }
    }

    /// The actions recorded so far; a line that is not an action (a truncated one included) is
    /// refused with its number, field and value.
    func load() throws(SimulationError) -> [Action] {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unusableFile("\(path): cannot read the gateway's truth file") }
        guard data.last.map({ $0 == UInt8(ascii: "\n") }) ?? true else {
            throw .unusableFile("\(path): truncated: its last line has no end of line")
        }
        var actions: [Action] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().enumerated() {
            actions.append(try action(String(decoding: line, as: UTF8.self), number: index + 1))
        }
        return actions
    }

    private func action(_ line: String, number: Int) throws(SimulationError) -> Action {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == Self.fields.count else {
            throw .unusableFile("\(path):\(number): not a gateway action (\(Self.fields.count) numbers: \(Self.fields.joined(separator: " "))): '\(line.prefix(80))'")
        }
        func field<T: FixedWidthInteger>(_ index: Int, _ type: T.Type = T.self) throws(SimulationError) -> T {
            guard let value = T(fields[index]) else {
                throw .unusableFile("\(path):\(number): \(Self.fields[index]) is '\(fields[index].prefix(40))', not an integer in \(T.min)...\(T.max)")
            }
            return value
        }
        let kindNumber: UInt8 = try field(3), currencyNumber: UInt8 = try field(5)
        guard let kind = PaymentKind(rawValue: kindNumber) else { throw .unusableFile("\(path):\(number): kind \(kindNumber) is no payment kind") }
        let currency = currencyNumber == 255 ? nil : Currency(rawValue: currencyNumber)
        guard currencyNumber == 255 || currency != nil else { throw .unusableFile("\(path):\(number): currency \(currencyNumber) is no currency") }
        let run: Int = try field(6), step: Int = try field(7), amount: Int64 = try field(4)
        guard run >= 0, step >= 0, amount >= 0 else { throw .unusableFile("\(path):\(number): a negative amount, run or step: '\(line.prefix(80))'") }
        let request = PaymentRequest(
            id: try field(0), key: try field(2), keyLength: 1, kind: kind, amountMinor: amount, currency: currency, createdAt: 0, refundOf: nil,
            script: GatewayScript([]))
        return Action(payment: request.id, user: try field(1), key: request.key, request: request, run: run, step: step)
    }
}
