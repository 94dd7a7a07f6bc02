import Foundation
import PaymentServiceCore
import SimHarnessKit

// `payment-sim simulate …` puts the service under SimHarness's deterministic simulation, `payment-sim run` under load. `BUG=<name>`
// plants one of `Bug`'s mistakes in it; without `BUG` (or with it empty) the service is the correct one.
if let name = ProcessInfo.processInfo.environment["BUG"], !name.isEmpty {
    guard let bug = Bug(rawValue: name) else {
        FileHandle.standardError.write(Data(
            "payment-sim: BUG=\(name) is not a planted bug; use one of \(Bug.allCases.map(\.rawValue).joined(separator: ", ")), or no BUG\n".utf8))
        exit(2)
    }
    FileHandle.standardError.write(Data("payment-sim: the service has the planted bug \(bug.rawValue)\n".utf8))
}
// Reproduce lines start with `BUG=<name>` when it is set.
await SimHarness.main(service: SimulatedPaymentService.self, reproducing: ["BUG"])
