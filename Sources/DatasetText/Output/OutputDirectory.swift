#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Why the output could not be written (exit status 1).
package struct OutputError: Error, CustomStringConvertible, Sendable {
    /// The file or directory that could not be written.
    package var path: String
    /// The system's reason.
    package var reason: String
    /// `path: reason`.
    package var description: String { "\(path): \(reason)" }
}

/// Writes output files into a hidden staging directory and moves them into place only when the
/// whole run succeeded, so a refused or failed run leaves no output file behind.
package final class OutputDirectory {
    /// The directory the files end up in.
    package let path: String
    private let staging: String
    private var written: [String] = []

    /// Creates `path` (and its parents) and a staging directory in it.
    package init(path: String) throws {
        self.path = path
        staging = path + "/.simharness-staging-\(getpid())"
        try Self.makeDirectories(path)
        guard mkdir(staging, 0o755) == 0 || errno == EEXIST else { throw OutputError(path: staging, reason: Self.lastError()) }
    }

    /// Opens `name` for writing in the staging directory.
    package func create(_ name: String) throws -> OutputFile {
        let file = try OutputFile(path: staging + "/" + name)
        if !written.contains(name) { written.append(name) }
        return file
    }

    /// Opens one of the SPEC output files and writes its header line.
    package func create(header file: SpecOutputFile) throws -> OutputFile {
        let output = try create(file.rawValue)
        try output.write(SpecRowWriter(headerOf: file).buffer)
        return output
    }

    /// Writes a whole file at once.
    package func write(_ name: String, _ buffer: ByteBuffer) throws {
        let file = try create(name)
        try file.write(buffer)
        try file.close()
    }

    /// Writes a whole file of text at once.
    package func write(_ name: String, _ text: String) throws {
        let buffer = ByteBuffer(capacity: text.utf8.count)
        buffer.append(text)
        try write(name, buffer)
    }

    /// Moves every written file into place.
    package func publish() throws {
        for name in written {
            guard rename(staging + "/" + name, path + "/" + name) == 0 else { throw OutputError(path: path + "/" + name, reason: Self.lastError()) }
        }
        rmdir(staging)
    }

    /// Removes everything written so far.
    package func discard() {
        for name in written { unlink(staging + "/" + name) }
        rmdir(staging)
    }

    private static func makeDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part + "/"
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw OutputError(path: prefix, reason: lastError()) }
        }
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}

/// An output file written sequentially.
package final class OutputFile {
    private var fd: Int32
    let path: String

    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw OutputError(path: path, reason: OutputDirectory.lastError()) }
    }

    deinit { if fd >= 0 { systemClose(fd) } }

    /// Appends the bytes of `buffer`.
    package func write(_ buffer: ByteBuffer) throws {
        let raw = buffer.bytes
        var offset = 0
        while offset < raw.count {
            let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw OutputError(path: path, reason: OutputDirectory.lastError()) }
            offset += n
        }
    }


    /// Closes the file; throws when the last writes could not be completed.
    package func close() throws {
        let result = systemClose(fd)
        fd = -1
        guard result == 0 else { throw OutputError(path: path, reason: OutputDirectory.lastError()) }
    }
}

// The C library's `write` and `close` (`OutputFile`'s methods have their names).
#if canImport(Glibc)
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#else
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#endif
