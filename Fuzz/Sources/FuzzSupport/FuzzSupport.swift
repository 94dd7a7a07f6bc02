import Analysis
import Datasets
import Foundation
import HealthCore

/// What the fuzz targets share: a directory of users, lines of an input, scratch files, and the
/// analyze engine run synchronously.
public enum FuzzSupport {
    /// 60 accepted users `u0000000`…`u0000059` (numbered ids, as `generate` writes them).
    public static let users = UserDirectory(profiles: (0..<60).map { index in
        let digits = String(index)
        return UserProfile(
            id: "u" + String(repeating: "0", count: 7 - digits.count) + digits, utcOffsetMinutes: Int32(index * 15 - 450),
            fastingProtocol: FastingProtocol.allCases[index % FastingProtocol.allCases.count], sex: nil, age: 40,
            weightKg: 70, heightCm: 170, activity: nil
        )
    })

    /// The lines of `bytes` (without their `\n`), as buffers into it.
    public static func lines(_ bytes: UnsafeBufferPointer<UInt8>) -> [UnsafeBufferPointer<UInt8>] {
        var lines: [UnsafeBufferPointer<UInt8>] = []
        var start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: "\n") {
            lines.append(UnsafeBufferPointer(rebasing: bytes[start..<i]))
            start = i + 1
        }
        return lines
    }

    /// A fresh scratch directory of this process, removed when the process exits (libFuzzer ends by
    /// `exit`; a crash leaves it for the post-mortem).
    public static func scratch() -> String {
        let path = NSTemporaryDirectory() + "simharness-fuzz-\(getpid())-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        scratchDirectory = path
        atexit {
            if let path = scratchDirectory { try? FileManager.default.removeItem(atPath: path) }
        }
        return path
    }

    /// Runs `analyze` on `input` to its end; returns the output files' texts, or the refusal.
    public static func analyze(_ input: String, chunkBytes: Int, tasks: Int = 2) -> Result<[String: String], InputRefusal> {
        let out = input + "/out-\(chunkBytes)"
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                _ = try await DatasetAnalyzer.run(input: input, output: out, options: AnalysisOptions(tasks: tasks, chunkBytes: chunkBytes))
                box.result = .success(Dictionary(uniqueKeysWithValues: ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).map {
                    ($0, (try? String(contentsOfFile: out + "/" + $0, encoding: .utf8)) ?? "")
                }))
            } catch let refusal as InputRefusal {
                box.result = .failure(refusal)
            } catch {
                fatalError("analyze failed otherwise than by refusing the input: \(error)")
            }
            done.signal()
        }
        done.wait()
        return box.result!
    }

    private final class ResultBox: @unchecked Sendable {
        var result: Result<[String: String], InputRefusal>?
    }
}

/// The entry point libFuzzer calls with each input.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ test: FuzzTest
) -> CInt

extension FuzzSupport {
    /// Hands the process to libFuzzer's driver (its command line: corpus directories, `-runs`,
    /// `-max_total_time`, …) with `test` as the target, and exits with its status. SwiftPM names an
    /// executable's entry point `<target>_main`, so libFuzzer's own `main` cannot be the entry point.
    public static func main(_ test: @escaping FuzzTest) -> Never {
        target = test
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput))
    }
}

/// The scratch directory to remove at exit (one a process: each target asks once, before fuzzing).
nonisolated(unsafe) private var scratchDirectory: String?

/// The target `main` was given (libFuzzer runs it on one thread).
nonisolated(unsafe) private var target: FuzzTest?

/// libFuzzer's entry point by its usual name (its runtime refers to it), calling the target.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    target?(data, size) ?? 0
}
