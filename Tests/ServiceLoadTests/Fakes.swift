import Foundation
import PaymentsCore
@_spi(Tooling) import ServiceSimulation

/// A service that answers every request at once, `deduplicated`, and remembers the payment ids it was sent.
struct CountingService: ServiceUnderSimulation {
    static let seen = Locked<[String: Int]>([:])
    let tag: String

    static func start(in environment: ServiceEnvironment) async throws -> CountingService { CountingService(tag: UUID().uuidString) }

    func submit(_ request: ServiceRequest) async throws -> ServiceAnswer {
        Self.seen.withLock { $0[tag + request.paymentID, default: 0] += 1 }
        return ServiceAnswer(state: .deduplicated)
    }

    func ledger() async throws -> [ServiceLedgerLine] { [] }
}
