// Scenario YAML as `generate` and `run` read it: any text parses or is refused with a ScenarioError.
@_spi(Tooling) import RunResults
@_spi(Tooling) import Scenarios
import FuzzSupport

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let scenario = try? ScenarioParser.parse(text, file: "fuzz.yaml") else { return 0 }
    _ = try? RunPlan.parse(scenario, file: "fuzz.yaml")
    return 0
}

FuzzSupport.main(fuzz)
