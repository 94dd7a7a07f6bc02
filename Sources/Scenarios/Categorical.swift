/// A categorical distribution over values with weights, as a scenario gives it, with the alias table
/// of Walker's method that the generator draws from in O(1) (one random number a draw: `draw(_:)`,
/// in `Generation`).
@_spi(Tooling) public struct Categorical<Value: Sendable & Equatable>: Sendable, Equatable {
    /// The values, in the order given.
    @_spi(Tooling) public let values: [Value]
    /// The normalized weights.
    @_spi(Tooling) public let probabilities: [Double]
    /// Alias table: slot `i` keeps `values[i]` with probability `keep[i]`, else gives its alias's value.
    @_spi(Tooling) public let keep: [Double]
    /// The alias table's two outcomes of each slot `i`, side by side: `values[alias[i]]` at `2i`,
    /// `values[i]` at `2i + 1`. A draw indexes them with its comparison's result, so the coin flip
    /// is not a branch (as a branch it missed about half the time: the step stream's bout hours).
    @_spi(Tooling) public let outcomes: [Value]

    /// `pairs` hold non-negative weights with a positive sum.
    @_spi(Tooling) public init(_ pairs: [(Value, Double)]) {
        let total = pairs.reduce(0) { $0 + $1.1 }
        let values = pairs.map(\.0)
        self.values = values
        probabilities = pairs.map { $0.1 / total }
        let n = pairs.count
        var scaled = probabilities.map { $0 * Double(n) }
        var keep = [Double](repeating: 1, count: n)
        var alias = Array(0..<n)
        var small = (0..<n).filter { scaled[$0] < 1 }
        var large = (0..<n).filter { scaled[$0] >= 1 }
        while let s = small.popLast(), let l = large.popLast() {
            keep[s] = scaled[s]
            alias[s] = l
            scaled[l] -= 1 - scaled[s]
            if scaled[l] < 1 { small.append(l) } else { large.append(l) }
        }
        self.keep = keep
        outcomes = (0..<n).flatMap { [values[alias[$0]], values[$0]] }
    }

    /// The same values with the same weights.
    @_spi(Tooling) public static func == (a: Categorical, b: Categorical) -> Bool { a.values == b.values && a.probabilities == b.probabilities }
}
