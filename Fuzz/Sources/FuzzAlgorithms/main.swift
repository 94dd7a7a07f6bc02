// One user's meals and step samples, with any offset and at any instant of Int64 (the ends of its
// range included), through the fasting analyzer and the step aggregator as both engines call them
// (`UserKernel`, twice, so a reused accumulator is checked too). Fasting days
// must equal a plain model whose local days are exact 128-bit floors; step days must be exactly the
// days the samples touch, in order, with totals between the watches' and all the samples' counts and
// 7-day averages that match the emitted days. Input: an offset byte, a base byte (top of Int64,
// bottom, the epoch, 2024), then 8 bytes an event: kind, start after the base (3 bytes), duration
// (3 bytes), count.
import FuzzSupport
import HealthCore
import SpecKernel

/// SPEC §0's local day, computed on 128 bits: no sum can overflow.
func exactDay(_ t: Int64, _ offset: Int32) -> Int64 {
    let shifted = Int128(t) + Int128(offset) * 60
    let (quotient, remainder) = shifted.quotientAndRemainder(dividingBy: 86_400)
    return Int64(remainder < 0 ? quotient - 1 : quotient)
}

struct Events {
    var offset: Int32 = 0
    var meals: [Meal] = []
    var samples: [StepSample] = []

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 2 else { return nil }
        offset = Int32(bytes[0] % 105) * 15 - 720
        let base: Int64 = switch bytes[1] % 4 {
        case 0: .max - 1 << 24
        case 1: .min
        case 2: -(1 << 23)
        default: 1_704_067_200
        }
        var i = 2
        while i + 8 <= bytes.count {
            let kind = bytes[i]
            let start = base + Int64(bytes[i + 1]) << 16 + Int64(bytes[i + 2]) << 8 + Int64(bytes[i + 3])
            let length = Int64(bytes[i + 4]) << 16 + Int64(bytes[i + 5]) << 8 + Int64(bytes[i + 6])
            let amount = bytes[i + 7]
            // Durations are cut where they would end past Int64.max (a start is at most Int64.max − 1).
            let room = start > 0 ? Int64.max - start : .max
            if kind & 1 == 0 {
                meals.append(Meal(start: start, end: start + min(length % 14_401, room), kcalMicros: Int64(amount) * 1_000_000))
            } else {
                let source: StepSource = kind & 2 == 0 ? .phone : .watch
                samples.append(StepSample(start: start, end: start + min(1 + length % 86_400, room), count: Double(amount) * 10, source: source))
            }
            i += 8
        }
    }
}

/// SPEC §2, plainly: episodes, then fasts, then days.
func modelFastingDays(_ meals: [Meal], offset: Int32, fastingProtocol: FastingProtocol, minimumFastSeconds: Int64) -> [FastingDay] {
    var episodes: [(start: Int64, end: Int64, kcal: Int64)] = []
    for meal in meals.sorted(by: Meal.precedes) {
        if let last = episodes.last, meal.start <= last.end {
            episodes[episodes.count - 1].end = max(last.end, meal.end)
            episodes[episodes.count - 1].kcal += meal.kcalMicros
        } else {
            episodes.append((meal.start, meal.end, meal.kcalMicros))
        }
    }
    var days: [FastingDay] = []
    var firstStart: Int64 = 0
    for (k, episode) in episodes.enumerated() {
        let day = exactDay(episode.start, offset)
        if days.last?.day.index != day {
            days.append(FastingDay(day: LocalDay(index: day), episodes: 0, kcalMicros: 0, eatingWindowSeconds: 0,
                                   fastsEnded: 0, longestFastEndedSeconds: 0, compliant: nil))
            firstStart = episode.start
        }
        days[days.count - 1].episodes += 1
        days[days.count - 1].kcalMicros += episode.kcal
        days[days.count - 1].eatingWindowSeconds = episode.end - firstStart
        if k > 0, episode.start - episodes[k - 1].end >= minimumFastSeconds {
            days[days.count - 1].fastsEnded += 1
            days[days.count - 1].longestFastEndedSeconds = max(days[days.count - 1].longestFastEndedSeconds, episode.start - episodes[k - 1].end)
        }
    }
    let limit = fastingProtocol.windowLimitSeconds
    return days.map { day in
        var row = day
        row.compliant = limit.map { day.eatingWindowSeconds <= $0 }
        return row
    }
}

func checkFasting(_ events: Events, kernel: UserKernel) {
    let expected = modelFastingDays(events.meals, offset: events.offset, fastingProtocol: .sixteenEight, minimumFastSeconds: 10_800)
    var summaries: [FastingSummary] = []
    for _ in 0..<2 {
        var meals = events.meals
        var days: [FastingDay] = []
        let summary = meals.withUnsafeMutableBufferPointer {
            kernel.fasting($0, utcOffsetMinutes: events.offset, fastingProtocol: .sixteenEight) { days.append($0) }
        }
        guard days == expected else { fatalError("fasting days differ from the model: \(days) vs \(expected)") }
        guard summary.episodes == expected.reduce(0, { $0 + $1.episodes }), summary.fasts == expected.reduce(0, { $0 + $1.fastsEnded }),
              summary.meals == events.meals.count else {
            fatalError("fasting summary \(summary) does not add up its days")
        }
        summaries.append(summary)
    }
    guard summaries[0] == summaries[1] else { fatalError("a reused fasting accumulator differs: \(summaries)") }
}

func checkSteps(_ events: Events, kernel: UserKernel) {
    let samples = events.samples
    var copy = samples
    var days: [StepDay] = []
    copy.withUnsafeMutableBufferPointer { kernel.steps($0, utcOffsetMinutes: events.offset) { days.append($0) } }
    var touched = Set<Int64>()
    for sample in samples {
        for day in exactDay(sample.start, events.offset)...exactDay(sample.end - 1, events.offset) { touched.insert(day) }
    }
    guard days.map(\.day.index) == touched.sorted() else { fatalError("step days \(days.map(\.day.index)) are not the touched days \(touched.sorted())") }
    let total = days.reduce(0) { $0 + $1.steps }
    let all = samples.reduce(0) { $0 + $1.count }, watches = samples.reduce(0) { $0 + ($1.source == .watch ? $1.count : 0) }
    let slack = 1e-9 * (all + 1)
    guard days.allSatisfy({ $0.steps >= 0 && $0.steps.isFinite }), total >= watches - slack, total <= all + slack else {
        fatalError("step totals \(total) outside [\(watches), \(all)]")
    }
    for day in days {
        let week = days.filter { $0.day.index <= day.day.index && $0.day.index > day.day.index - 7 }.reduce(0) { $0 + $1.steps }
        guard abs(day.average7 - week / 7) <= 1e-9 * (week + 1) else { fatalError("avg7 of day \(day.day.index): \(day.average7) vs \(week / 7)") }
    }
    copy = samples
    var again: [StepDay] = []
    copy.withUnsafeMutableBufferPointer { kernel.steps($0, utcOffsetMinutes: events.offset) { again.append($0) } }
    guard again == days else { fatalError("a reused step accumulator differs: \(again) vs \(days)") }
}

nonisolated(unsafe) let kernel = UserKernel()

func fuzz(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let input, let events = Events(UnsafeBufferPointer(start: input, count: size)) else { return 0 }
    checkFasting(events, kernel: kernel)
    checkSteps(events, kernel: kernel)
    return 0
}

FuzzSupport.main(fuzz)
