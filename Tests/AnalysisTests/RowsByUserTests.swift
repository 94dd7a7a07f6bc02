@testable import Analysis
@testable import Datasets
import PaymentsCore
import TestSupport
import Testing

@Suite("RowsByUser: the accepted payment rows of each user")
struct RowsByUserTests {
    @Test("each user gets its accepted rows in file order; rejected rows and users without rows get none")
    func grouping() {
        // Given rows of users 2, 0, 2, a rejected row of user 1, and 2 again, among 4 users
        let users: [UInt32] = [2, 0, 2, 1, 2]
        let rows = users.enumerated().map { i, user in
            DecodedPayment(request: PaymentBuilder().id(UInt32(i)).build(), user: user,
                           rejection: i == 3 ? .malformed : nil, column: -1, line: i + 2)
        }
        // When they are grouped
        let sut = RowsByUser(rows, users: 4)
        // Then each user holds the indices of its accepted rows, in order
        #expect((0..<4).map { Array(sut[$0]) } == [[1], [], [0, 2, 4], []])
    }
}
