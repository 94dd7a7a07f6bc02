#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
@_exported import DatasetText

/// A dataset file found in an input directory.
package struct DatasetFile: Sendable, Equatable {
    /// Which of the four files it is.
    package var kind: DatasetKind
    /// Its path.
    package var path: String
    /// CSV, NDJSON, a SQLite table, or Parquet (a `.parquet` file or a directory of
    /// `shard=k` directories, `ParquetLayout`).
    package var format: DatasetFormat
    /// Whether it is gzip-compressed.
    package var gzip: Bool

    /// A file of all its parts.
    package init(kind: DatasetKind, path: String, format: DatasetFormat, gzip: Bool) {
        self.kind = kind
        self.path = path
        self.format = format
        self.gzip = gzip
    }

    /// The name used in messages and in `rejections.csv`: the file's name, and for a table of a
    /// SQLite file `FILE:TABLE` (`dataset.sqlite:meals`), so that a rejected meal and a rejected
    /// step of one database can be told apart.
    package var name: String { format == .sqlite ? fileName + ":" + kind.rawValue : fileName }

    /// The last component of `path`.
    package var fileName: String { String(path.split(separator: "/").last ?? Substring(path)) }
}

/// Why an input is refused as a whole (exit status 2): names the file, line and reason.
public struct InputRefusal: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file refused.
    public var file: String
    /// The line, when one is to blame.
    public var line: Int?
    /// Why.
    public var reason: String

    /// A refusal of `file` (at `line`) for `reason`.
    package init(file: String, line: Int? = nil, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `file:line: reason`, or `file: reason`.
    public var description: String {
        line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)"
    }
}

/// Finds the dataset files of a directory (SPEC §5).
package enum DatasetDiscovery {
    /// The SQLite file names `generate --format sqlite` writes and `analyze` reads.
    package static let sqliteExtensions = ["sqlite", "sqlite3", "db"]

    /// One file per kind present; refuses a base name present in two formats.
    package static func discover(in directory: String, sqliteTables: (String) throws -> [String] = { _ in [] }) throws -> [DatasetKind: DatasetFile] {
        guard let dir = opendir(directory) else {
            throw InputRefusal(file: directory, reason: "cannot open input directory: \(String(cString: strerror(errno)))")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            names.append(name)
        }
        var found: [DatasetKind: [DatasetFile]] = [:]
        for name in names.sorted() {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            for kind in DatasetKind.allCases {
                for (suffix, format, gzip) in [(".csv", DatasetFormat.csv, false), (".csv.gz", .csv, true),
                                                (".ndjson", .ndjson, false), (".ndjson.gz", .ndjson, true)]
                where name == kind.rawValue + suffix {
                    found[kind, default: []].append(DatasetFile(kind: kind, path: path, format: format, gzip: gzip))
                }
            }
            for kind in DatasetKind.allCases
            where name == kind.rawValue + "." + ParquetLayout.fileExtension || (name == kind.rawValue && !ParquetLayout.shards(of: path).isEmpty) {
                found[kind, default: []].append(DatasetFile(kind: kind, path: path, format: .parquet, gzip: false))
            }
            let ext = name.split(separator: ".").last.map(String.init) ?? ""
            if name.contains("."), sqliteExtensions.contains(ext) {
                for table in try sqliteTables(path) {
                    if let kind = DatasetKind(rawValue: table) {
                        found[kind, default: []].append(DatasetFile(kind: kind, path: path, format: .sqlite, gzip: false))
                    }
                }
            }
        }
        var result: [DatasetKind: DatasetFile] = [:]
        for (kind, files) in found {
            if files.count > 1 {
                throw InputRefusal(
                    file: files[1].name,
                    reason: "base name '\(kind.rawValue)' is present in two formats (\(files.map(\.name).joined(separator: ", ")))"
                )
            }
            result[kind] = files[0]
        }
        return result
    }
}
