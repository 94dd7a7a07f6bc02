@_spi(Tooling) import Analysis
import Datasets
import Foundation
import HealthCore
import UserProfiles

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

extension FuzzSupport {
    /// Renders the output rows an accepted meal or step sample feeds (`fasting_daily`'s kcal, one
    /// day's `steps` and `avg7`) with the writer of the SPEC files, and checks each number's text: what
    /// turns results into text is fuzzed with every value the readers let through.
    public static func render(kcalMicros: Int64, count: Double?) {
        var writer = SpecRowWriter(capacity: 64)
        let day = FastingDay(
            day: LocalDay(index: 0), episodes: 1, kcalMicros: kcalMicros, eatingWindowSeconds: 0, fastsEnded: 0, longestFastEndedSeconds: 0, compliant: nil
        )
        writer.fastingDayFields(day)
        if let count {
            writer.stepDayFields(StepDay(day: LocalDay(index: 0), steps: count, average7: count / 7))
            writer.stepDayFields(StepDay(day: LocalDay(index: 1), steps: count * 1e300, average7: -count))
        }
        let text = Array(writer.buffer.bytes)
        for line in text.split(separator: UInt8(ascii: "\n")) {
            for field in line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).dropFirst(2).prefix(2) {
                precondition(isNumberText(field), "output number not printed with 3 decimals: \(String(decoding: field, as: UTF8.self))")
            }
        }
    }

    /// `-?[0-9]+\.[0-9]{3}`, `inf` or `-inf` (a count is never NaN), or an integer.
    static func isNumberText(_ field: ArraySlice<UInt8>) -> Bool {
        var digits = field.drop { $0 == UInt8(ascii: "-") }
        if digits.elementsEqual("inf".utf8) { return true }
        if let point = digits.firstIndex(of: UInt8(ascii: ".")) {
            guard digits.distance(from: point, to: digits.endIndex) == 4 else { return false }
            digits.remove(at: point)
        }
        return !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
