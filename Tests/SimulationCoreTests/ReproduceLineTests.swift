@_spi(Tooling) import SimulationCore
import Testing

@Suite("The reproduce line both simulators print")
struct ReproduceLineTests {
    @Test("the environment, the program, the seed in hex, then the options in order, a flag bare", arguments: [
        ("", "simharness", 0, [("payments", "3")], "simharness simulate --seed 0x0 --payments 3"),
        ("BUG=x ", "payment-sim", 255, [("clients", "2"), ("no-faults", nil)], "BUG=x payment-sim simulate --seed 0xff --clients 2 --no-faults"),
    ] as [(String, String, UInt64, [(String, String?)], String)])
    func spelling(environment: String, program: String, seed: UInt64, options: [(String, String?)], line: String) {
        // Given a world's seed and options
        let sut = ReproduceLine(program: program, seed: seed, options: options.map { (name: $0.0, value: $0.1) }, environment: environment)
        // When its line is written
        // Then it reads as a command
        #expect(sut.description == line)
    }

    @Test("a seed and a trace hash read as 0x and lowercase hex digits")
    func hex() {
        #expect(ReproduceLine.hex(0xDEAD_BEEF) == "0xdeadbeef")
        #expect(ReproduceLine.hex(.max) == "0xffffffffffffffff")
    }
}
