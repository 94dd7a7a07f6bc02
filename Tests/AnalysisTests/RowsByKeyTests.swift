@_spi(Tooling) @testable import Analysis
@testable import Datasets
import PaymentsCore
import TestSupport
import Testing

@Suite("RowsByKey.acceptedByUser: the accepted payment rows of each user")
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
        let sut = RowsByKey.acceptedByUser(rows, users: 4)
        // Then each user holds the indices of its accepted rows, in order
        #expect((0..<4).map { Array(sut[$0]) } == [[1], [], [0, 2, 4], []])
    }
}

@Suite("RowsByKey.byIdRank: payments_outcomes.csv's row order")
struct RowsByIdRankTests {
    @Test("rows come in the rank order of their ids, rows of one id in file order")
    func order() {
        // Given five rows whose ids rank 2, 0, 3, 0 (two rows of the empty id) and 1, among five ids
        let ids: [UInt32] = [4, 1, 3, 1, 0]
        let rank: [UInt32] = [1, 0, 4, 3, 2]
        let rows = ids.enumerated().map { line, id in
            DecodedPayment(request: PaymentBuilder().id(id).build(), user: 0, rejection: nil, column: -1, line: line + 2)
        }
        // When they are ordered for the outcomes file
        let order = RowsByKey.byIdRank(rows, rank: rank).rows
        // Then the empty id's two rows come first in file order, then ranks 1, 2 and 3
        #expect(order == [1, 3, 4, 0, 2])
    }
}
