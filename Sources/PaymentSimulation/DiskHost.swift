@_spi(Tooling) import PaymentService
import PlantedFlaws
import SimulatedDisk

/// The service's machine in a world on a simulated disk: the disk and `SQLitePaymentStore` opened
/// on it. When the machine goes down (a kill, a power loss, or the store's fatal I/O error) the
/// connection is closed while the disk refuses every operation, so nothing it still caches reaches
/// the disk; when it comes up, the store is opened again from what the disk holds.
final class DiskHost {
    static let file = "payments.sqlite"

    let disk: SimulatedDisk
    private(set) var store: SQLitePaymentStore
    private let plants: ReferenceServicePlants

    /// A machine with an empty disk drawing from `seed`; `plants` may plant the store's defects.
    init(seed: UInt64, plants: ReferenceServicePlants) throws(SimulationError) {
        disk = SimulatedDisk(seed: seed)
        self.plants = plants
        do { store = try Self.open(disk, plants) } catch {
            throw .unusableFile("the simulated disk: \(error)")
        }
    }

    /// Whether the machine must restart: the power is off or the store met a fatal I/O error.
    var hasFailed: Bool { disk.isDown || store.ioFailure != nil }

    /// The machine goes down: of the writes not synced, a `keptPermille` share survives (1000: a
    /// killed process, whose writes the operating system still holds).
    func goDown(keptPermille: Int) {
        disk.cutPower(keptPermille: keptPermille)
        store.close()
    }

    /// The machine comes up: power back, the store opened from what is durable. Throws when it
    /// cannot be opened (the owner tries again later).
    func comeUp() throws {
        disk.restorePower()
        store = try Self.open(disk, plants)
    }

    private static func open(_ disk: SimulatedDisk, _ plants: ReferenceServicePlants) throws -> SQLitePaymentStore {
        try SQLitePaymentStore(uri: disk.uri(of: file), owner: disk, countsRefunds: plants.sqliteCountsRefunds, syncsCommits: plants.sqliteSyncsCommits)
    }
}
