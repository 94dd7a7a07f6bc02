import Foundation

/// A fresh directory under the system's temporary directory for one test, removed with everything in
/// it when the last reference goes (also when the test throws).
public final class ScratchDirectory: Sendable {
    public let path: String

    /// Creates `<tmp>/<prefix>-<uuid>`.
    public init(prefix: String = "simharness-test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }
}
