// Baseline JSON as `baseline check` reads it: any bytes decode or are refused; what decodes survives
// a round trip.
import Foundation
@_spi(Tooling) import RunResults
import FuzzSupport

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    guard let baseline = try? BaselineJSON.decode(Data(bytes: data, count: size)) else { return 0 }
    let again = try! BaselineJSON.decode(try! BaselineJSON.encode(baseline))
    precondition(again == baseline, "a decoded baseline does not survive a round trip")
    return 0
}

FuzzSupport.main(fuzz)
