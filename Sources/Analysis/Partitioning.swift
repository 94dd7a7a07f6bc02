import Datasets

/// An accepted row that belongs to one user and may turn out to repeat an earlier row's id.
protocol UserOwned: Sendable, BitwiseCopyable {
    var user: UInt32 { get }
    var duplicate: Bool { get set }
}

extension MealCandidate: UserOwned {}
extension StepCandidate: UserOwned {}

/// Splits the users into contiguous index ranges, so that partition order is output order and each
/// partition's rows fit in cache while a task analyzes them. Rows are grouped by partition while the
/// file is scanned, so the split is sized from the file's expected row count.
struct UserPartitions: Sendable {
    /// At most this many partitions: a row's partition fits in a byte.
    static let maximumCount = 256

    let userCount: Int
    let count: Int
    /// The partition of each user.
    private let partitionOfUser: [UInt8]

    init(userCount: Int, expectedRows: Int, tasks: Int) {
        self.userCount = userCount
        let byRows = expectedRows / 50_000 + 1
        count = max(1, min(max(userCount, 1), max(byRows, tasks * 4), Self.maximumCount))
        partitionOfUser = (0..<userCount).map { [count] user in UInt8(truncatingIfNeeded: user * count / userCount) }
    }

    @inline(__always) func partition(ofUser user: UInt32) -> UInt8 { partitionOfUser[Int(user)] }

    /// The users of partition `p`.
    func users(of p: Int) -> Range<Int> {
        func firstUser(_ q: Int) -> Int { (q * userCount + count - 1) / count }
        return firstUser(p)..<firstUser(p + 1)
    }
}
