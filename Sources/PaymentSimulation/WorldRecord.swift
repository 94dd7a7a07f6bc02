@_spi(Tooling) import PaymentService
@_spi(Tooling) import PlantedFlaws

/// What a `--db` store records of the world that wrote it (its notes): the format, the world's
/// configuration and the history of its runs. A `--resume` that names another world is refused,
/// naming each field that differs with both values.
struct WorldRecord: Equatable {
    /// The version of the store's format (tables, notes, marks, the truth file's lines) this build
    /// writes and reads.
    static let formatVersion = 1

    var seed: UInt64
    var payments: Int
    var clients: Int
    var faults: FaultMix
    var flaws: Set<PlantedFlaw>
    /// The step after which each run so far was killed (or ended), oldest first.
    var kills: [Int]

    /// The record of a new store for `configuration`.
    init(_ configuration: WorldConfiguration) {
        (seed, payments, clients, faults, flaws, kills) =
            (configuration.seed, configuration.payments, configuration.clients, configuration.faults, configuration.flaws, configuration.kills)
    }

    /// The record kept in `notes` of the store at `path`; anything missing or unreadable is refused.
    init(notes: [String: String], path: String) throws(SimulationError) {
        guard let format = notes["format"] else {
            throw .unusableFile("\(path) records no world: its first run was stopped before it began, or simulate did not write it; start afresh")
        }
        guard format == String(Self.formatVersion) else {
            throw .unusableFile("\(path): format version \(format.prefix(20)), this simharness reads version \(Self.formatVersion)")
        }
        func note(_ name: String) throws(SimulationError) -> String {
            guard let value = notes[name] else { throw .unusableFile("\(path): the world's note '\(name)' is missing") }
            return value
        }
        func bad(_ name: String, _ value: String) -> SimulationError {
            .unusableFile("\(path): the world's note '\(name)' is '\(value.prefix(60))', not one simulate writes")
        }
        let seedText = try note("seed"), paymentsText = try note("payments"), clientsText = try note("clients")
        guard let seed = UInt64(seedText) else { throw bad("seed", seedText) }
        guard let payments = Int(paymentsText), (1...10_000_000).contains(payments) else { throw bad("payments", paymentsText) }
        guard let clients = Int(clientsText), (1...100_000).contains(clients) else { throw bad("clients", clientsText) }
        let faultsText = try note("faults"), flawsText = try note("flaws"), killsText = try note("kills")
        guard let faults = try? FaultMix(parsing: faultsText) else { throw bad("faults", faultsText) }
        var flaws: Set<PlantedFlaw> = []
        for name in flawsText.split(separator: ",") {
            guard let flaw = PlantedFlaw(rawValue: String(name)) else { throw bad("flaws", flawsText) }
            flaws.insert(flaw)
        }
        var kills: [Int] = []
        for step in killsText.split(separator: ",", omittingEmptySubsequences: false) where !killsText.isEmpty {
            guard let step = Int(step), step >= 0 else { throw bad("kills", killsText) }
            kills.append(step)
        }
        (self.seed, self.payments, self.clients, self.faults, self.flaws, self.kills) = (seed, payments, clients, faults, flaws, kills)
    }

    /// The notes that keep this record.
    var notes: [String: String] {
        [
            "format": String(Self.formatVersion), "seed": String(seed), "payments": String(payments), "clients": String(clients),
            "faults": faults.description, "flaws": Self.spell(flaws), "kills": kills.map(String.init).joined(separator: ","),
        ]
    }

    /// Each field of the world in which `configuration` differs from this record, as `payments:
    /// the database records 4000, this run gives 100`.
    func differences(from configuration: WorldConfiguration) -> [String] {
        let fields: [(String, String, String)] = [
            ("seed", "0x" + String(seed, radix: 16), "0x" + String(configuration.seed, radix: 16)),
            ("payments", String(payments), String(configuration.payments)),
            ("clients", String(clients), String(configuration.clients)),
            ("faults", faults.description, configuration.faults.description),
            ("flaws", Self.spell(flaws), Self.spell(configuration.flaws)),
        ]
        return fields.filter { $0.1 != $0.2 }.map { "\($0.0): the database records \($0.1.isEmpty ? "none" : $0.1), this run gives \($0.2.isEmpty ? "none" : $0.2)" }
    }

    private static func spell(_ flaws: Set<PlantedFlaw>) -> String { flaws.map(\.rawValue).sorted().joined(separator: ",") }
}

/// Where a world was when it wrote to its store: its run and step, in the one number
/// `SQLitePaymentStore.mark` keeps.
enum StoreMark {
    static func encode(run: Int, step: Int) -> Int64 { Int64(run) << 40 | Int64(step) }

    /// The step of the last write `run` committed, given the store's last mark; 0 when the mark is another run's.
    static func step(of run: Int, in mark: Int64?) -> Int {
        guard let mark, mark >= 0, mark >> 40 == Int64(run) else { return 0 }
        return Int(mark & (1 << 40 - 1))
    }
}
