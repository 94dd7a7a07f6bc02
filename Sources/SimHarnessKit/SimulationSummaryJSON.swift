import Foundation
@_spi(Tooling) import PaymentSimulation
@_spi(Tooling) import SimulationCore
import PaymentsCore

/// A summary's JSON (schema `SimulationSummary.version`), as `simulate --json` writes it and `merge` reads
/// it: one Codable document, so both sides agree on every key. Seeds are hex text (`0x1f`), as the reproduce
/// lines print them.
struct SimulationSummaryDocument: Codable, Equatable {
    struct Swarm: Codable, Equatable {
        var from: String
        var seeds: Int
        var command: String
    }

    struct Seeds: Codable, Equatable {
        var first: String
        var last: String
    }

    struct Violation: Codable, Equatable {
        var seed: String
        var invariant: String
        var message: String
        var step: Int
        var timeMillis: Int64
        var payment: UInt32?
        var history: [String]
        var reproduce: String
        var shrunk: String?

        enum CodingKeys: String, CodingKey {
            case seed, invariant, message, step, payment, history, reproduce, shrunk
            case timeMillis = "time_ms"
        }
    }

    var version: Int
    var worlds: Int
    var steps: Int
    var crashes: Int
    var recoveries: Int
    var store: String
    var passed: Bool
    var diskWorlds: Int
    var faults: [String: Int]
    var states: [String: Int]
    var swarm: Swarm
    var seeds: Seeds?
    var shards: SimulationSummary.Shards?
    var violations: [Violation]

    enum CodingKeys: String, CodingKey {
        case version, worlds, steps, crashes, recoveries, store, passed, faults, states, swarm, seeds, shards, violations
        case diskWorlds = "disk_worlds"
    }
}

extension SimulationSummary {
    /// Whether `data` is a `simulate --json` summary rather than a `run` result: it counts worlds and names no
    /// scenario.
    static func isSummary(_ data: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return object["worlds"] != nil && object["scenario"] == nil
    }

    /// The summary as JSON (schema `version`), keys sorted.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return try encoder.encode(document)
    }

    /// Reads a summary `json()` wrote.
    init(json data: Data) throws(SimulationSummaryError) {
        func fail(_ message: String) -> SimulationSummaryError { SimulationSummaryError(description: message) }
        struct Versioned: Decodable { var version: Int? }
        let version = (try? JSONDecoder().decode(Versioned.self, from: data))?.version
        guard version == Self.version else {
            throw fail("a simulate summary of version \(version.map(String.init) ?? "none"); this simharness reads version \(Self.version)")
        }
        let document: SimulationSummaryDocument
        do { document = try JSONDecoder().decode(SimulationSummaryDocument.self, from: data) } catch let error as DecodingError {
            throw fail("not a simulate summary: \(Self.describe(error))")
        } catch {
            throw fail("not a simulate summary: \(error)")
        }
        try self.init(document)
    }

    /// The document of this summary.
    var document: SimulationSummaryDocument {
        SimulationSummaryDocument(
            version: Self.version, worlds: worlds, steps: steps, crashes: crashes, recoveries: recoveries, store: store.rawValue, passed: passed,
            diskWorlds: diskWorlds, faults: Dictionary(uniqueKeysWithValues: faults.map { ($0.key.rawValue, $0.value) }),
            states: Dictionary(uniqueKeysWithValues: PaymentState.allCases.map { ($0.rawValue, states[$0, default: 0]) }),
            swarm: .init(from: hex(swarm.from), seeds: swarm.seeds, command: swarm.command),
            seeds: seeds.map { .init(first: hex($0.lowerBound), last: hex($0.upperBound)) },
            shards: shards,
            violations: violation.map { found in
                let broken = found.violation
                return [.init(
                    seed: hex(found.seed), invariant: broken.invariant.rawValue, message: broken.detail, step: broken.step ?? 0,
                    timeMillis: broken.time?.wholeMilliseconds ?? 0, payment: broken.payment, history: broken.history, reproduce: found.reproduce,
                    shrunk: found.shrunk)]
            } ?? [])
    }

    /// The summary `document` holds, its names and ranges checked.
    private init(_ document: SimulationSummaryDocument) throws(SimulationSummaryError) {
        func fail(_ message: String) -> SimulationSummaryError { SimulationSummaryError(description: message) }
        func seed(_ text: String) throws(SimulationSummaryError) -> UInt64 {
            guard text.hasPrefix("0x"), let value = UInt64(text.dropFirst(2), radix: 16) else { throw fail("bad seed '\(text)': not 0x hex") }
            return value
        }
        guard let store = StoreKind(rawValue: document.store) else { throw fail("unknown store '\(document.store)'") }
        self.init(store: store, swarm: Swarm(from: try seed(document.swarm.from), seeds: document.swarm.seeds, command: document.swarm.command))
        (worlds, steps, crashes, recoveries, diskWorlds) = (document.worlds, document.steps, document.crashes, document.recoveries, document.diskWorlds)
        for (name, count) in document.faults {
            guard let kind = FaultKind(rawValue: name) else { throw fail("unknown fault '\(name)'") }
            faults[kind] = count
        }
        for (name, count) in document.states {
            guard let state = PaymentState(rawValue: name) else { throw fail("unknown payment state '\(name)'") }
            states[state] = count
        }
        if let range = document.seeds {
            let (first, last) = (try seed(range.first), try seed(range.last))
            guard first <= last else { throw fail("bad seeds: the first, \(range.first), is after the last, \(range.last)") }
            seeds = first...last
        }
        if let parts = document.shards {
            guard parts.count > 1, !parts.indices.isEmpty, parts.indices.allSatisfy((0..<parts.count).contains) else {
                throw fail("bad shards: \(parts.indices) of \(parts.count)")
            }
            shards = Shards(count: parts.count, indices: parts.indices.sorted())
        }
        if let entry = document.violations.first {
            guard let invariant = Invariant(rawValue: entry.invariant) else { throw fail("unknown invariant '\(entry.invariant)'") }
            let broken = SimulationCore.Violation(
                invariant, entry.message, subjects: entry.payment.map { [String($0)] } ?? [], step: entry.step, time: .milliseconds(entry.timeMillis),
                history: entry.history)
            violation = Found(seed: try seed(entry.seed), violation: broken, reproduce: entry.reproduce, shrunk: entry.shrunk)
        }
    }

    /// A decoding error as the key path it is about and what is wrong there.
    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String { keys.isEmpty ? "the top level" : keys.map(\.stringValue).joined(separator: ".") }
        switch error {
        case .keyNotFound(let key, let context): return "'\(path(context.codingPath + [key]))' is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "'\(path(context.codingPath))' is of the wrong type"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
