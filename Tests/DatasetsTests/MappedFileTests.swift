import Datasets
import Testing

@Suite("MappedFile: a small regular file read in place")
struct MappedFileTests {
    @Test("the mapping holds the file's bytes, up to a size limit equal to the file's", arguments: [
        [UInt8](), Array("user_id\nu1,0\n".utf8), [0x00, 0xFF, 0x0A, 0xC3, 0xA9], [UInt8](repeating: 0x61, count: 10_000),
    ])
    func bytes(content: [UInt8]) throws {
        // Given a file of 0, 13, 5 or 10,000 bytes
        let dir = try ScratchDirectory()
        let path = try dir.write("users.csv", bytes: content)
        // When it is mapped with a limit of its own size
        let sut = try #require(MappedFile(path: path, maxBytes: content.count))
        // Then its bytes are the file's, byte for byte
        #expect(sut.withBytes { Array($0) } == content)
    }

    @Test("a missing path, a directory or a file over the limit is not mapped")
    func notMapped() throws {
        // Given a directory holding a 13-byte file
        let dir = try ScratchDirectory()
        let path = try dir.write("users.csv", "user_id\nu1,0\n")
        // When the file is mapped with a limit of 12 bytes, and a missing file and the directory with a large one
        let tooLarge = MappedFile(path: path, maxBytes: 12)
        let missing = MappedFile(path: dir.file("missing.csv"), maxBytes: 1 << 20)
        let directory = MappedFile(path: dir.path, maxBytes: 1 << 20)
        // Then none is mapped (the chunk reader reads them, or explains why it cannot)
        #expect(tooLarge == nil)
        #expect(missing == nil)
        #expect(directory == nil)
    }
}
