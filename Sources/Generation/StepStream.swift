@_spi(Tooling) import HealthCore
@_spi(Tooling) import Scenarios

extension UserGenerator {
    /// Appends the user's step samples: walking bouts placed by a circadian profile, recorded by the
    /// phone when carried and, for watch owners, by the watch when worn, in chunks whose edges
    /// differ from the phone's, so the two overlap as real devices do.
    func steps(into batch: inout SimulationBatch) {
        guard boundaryPlan == nil else { return boundarySteps(into: &batch) }
        let model = scenario.steps
        let gaussian = context.gaussian
        var random = stream(.steps)
        var faults = stream(.stepFaults)
        let rates = context.stepFaults
        let user = profile.row.index
        let first = batch.steps.count
        var ordinal: UInt32 = 0
        let minSeconds = Int64(model.boutMinutesMin) * 60
        let maxSeconds = Int64(model.boutMinutesMax) * 60
        let carriesPhone = Chance(model.phoneCarry), watchOff = Chance(profile.watchOffRate), idleAfter = Chance(0.1)

        func add(_ start: Int64, _ end: Int64, steps: Int64, source: StepSource, into rows: inout RowWriter<StepRow>) {
            var row = StepRow(
                user: user, ordinal: ordinal, start: start, end: end, countMilli: Int32(steps * 1000), source: source,
                fault: nil, variant: 0, late: false
            )
            ordinal += 1
            guard let fault = rates.draw(&faults) else {
                rows.append(row)
                return
            }
            if fault == .duplicate {
                // An exact redelivered copy: only the tag differs, never the written bytes.
                rows.append(row)
                row.fault = .duplicate
            } else {
                row.fault = fault
                switch fault {
                case .malformed: row.variant = UInt8(faults.below(4))
                case .badInterval:
                    switch faults.below(3) {
                    case 0: row.end = row.start
                    case 1: row.end = row.start - faults.integer(1, 3600)
                    default: row.end = row.start + StepRejection.maximumDuration + faults.integer(1, 3600)
                    }
                case .negativeValue: row.countMilli = -row.countMilli - 1000
                default: break
                }
            }
            rows.append(row)
        }

        for day in 0..<scenario.days {
            let midnight = dayStart(day)
            let bouts = random.poisson(expMinusMean: context.boutExpMinusMean)
            var boutTimes = batch.dayTimes.writer(room: bouts)
            for _ in 0..<bouts {
                let hour = context.boutHours.draw(&random)
                boutTimes.append(hour * 3600 + random.integer(0, 3599) + profile.chronotype)
            }
            let times = boutTimes.written
            sortShort(times)
            // A bout writes at most five rows (phone, three watch pieces, an idle piece), each at most twice (a duplicate).
            var rows = batch.stepDay.writer(room: 10 * bouts)
            for i in 0..<bouts {
                let start = midnight + times[i]
                let duration = random.integer(minSeconds, maxSeconds)
                let end = start + duration
                let walked = max(0, profile.cadence * Double(duration) / 60 * (1 + 0.3 * gaussian.draw(&random)))
                if random.chance(carriesPhone) {
                    add(start, end, steps: Int64(walked * random.uniform(0.85, 1.0)), source: .phone, into: &rows)
                }
                guard profile.row.hasWatch, !random.chance(watchOff) else { continue }
                let watchStart = start - random.integer(0, 60)
                let watchEnd = end + random.integer(0, 60)
                let pieces = Int64(1 + random.below(3))
                let seen = walked * random.uniform(0.95, 1.05)
                let span = watchEnd - watchStart
                var pieceStart = watchStart
                for piece in 1...pieces {
                    let pieceEnd = piece == pieces ? watchEnd : watchStart + span * piece / pieces
                    add(pieceStart, pieceEnd, steps: Int64(seen / Double(pieces)), source: .watch, into: &rows)
                    pieceStart = pieceEnd
                }
                if random.chance(idleAfter) {
                    // Worn but idle after the walk: a sample of zero steps still covers its interval.
                    add(watchEnd, watchEnd + random.integer(600, 1800), steps: 0, source: .watch, into: &rows)
                }
            }
            rows.append(to: &batch.steps)
        }
        shuffleLate(&batch.steps, from: first, chance: rates.outOfOrder, using: &faults)
    }
}
