// Run-result JSON as `merge` reads it: any bytes decode or are refused; what decodes survives a
// round trip.
import Foundation
@_spi(Tooling) import RunResults
import FuzzSupport

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    guard let result = try? ResultJSON.decode(Data(bytes: data, count: size)) else { return 0 }
    let again = try! ResultJSON.decode(try! ResultJSON.encode(result))
    precondition(try! ResultJSON.encode(again) == (try! ResultJSON.encode(result)), "a decoded result does not survive a round trip")
    return 0
}

FuzzSupport.main(fuzz)
