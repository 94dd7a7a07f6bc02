// Generated from Scenarios/*.yaml: run `SIMHARNESS_RECORD=1 swift test --filter EmbeddedScenarioTests` after editing them.

enum EmbeddedScenarios {
    static let texts: [String: String] = [
        "edges": #"""
# Every SPEC boundary, both sides: a tenth of the users sit exactly on each limit and one unit past it.
name: edges
description: 600 users over 14 days; every 10th user plants rows on both sides of every SPEC boundary (docs/boundaries.md).
seed: 35
users: 600
days: 14
start_date: 2025-03-24
boundaries: 0.1
# simharness run: one pass, checked against the reference by default for your own implementations.
load:
  model: fixed
thresholds:
  - invariant_violations == 0
"""#,
        "faults": #"""
# Bad data everywhere: every rejection reason of SPEC at a visible rate.
name: faults
description: 2,000 users over two weeks with high fault rates and a flaky gateway.
seed: 23
users: 2000
days: 14
start_date: 2025-03-29
meals:
  break_rate: 0.2
  late_snack_rate: 0.15
payments:
  per_user_per_day: 1.5
  refund_rate: 0.2
  retry_rate: 0.1
  gateway:
    timeout: 0.1
    lost: 0.05
    decline: 0.1
faults:
  default: 0.01
  users:
    malformed: 0.005
    duplicate: 0.01
  meals:
    duplicate: 0.02
    out_of_order: 0.05
  steps:
    duplicate: 0.02
    out_of_order: 0.05
  payments:
    idempotency_conflict: 0.02
    out_of_order: 0.05
# simharness run: one pass; the analyzers' defences must all fire, and hold.
load:
  model: fixed
thresholds:
  - invariant_violations == 0
  - meals.rejected.duplicate > 0
  - steps.rejected.duplicate > 0
  - payments.rejected.idempotency_conflict > 0
  - payments.deduplicated > 0
"""#,
        "load": #"""
# A steady, realistic population: about 10 million rows.
name: load
description: 20,000 users over four weeks with the default habits and fault rates.
seed: 7
users: 20000
days: 28
start_date: 2025-01-06
# simharness run: as fast as possible for 30 s.
load:
  model: duration
  duration: 30s
thresholds:
  - invariant_violations == 0
  - total.events_per_s > 2e6
  - peak_rss_mb < 300
"""#,
        "smoke": #"""
# A few hundred users over a week: generates in well under a second.
name: smoke
description: Small mixed population over one week, default fault rates.
seed: 42
users: 300
days: 7
start_date: 2025-01-06
# simharness run (the default scenario): 1 million events/s for 10 s, passes over the population.
load:
  model: arrival_rate
  rate: 1000000
  duration: 10s
thresholds:
  - invariant_violations == 0
  - total.events_per_s > 900000         # kept up with the arrival rate
  - dropped_events == 0                 # every event that came due was analyzed
  - behind_schedule_s <= 1              # no batch started more than 1 s late
  - total.p99_batch_latency_ms < 250
  - payments.p99_latency_ms < 2500      # simulated time: retries and backoff included
  - check: peak_rss_mb < 500
    abort_on_fail: true
"""#,
        "soak": #"""
# Few users over a long time: per-user state over a year of data.
name: soak
description: 3,000 users over a year.
seed: 13
users: 3000
days: 365
start_date: 2024-01-01
# simharness run: 10 minutes as fast as possible; fails if resident memory keeps growing.
load:
  model: soak
  duration: 10m
  max_rss_slope_mb_per_min: 1
thresholds:
  - invariant_violations == 0
  - peak_rss_mb < 300
"""#,
        "spike": #"""
# A burst: many users on a single day, with a payment rush and gateway trouble.
name: spike
description: 200,000 users on one day of sales, slow gateway.
seed: 17
users: 200000
days: 1
start_date: 2025-11-28
payments:
  per_user_per_day: 6
  retry_rate: 0.15
  gateway:
    timeout: 0.08
    lost: 0.02
    decline: 0.06
# simharness run: calm, a sudden 16-fold burst for 10 s, calm again.
load:
  model: ramping
  start_rate: 500000
  stages:
    - {duration: 10s, target: 500000}
    - {duration: 1s, target: 8000000}
    - {duration: 10s, target: 8000000}
    - {duration: 1s, target: 500000}
    - {duration: 10s, target: 500000}
thresholds:
  - invariant_violations == 0
  - payments.p99_latency_ms < 5000
  - total.p99_batch_latency_ms < 500
  - dropped_events == 0                 # the burst was absorbed: every event that came due was analyzed
  - behind_schedule_s <= 2              # and caught up within 2 s
"""#,
        "stress": #"""
# Heavy users: more walking, more payments, more watches; about 60 million rows.
name: stress
description: 100,000 heavy users over three weeks.
seed: 11
users: 100000
days: 21
start_date: 2025-01-06
steps:
  bouts_per_day: 14
  watch_share: 0.7
payments:
  per_user_per_day: 2.5
  retry_rate: 0.06
# simharness run: ramp the arrival rate past what the machine sustains, hold, ramp down.
load:
  model: ramping
  start_rate: 1000000
  stages:
    - {duration: 20s, target: 10000000}
    - {duration: 20s, target: 10000000}
    - {duration: 10s, target: 0}
thresholds:
  - invariant_violations == 0
  - total.p99_batch_latency_ms < 500
  # Ramped past what a machine sustains on purpose: the lag and the drops are measured, up to half the schedule.
  - dropped_events < 180e6              # the schedule holds about 360 million events
  - behind_schedule_s < 30
  - check: peak_rss_mb < 1000
    abort_on_fail: true
"""#,
    ]
}
