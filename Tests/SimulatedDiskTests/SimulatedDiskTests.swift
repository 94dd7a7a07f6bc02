import Foundation
import GRDB
import SimulatedDisk
import Testing

/// SQLite over the simulated disk: every acknowledged transaction survives each storage fault, and
/// the database SQLite finds afterwards is sound.
@Suite("SimulatedDisk")
struct SimulatedDiskTests {
    /// A database of one table on `sut`, one connection holding it alone (WAL without shared memory).
    private func open(_ sut: SimulatedDisk, synchronous: String = "FULL") throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = \(synchronous)")
        }
        let queue = try DatabaseQueue(path: sut.uri(of: "test.sqlite"), configuration: configuration)
        try queue.write { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)") }
        return queue
    }

    /// Inserts rows `range`, one transaction each, with payloads large enough to span pages;
    /// returns the rows acknowledged before the first failure.
    @discardableResult
    private func insert(_ range: Range<Int>, into queue: DatabaseQueue) -> [Int] {
        var acknowledged: [Int] = []
        for id in range {
            do {
                try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (?, zeroblob(?))", arguments: [id, 300 + id * 97 % 5_000]) }
                acknowledged.append(id)
            } catch { break }
        }
        return acknowledged
    }

    /// The disk after the power came back: the rows SQLite finds, after its integrity check passed.
    private func rowsAfterRestart(_ sut: SimulatedDisk, closing queue: DatabaseQueue) throws -> [Int] {
        try queue.close()
        sut.restorePower()
        let again = try open(sut)
        defer { try? again.close() }
        #expect(try again.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
        return try again.read { db in try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id") }
    }

    @Test("a guarded disk answers its owner's thread only: another thread's write fails, touches nothing, and is named")
    func guardRefusesOtherThreads() throws {
        // Given a disk holding one row, guarded to this thread
        let sut = SimulatedDisk(seed: 9)
        let queue = try open(sut)
        insert(0..<1, into: queue)
        let refused = RefusedCalls()
        sut.answer(only: pthread_self(), context: Unmanaged.passUnretained(refused).toOpaque(), tag: 1) { context, tag, what in
            Unmanaged<RefusedCalls>.fromOpaque(context!).takeUnretainedValue().calls.append(String(cString: what!))
            return Int32(tag)
        }

        // When another thread writes a row
        let acknowledged = RefusedCalls()
        let done = DispatchSemaphore(value: 0)
        Thread { [self] in
            acknowledged.calls = insert(1..<2, into: queue).map(String.init)
            done.signal()
        }.start()
        done.wait()

        // Then the write failed and was named; this thread still finds the one row
        #expect(acknowledged.calls == [])
        #expect(refused.calls.first?.hasPrefix("the disk's ") == true, "\(refused.calls)")
        #expect(refused.calls.first?.contains("test.sqlite") == true, "\(refused.calls)")
        #expect(try queue.read { db in try Int.fetchAll(db, sql: "SELECT id FROM t") } == [0])
        try queue.close()  // here, while the guard's context lives (GRDB would close it on a thread of its own)
        withExtendedLifetime(refused) {}
    }

    @Test("a connection opened before a power cycle cannot write to the disk after it (a crashed process's zombie)")
    func staleConnectionIsCutOff() throws {
        // Given a connection that wrote a row, and the machine power-cycled without closing it
        let sut = SimulatedDisk(seed: 5)
        let zombie = try open(sut)
        insert(0..<1, into: zombie)
        sut.cutPower(keptPermille: 1_000)
        sut.restorePower()

        // When the restarted process opens the database, and the old connection then tries to write
        let fresh = try open(sut)
        let zombieWrote = insert(1..<2, into: zombie)

        // Then the old connection's write fails and the new one sees only its own process's rows
        #expect(zombieWrote.isEmpty)
        #expect(try fresh.read { db in try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id") } == [0])
        try? zombie.close()
        try fresh.close()
    }

    @Test("power lost at every sync point of a small workload keeps every acknowledged transaction", arguments: [0, 500, 1000])
    func powerLossAtEverySync(keptPermille: Int) throws {
        // Given the number of syncs a workload of 12 transactions makes
        let clean = SimulatedDisk(seed: 1)
        let cleanQueue = try open(clean)
        let before = clean.statistics.syncs
        insert(0..<12, into: cleanQueue)
        let syncs = clean.statistics.syncs - before
        try cleanQueue.close()
        #expect(syncs >= 12)
        for point in 0..<syncs {
            // When the power is lost at that sync, a share of the unsynced writes surviving
            let sut = SimulatedDisk(seed: UInt64(point))
            let queue = try open(sut)
            sut.cutPowerAtSync(after: point, keptPermille: keptPermille)
            let acknowledged = insert(0..<12, into: queue)
            // Then every acknowledged row is there, and at most the one in flight besides
            let rows = try rowsAfterRestart(sut, closing: queue)
            #expect(Array(rows.prefix(acknowledged.count)) == acknowledged, "sync \(point)")
            #expect(rows.count <= acknowledged.count + 1, "sync \(point)")
            #expect(sut.statistics.powerLosses == 1)
        }
    }

    @Test("a torn last write at a sync leaves a sound database with every acknowledged row", arguments: 0..<8)
    func tornPage(seed: Int) throws {
        // Given a database with rows acknowledged
        let sut = SimulatedDisk(seed: UInt64(seed))
        let queue = try open(sut)
        let first = insert(0..<5, into: queue)
        // When the power is lost at the next commit's sync, its last surviving write torn
        sut.cutPowerAtSync(keptPermille: 1000, torn: true)
        #expect(insert(5..<6, into: queue).isEmpty)
        // Then the rows acknowledged before are all there, and the write was torn
        let rows = try rowsAfterRestart(sut, closing: queue)
        #expect(Array(rows.prefix(5)) == first)
        #expect(sut.statistics.tornWrites == 1)
    }

    @Test("a failed sync fails the commit, and the power loss after it keeps what was synced")
    func fsyncFailure() throws {
        // Given a database with rows acknowledged
        let sut = SimulatedDisk(seed: 7)
        let queue = try open(sut)
        insert(0..<3, into: queue)
        // When the next sync fails
        sut.failSyncs(1)
        let failed = Result { try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (3, zeroblob(10))") } }
        // Then the commit reports the I/O error
        guard case .failure(let error) = failed else { Issue.record("the commit succeeded"); return }
        #expect((error as? DatabaseError)?.resultCode == .SQLITE_IOERR)
        #expect(sut.statistics.failedSyncs == 1)
        // And after the machine restarts without what was not synced, the acknowledged rows are there
        sut.cutPower(keptPermille: 0)
        #expect(try rowsAfterRestart(sut, closing: queue) == [0, 1, 2])
    }

    @Test("a full disk fails the transaction, which rolls back; the next one succeeds")
    func diskFull() throws {
        // Given a database with rows
        let sut = SimulatedDisk(seed: 3)
        let queue = try open(sut)
        insert(0..<3, into: queue)
        // When the disk is full for the next write
        sut.fill(writes: 1)
        let failed = Result { try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (3, zeroblob(10))") } }
        // Then the transaction fails with SQLITE_FULL and leaves nothing; a later one succeeds
        guard case .failure(let error) = failed else { Issue.record("the write succeeded"); return }
        #expect((error as? DatabaseError)?.resultCode == .SQLITE_FULL)
        try queue.write { db in try db.execute(sql: "INSERT INTO t VALUES (4, zeroblob(10))") }
        #expect(try queue.read { db in try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id") } == [0, 1, 2, 4])
        #expect(sut.statistics.fullWrites == 1)
    }

    @Test("a read error reaches SQLite's caller as an I/O error")
    func readError() throws {
        // Given a database with rows, closed
        let sut = SimulatedDisk(seed: 5)
        let first = try open(sut)
        insert(0..<3, into: first)
        try first.close()
        // When reads fail as it is opened and read again
        sut.failReads(1_000)
        let failed = Result { try open(sut).read { db in try Int.fetchAll(db, sql: "SELECT id FROM t") } }
        // Then SQLite reports an I/O error
        guard case .failure(let error) = failed else { Issue.record("the read succeeded"); return }
        #expect((error as? DatabaseError)?.resultCode == .SQLITE_IOERR)
        #expect(sut.statistics.failedReads >= 1)
    }

    @Test("with synchronous = NORMAL, a power loss after an acknowledged commit loses it (why the store syncs FULL)")
    func normalLosesAcknowledgedCommits() throws {
        // Given rows acknowledged with synchronous = NORMAL in WAL mode
        let sut = SimulatedDisk(seed: 11)
        let queue = try open(sut, synchronous: "NORMAL")
        let acknowledged = insert(0..<5, into: queue)
        // When the power is lost, no unsynced write surviving
        sut.cutPower(keptPermille: 0)
        // Then acknowledged rows are gone
        #expect(try rowsAfterRestart(sut, closing: queue).count < acknowledged.count)
    }

    @Test("disks are independent: two open at once under names of their own")
    func independentDisks() throws {
        // Given two disks
        let a = SimulatedDisk(seed: 1), b = SimulatedDisk(seed: 1)
        // When one is written
        let queue = try open(a)
        insert(0..<2, into: queue)
        // Then the other has no file, and their names differ
        #expect(a.name != b.name)
        #expect(a.size(of: "test.sqlite") != nil)
        #expect(b.size(of: "test.sqlite") == nil)
        try queue.close()
    }
}

/// Text a test's threads hand back to it (each written before a semaphore is signalled, read after).
private final class RefusedCalls: @unchecked Sendable {
    var calls: [String] = []
}
