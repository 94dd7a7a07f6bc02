import Datasets
@_spi(Tooling) import HealthCore
import PaymentsCore
@_spi(Tooling) import Scenarios
@_spi(Tooling) import Generation

/// Counts of the injected faults and of the notable events of generated rows.
package struct FaultTally: Sendable, Equatable {
    /// Injected faults of `users` rows.
    package var users: [UserFault: Int] = [:]
    /// Injected faults of `meals` rows, by the rejection they trigger.
    package var meals: [MealRejection: Int] = [:]
    /// Injected faults of `steps` rows.
    package var steps: [StepRejection: Int] = [:]
    /// Injected faults of `payments` rows.
    package var payments: [PaymentRejection: Int] = [:]
    /// Meal rows delivered out of order.
    package var mealsLate = 0
    /// Step rows delivered out of order.
    package var stepsLate = 0
    /// Payment rows delivered out of order.
    package var paymentsLate = 0
    /// Client retries (rows reusing the key of an earlier row with the same values).
    package var retries = 0
    /// Refunds.
    package var refunds = 0

    /// Nothing counted yet.
    package init() {}

    /// Counts the rows of `batch`.
    package mutating func add(_ batch: SimulationBatch) {
        for user in batch.users { if let f = user.fault { users[f, default: 0] += 1 } }
        for meal in batch.meals {
            if let f = meal.fault { meals[f, default: 0] += 1 }
            if meal.late { mealsLate += 1 }
        }
        for step in batch.steps {
            if let f = step.fault { steps[f, default: 0] += 1 }
            if step.late { stepsLate += 1 }
        }
        for payment in batch.payments {
            if let f = payment.fault { payments[f, default: 0] += 1 }
            if payment.late { paymentsLate += 1 }
            if payment.kind == .refund { refunds += 1 }
            if payment.keyOrdinal != payment.ordinal, payment.fault == nil { retries += 1 }
        }
    }

    /// Adds `other`'s counts.
    package mutating func add(_ other: FaultTally) {
        users.merge(other.users, uniquingKeysWith: +)
        meals.merge(other.meals, uniquingKeysWith: +)
        steps.merge(other.steps, uniquingKeysWith: +)
        payments.merge(other.payments, uniquingKeysWith: +)
        mealsLate += other.mealsLate
        stepsLate += other.stepsLate
        paymentsLate += other.paymentsLate
        retries += other.retries
        refunds += other.refunds
    }
}

/// What `generate` wrote: `manifest.json`. It holds nothing that depends on timing or `--jobs`.
package struct Manifest: Sendable {
    /// The scenario generated.
    package var scenario: Scenario
    /// The root seed.
    package var seed: UInt64
    /// The users written.
    package var selection: UserSelection
    /// How they were written.
    package var options: ExportOptions
    /// Each file written, with its rows, bytes and CRC-32.
    package var files: [GeneratedFile: WrittenFile]
    /// The faults injected.
    package var faults: FaultTally
    /// What a Parquet export typed and kept in `rejected_rows`.
    package var parquet: ParquetSummary?

    /// The manifest as JSON, keys in a fixed order.
    package var json: String {
        func counts<K: RawRepresentable>(_ all: [K], _ map: [K: Int], extra: [(String, Int)] = []) -> String where K.RawValue == String {
            let pairs = all.map { "\"\($0.rawValue)\": \(map[$0] ?? 0)" } + extra.map { "\"\($0.0)\": \($0.1)" }
            return "{" + pairs.joined(separator: ", ") + "}"
        }
        let day = LocalDay(index: scenario.startDay)
        var lines = [
            "{",
            "  \"tool\": \"simharness\",",
            "  \"version\": \"\(escape(options.toolVersion))\",",
            "  \"scenario\": \"\(escape(scenario.name))\",",
            "  \"seed\": \(seed),",
            "  \"users\": \(selection.users.count),",
            "  \"days\": \(scenario.days),",
            "  \"start_date\": \"\(day.isoString)\",",
            "  \"shard\": {\"index\": \(selection.shard), \"count\": \(selection.shardCount), \"users\": \(selection.count)},",
            "  \"format\": \"\(options.format.rawValue)\",",
            "  \"gzip\": \(options.gzip),",
        ]
        if let parquet { lines.append("  \"compression\": \"\(parquet.compression.rawValue)\",") }
        lines.append("  \"files\": {")
        func entry(_ key: String, _ f: WrittenFile, _ extra: String) -> String {
            // A Parquet file's path is relative to the directory (`meals/shard=1/part-0.parquet`).
            let name = parquet == nil ? String(f.path.split(separator: "/").last ?? "") : f.path
            let crc = String(f.crc32, radix: 16)
            let hex = String(repeating: "0", count: 8 - crc.count) + crc
            return "    \"\(key)\": {\"path\": \"\(escape(name))\", \"rows\": \(f.rows),\(extra) \"bytes\": \(f.bytes), \"crc32\": \"\(hex)\"}"
        }
        var entries = GeneratedFile.allCases.compactMap { file -> String? in
            guard let f = files[file] else { return nil }
            let split = parquet.map { " \"typed_rows\": \($0.typedRows[file] ?? 0), \"rejected_rows\": \($0.rejectedRows[file] ?? 0)," } ?? ""
            return entry(file.rawValue, f, split)
        }
        if let parquet { entries.append(entry(RejectedRows.name, parquet.rejectedFile, "")) }
        lines.append(entries.joined(separator: ",\n"))
        lines.append("  },")
        lines.append("  \"faults\": {")
        lines.append("    \"users\": \(counts(UserFault.allCases, faults.users)),")
        lines.append("    \"meals\": \(counts(MealRejection.allCases, faults.meals, extra: [("out_of_order", faults.mealsLate)])),")
        lines.append("    \"steps\": \(counts(StepRejection.allCases, faults.steps, extra: [("out_of_order", faults.stepsLate)])),")
        lines.append("    \"payments\": \(counts(PaymentRejection.allCases, faults.payments, extra: [("out_of_order", faults.paymentsLate)]))")
        lines.append("  },")
        lines.append("  \"events\": {\"refunds\": \(faults.refunds), \"retries\": \(faults.retries)}")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    func write(to path: String) throws {
        var writer = try DatasetFileWriter(path: path, gzip: false)
        let buffer = ByteBuffer(capacity: 4096)
        buffer.append(json)
        try writer.write(PreparedChunk(encoded: buffer, rows: 0, compressionLevel: nil))
        _ = try writer.finish()
    }

    private func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
