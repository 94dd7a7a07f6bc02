import Foundation
import PaymentServiceCore
import SimHarnessKit

/// The service's repository over SimHarness's simulated disk: a payment is a JSON record under
/// `payment/<userId>/<idempotencyKey>`, a running balance one under `balance/<account>`. `save` writes
/// (it survives a crash of the process), `flush` syncs (it survives a power loss). A record a power loss
/// tore reads as absent: it was never flushed, so the service never answered a client from it, and the
/// client's retry writes it again.
struct DurableRecordsRepository: PaymentRepository {
    let store: any RecordStore

    func findById(_ id: String) async throws -> Payment? {
        guard let data = try await record("payment/" + id) else { return nil }
        return try JSONDecoder().decode(Payment.self, from: data)
    }

    func save(_ payment: Payment) async throws {
        try await store.write("payment/" + payment.id, try JSONEncoder().encode(payment))
    }

    func findAll() async throws -> [Payment] {
        try await payments(under: "payment/")
    }

    func findAll(userId: String) async throws -> [Payment] {
        try await payments(under: "payment/\(userId)/")
    }

    func flush() async throws {
        try await store.sync()
    }

    func balance(_ account: String) async throws -> Int64 {
        try await record("balance/" + account).flatMap { Int64(String(decoding: $0, as: UTF8.self)) } ?? 0
    }

    func saveBalance(_ value: Int64, for account: String) async throws {
        try await store.write("balance/" + account, Data(String(value).utf8))
    }

    func allBalances() async throws -> [String: Int64] {
        var balances: [String: Int64] = [:]
        for key in try await store.keys(withPrefix: "balance/") {
            let account = String(key.dropFirst("balance/".count))
            balances[account] = try await balance(account)
        }
        return balances
    }

    private func payments(under prefix: String) async throws -> [Payment] {
        var payments: [Payment] = []
        for key in try await store.keys(withPrefix: prefix) {
            guard let data = try await record(key) else { continue }
            payments.append(try JSONDecoder().decode(Payment.self, from: data))
        }
        return payments
    }

    /// The record under `key`; nil when there is none or a power loss tore it.
    private func record(_ key: String) async throws -> Data? {
        do { return try await store.read(key) } catch DurableRecordsError.torn { return nil }
    }
}
