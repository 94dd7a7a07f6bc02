// NDJSON rows of every kind through the tokenizer and the decoders: never a crash, and a row the
// tokenizer calls whole has every column.
import Datasets
import FuzzSupport
import HealthCore

nonisolated(unsafe) let tokenizers = DatasetKind.allCases.map { RowTokenizer(kind: $0, format: .ndjson) }

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    for line in FuzzSupport.lines(UnsafeBufferPointer(start: data, count: size)) {
        for tokenizer in tokenizers {
            guard case .row = tokenizer.tokenize(line) else { continue }
            switch tokenizer.kind {
            case .users: _ = RowDecoders.user(tokenizer.fields)
            case .meals:
                if case .accepted(let meal, _) = RowDecoders.meal(tokenizer.fields, users: FuzzSupport.users) {
                    FuzzSupport.render(kcalMicros: meal.kcalMicros, count: nil)
                }
            case .steps:
                if case .accepted(let step, _) = RowDecoders.step(tokenizer.fields, users: FuzzSupport.users) {
                    FuzzSupport.render(kcalMicros: 0, count: step.count)
                }
            case .payments:
                var decoder = PaymentRowDecoder(users: FuzzSupport.users, file: "payments.ndjson")
                _ = try? decoder.decode(line: 1, malformedColumn: nil, fields: tokenizer.fields, tokenized: true)
            }
        }
    }
    return 0
}

FuzzSupport.main(fuzz)
