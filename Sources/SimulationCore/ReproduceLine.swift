/// The command line that runs one world again, as both simulators print it: the environment that chose
/// the service (`BUG=x `), the program, `simulate --seed` with the seed in hex, and the options that shape
/// the world, in order.
@_spi(Tooling) public struct ReproduceLine: Sendable, CustomStringConvertible {
    /// Written before the program: `NAME=value ` for each variable that chose the service; empty for none.
    @_spi(Tooling) public var environment: String
    /// The program: `simharness`, or a user's executable.
    @_spi(Tooling) public var program: String
    /// The world's seed.
    @_spi(Tooling) public var seed: UInt64
    /// The options after the seed, each a name and its value (nil for a flag).
    @_spi(Tooling) public var options: [(name: String, value: String?)]

    /// The line of `program simulate --seed seed` and `options`, after `environment`.
    @_spi(Tooling) public init(program: String, seed: UInt64, options: [(name: String, value: String?)], environment: String = "") {
        self.environment = environment
        self.program = program
        self.seed = seed
        self.options = options
    }

    /// How both simulators spell a seed or a trace hash: `0x` and lowercase hex digits.
    @_spi(Tooling) public static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// `BUG=x payment-sim simulate --seed 0x11 --payments 100 --no-faults`.
    @_spi(Tooling) public var description: String {
        ([environment + program, "simulate", "--seed", Self.hex(seed)] + options.map { option in option.value.map { "--\(option.name) \($0)" } ?? "--\(option.name)" })
            .joined(separator: " ")
    }
}
