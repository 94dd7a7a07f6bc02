// CSV rows of meals and steps through the one-pass fast path and the general tokenizer and
// decoders: whatever the fast path accepts, the general path must accept with the same values; every
// accepted value is rendered by the output writers (FuzzSupport.render).
import Datasets
import FuzzSupport
import HealthCore

let mealHeader = Array("meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g".utf8)
let stepHeader = Array("sample_id,user_id,source,start,end,count".utf8)
nonisolated(unsafe) let meals = mealHeader.withUnsafeBufferPointer { try! RowTokenizer(kind: .meals, csvHeader: $0, file: "meals.csv") }
nonisolated(unsafe) let steps = stepHeader.withUnsafeBufferPointer { try! RowTokenizer(kind: .steps, csvHeader: $0, file: "steps.csv") }

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var start = 0
    for line in FuzzSupport.lines(bytes) {
        defer { start += line.count + 1 }
        let end = min(size, start + line.count + 1)
        if let (fast, hash, lineEnd) = CanonicalRows.meal(data, start: start, end: end, users: FuzzSupport.users) {
            precondition(lineEnd == start + line.count, "meal fast path ended the line at \(lineEnd), not \(start + line.count)")
            guard case .row = meals.tokenize(line), case .accepted(let general, let generalHash) = RowDecoders.meal(meals.fields, users: FuzzSupport.users),
                  general == fast, generalHash == hash
            else { fatalError("differential mismatch: the fast path accepted a meal row the general path reads otherwise: \(Array(line))") }
        }
        if let (fast, hash, lineEnd) = CanonicalRows.step(data, start: start, end: end, users: FuzzSupport.users) {
            precondition(lineEnd == start + line.count, "step fast path ended the line at \(lineEnd), not \(start + line.count)")
            guard case .row = steps.tokenize(line), case .accepted(let general, let generalHash) = RowDecoders.step(steps.fields, users: FuzzSupport.users),
                  general == fast, generalHash == hash
            else { fatalError("differential mismatch: the fast path accepted a step row the general path reads otherwise: \(Array(line))") }
        }
        if case .row = meals.tokenize(line), case .accepted(let meal, _) = RowDecoders.meal(meals.fields, users: FuzzSupport.users) {
            FuzzSupport.render(kcalMicros: meal.kcalMicros, count: nil)
        }
        if case .row = steps.tokenize(line), case .accepted(let step, _) = RowDecoders.step(steps.fields, users: FuzzSupport.users) {
            FuzzSupport.render(kcalMicros: 0, count: step.count)
        }
    }
    return 0
}

FuzzSupport.main(fuzz)
