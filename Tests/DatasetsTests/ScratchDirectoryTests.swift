import Foundation
import Testing
import TestSupport

@Suite("ScratchDirectory: tests leave nothing behind in the temporary directory")
struct ScratchDirectoryTests {
    @Test("the directory and its files are removed when the last reference goes")
    func removedWhenReleased() throws {
        // Given a scratch directory holding a file
        var sut: ScratchDirectory? = try ScratchDirectory(prefix: "scratch-test")
        let path = try #require(sut?.path)
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: try #require(sut?.file("a.csv"))))
        #expect(FileManager.default.fileExists(atPath: path + "/a.csv"))
        // When it is released
        sut = nil
        // Then neither is left
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
