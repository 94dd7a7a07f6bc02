import Foundation
@testable import ServiceFixtures
import Testing

@Suite("The fixture's records in SQLite")
struct SQLiteRecordsTests {
    @Test("a commit writes and removes its records in one transaction; a key in both is removed")
    func commitWritesAndRemoves() async throws {
        // Given records in a SQLite file of a temporary folder, with two records
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-records-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sut = try SQLiteRecords(uri: folder.appendingPathComponent("records.sqlite").path, syncsCommits: true)
        try await sut.write("payment/u1/k1", Data("old".utf8))
        try await sut.write("payment/u1/k2", Data("gone".utf8))
        // When one commit rewrites the first, removes the second, and names a third in both lists
        try await sut.commit(writing: ["payment/u1/k1": Data("new".utf8), "payment/u2/k3": Data("x".utf8)], removing: ["payment/u1/k2", "payment/u2/k3"])
        // Then the reads see exactly that
        #expect(try await sut.keys(withPrefix: "payment/") == ["payment/u1/k1"])
        #expect(try await sut.read("payment/u1/k1") == Data("new".utf8))
        try await sut.remove("payment/u1/k1")
        #expect(try await sut.keys(withPrefix: "") == [])
    }
}
