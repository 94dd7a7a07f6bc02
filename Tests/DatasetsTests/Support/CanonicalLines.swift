import Datasets
@_spi(Tooling) import HealthCore
import UserProfiles
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// A candidate of any kind with its id hash (a user with the length of its id), so that the
/// checks of every kind share one shape.
enum Candidate: Equatable, CustomStringConvertible {
    case meal(MealCandidate, idHash: UInt64)
    case step(StepCandidate, idHash: UInt64)
    case user(UserProfile, idCount: Int)

    static func meal(start: Int64, kcalMicros: Int64, idHash: UInt64, user: UInt32, duration: UInt16) -> Candidate {
        .meal(MealCandidate(start: start, kcalMicros: kcalMicros, user: user, duration: duration), idHash: idHash)
    }

    static func step(start: Int64, count: Double, idHash: UInt64, user: UInt32, duration: UInt32, source: StepSource) -> Candidate {
        .step(StepCandidate(start: start, count: count, user: user, duration: duration, source: source), idHash: idHash)
    }

    var description: String {
        switch self {
        case .meal(let c, let h): "meal(start \(c.start), duration \(c.duration), kcal µ \(c.kcalMicros), user \(c.user), hash \(h))"
        case .step(let c, let h): "step(start \(c.start), duration \(c.duration), count \(c.count), \(c.source), user \(c.user), hash \(h))"
        case .user(let p, let n): "user(\(p.id.debugDescription) of \(n) bytes, \(p.utcOffsetMinutes) min, \(p.fastingProtocol), " +
            "\(p.sex.map(\.rawValue) ?? "nil"), \(p.age) y, \(p.weightKg) kg, \(p.heightCm) cm, \(p.activity.map(\.rawValue) ?? "nil"))"
        }
    }
}

/// What both paths make of the line at `start` of a chunk: the fast path's answer, and the
/// general path's (`RowTokenizer` under the canonical header, then `RowDecoders`) on the bytes up
/// to the line's first `\n` (or the chunk's end), which is `lineEnd`.
struct BothPaths: CustomStringConvertible {
    var line: [UInt8]
    var fast: (candidate: Candidate, lineEnd: Int)?
    var general: Candidate?
    var lineEnd: Int

    /// The contract: a fast answer is the general path's accepted candidate, with the line's end.
    var keepsContract: Bool { fast.map { $0.candidate == general && $0.lineEnd == lineEnd } ?? true }

    var description: String {
        let text = String(decoding: line, as: UTF8.self).debugDescription
        return "\(text): fast \(fast.map { "\($0.candidate) to \($0.lineEnd)" } ?? "nil"), general \(general.map(\.description) ?? "nil") to \(lineEnd)"
    }
}

/// Runs both paths of one kind against a user directory.
struct PathRunner {
    let kind: DatasetKind
    let users: UserDirectory
    private let tokenizer: RowTokenizer

    init(_ kind: DatasetKind, users: UserDirectory = twoUsers) throws {
        self.kind = kind
        self.users = users
        tokenizer = try RowTokenizer.csv(kind)
    }

    /// Both paths on the line at `start` of `chunk`, which ends at `end`.
    func run(_ chunk: UnsafePointer<UInt8>, start: Int, end: Int) -> BothPaths {
        var lineEnd = start
        while lineEnd < end, chunk[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        let line = UnsafeBufferPointer(start: chunk + start, count: lineEnd - start)
        return BothPaths(line: Array(line), fast: fast(chunk, start: start, end: end), general: general(line), lineEnd: lineEnd)
    }

    /// Both paths on `line`, placed after another line and followed by `"\n" + next`.
    func run(_ line: [UInt8], next: [UInt8] = Array("m9,u0000001,1,2,lunch,1,1,1,1".utf8)) -> BothPaths {
        let previous = Array("previous,line\n".utf8)
        let chunk = previous + line + [UInt8(ascii: "\n")] + next
        return chunk.withUnsafeBufferPointer { run($0.baseAddress!, start: previous.count, end: $0.count) }
    }

    func run(_ line: String) -> BothPaths { run(Array(line.utf8)) }

    private func fast(_ chunk: UnsafePointer<UInt8>, start: Int, end: Int) -> (candidate: Candidate, lineEnd: Int)? {
        switch kind {
        case .meals: CanonicalRows.meal(chunk, start: start, end: end, users: users).map { (.meal($0.0, idHash: $0.idHash), $0.lineEnd) }
        case .users: CanonicalRows.user(chunk, start: start, end: end).map { (.user($0.profile, idCount: $0.idCount), $0.lineEnd) }
        default: CanonicalRows.step(chunk, start: start, end: end, users: users).map { (.step($0.0, idHash: $0.idHash), $0.lineEnd) }
        }
    }

    private func general(_ line: UnsafeBufferPointer<UInt8>) -> Candidate? {
        guard tokenizer.tokenize(line) == .row else { return nil }
        switch kind {
        case .meals:
            guard case .accepted(let candidate, let idHash) = RowDecoders.meal(tokenizer.fields, users: users) else { return nil }
            return .meal(candidate, idHash: idHash)
        case .users:
            guard case .success(let profile) = RowDecoders.user(tokenizer.fields) else { return nil }
            return .user(profile, idCount: tokenizer.fields[0].count)
        default:
            guard case .accepted(let candidate, let idHash) = RowDecoders.step(tokenizer.fields, users: users) else { return nil }
            return .step(candidate, idHash: idHash)
        }
    }
}

/// Bytes placed right before an unreadable page: a parser that reads past their end crashes the
/// test instead of reading whatever follows.
final class GuardedChunk {
    private let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    private let region: UnsafeMutableRawPointer

    init() {
        region = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        precondition(region != MAP_FAILED && mprotect(region + page, page, PROT_NONE) == 0, "cannot map a guard page")
    }

    deinit { munmap(region, 2 * page) }

    /// Calls `body` with `bytes` (at most a page) copied to end where the unreadable page begins.
    func withBytes<R>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>) -> R) -> R {
        precondition(bytes.count <= page, "at most one page")
        let start = (region + page - bytes.count).bindMemory(to: UInt8.self, capacity: bytes.count)
        bytes.withUnsafeBufferPointer { if let source = $0.baseAddress { start.update(from: source, count: bytes.count) } }
        return body(start)
    }
}

/// Users whose ids have 1 to 20 bytes, all but commas and newlines: `ids[i]` has index `i`.
struct OddUsers {
    let ids: [[UInt8]]
    let directory: UserDirectory

    init(ids unsorted: [[UInt8]]) {
        let profiles = unsorted.map {
            UserProfile(id: String(decoding: $0, as: UTF8.self), utcOffsetMinutes: 0, fastingProtocol: .none, sex: .male, age: 40,
                        weightKg: 80, heightCm: 180, activity: .light)
        }
        let directory = UserDirectory(profiles: profiles)
        ids = (0..<directory.count).map { index in directory.ids.withBytes(index) { Array($0) } }
        self.directory = directory
    }
}
