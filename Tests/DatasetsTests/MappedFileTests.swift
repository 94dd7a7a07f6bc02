#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Datasets
import Testing
import TestSupport

@Suite("MappedFile: a regular file read in place")
struct MappedFileTests {
    @Test("the mapping holds the file's bytes, and releasing pages keeps them readable", arguments: [
        [UInt8](), Array("user_id\nu1,0\n".utf8), [0x00, 0xFF, 0x0A, 0xC3, 0xA9], [UInt8](repeating: 0x61, count: 10_000),
    ])
    func bytes(content: [UInt8]) throws {
        // Given a file of 0, 13, 5 or 10,000 bytes
        let dir = try ScratchDirectory()
        let path = try dir.write("users.csv", bytes: content)
        // When it is mapped, and read again after its pages are released
        let sut = try #require(MappedFile(path: path))
        let read = sut.withBytes { Array($0) }
        sut.release(0..<content.count)
        // Then its bytes are the file's, byte for byte, both times
        #expect(read == content)
        #expect(sut.withBytes { Array($0) } == content)
    }

    @Test("a missing path or a directory is not mapped")
    func notMapped() throws {
        // Given a directory
        let dir = try ScratchDirectory()
        // When a missing file in it and the directory itself are mapped
        let missing = MappedFile(path: dir.file("missing.csv"))
        let directory = MappedFile(path: dir.path)
        // Then neither is (the chunk reader reads them, or explains why it cannot)
        #expect(missing == nil)
        #expect(directory == nil)
    }
}

@Suite("MappedFile: a file truncated while it is mapped")
struct TruncatedMappedFileTests {
    @Test("reading the lost pages ends the process with exit status 2 and a message naming the file")
    func truncatedWhileMapped() async throws {
        // Given a file of three pages (in a directory this process removes), mapped, then truncated by another hand
        let dir = try ScratchDirectory()
        let path = try dir.write("meals.csv", bytes: [UInt8](repeating: 0x61, count: 3 * 4096))
        // When a byte of its last page is read
        let result = await #expect(processExitsWith: .exitCode(2), observing: [\.standardErrorContent]) { [path = path as String] in
            let sut = try #require(MappedFile(path: path))
            _ = truncate(path, 0)
            let byte = sut.withBytes { $0[3 * 4096 - 1] }
            Issue.record("read \(byte) from a truncated file")
        }
        // Then the process says which file was truncated
        let message = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(message.contains("meals.csv: the file was truncated while it was being read"))
    }
}
