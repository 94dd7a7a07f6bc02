#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Where `generate --format parquet` puts its files: `DIR/meals.parquet` (and
/// `rejected_rows.parquet`), or with `--shard k/n` (n > 1) the Hive layout
/// `DIR/meals/shard=k/part-0.parquet`, so that several shards written into one directory read as
/// one table with a `shard` column in polars, DuckDB and Spark.
public enum ParquetLayout {
    /// The extension of a Parquet file.
    public static let fileExtension = "parquet"
    /// The key-value metadata entry holding `k/n`, the shard a file holds.
    public static let shardKey = "simharness.shard"
    /// The key-value metadata entry holding the table's name.
    public static let tableKey = "simharness.table"

    /// The file of `table` in `directory` for shard `shard` of `shardCount`, and its name relative
    /// to `directory`.
    public static func file(_ table: String, in directory: String, shard: Int, of shardCount: Int) -> (path: String, name: String) {
        let name = shardCount > 1 ? "\(table)/shard=\(shard)/part-0.\(fileExtension)" : "\(table).\(fileExtension)"
        return (directory + "/" + name, name)
    }

    /// The shard directories of a Hive-partitioned table directory, by shard number, each with
    /// its Parquet files sorted by name; empty when `path` is not such a directory.
    public static func shards(of path: String) -> [(shard: Int, files: [String])] {
        var result: [(Int, [String])] = []
        for name in entries(of: path) where name.hasPrefix("shard=") {
            guard let shard = Int(name.dropFirst("shard=".count)) else { continue }
            let files = entries(of: path + "/" + name).filter { $0.hasSuffix("." + fileExtension) }.map { path + "/" + name + "/" + $0 }
            if !files.isEmpty { result.append((shard, files)) }
        }
        return result.sorted { $0.0 < $1.0 }
    }

    /// The names in a directory, sorted; empty when it cannot be opened.
    public static func entries(of path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in String(cString: raw.bindMemory(to: CChar.self).baseAddress!) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
