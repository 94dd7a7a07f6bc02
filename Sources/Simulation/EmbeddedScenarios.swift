// Generated from Scenarios/*.yaml: run `SIMHARNESS_RECORD=1 swift test --filter EmbeddedScenarioTests` after editing them.

enum EmbeddedScenarios {
    static let texts: [String: String] = [
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
"""#,
        "load": #"""
# A steady, realistic population: about 10 million rows.
name: load
description: 20,000 users over four weeks with the default habits and fault rates.
seed: 7
users: 20000
days: 28
start_date: 2025-01-06
"""#,
        "smoke": #"""
# A few hundred users over a week: generates in well under a second.
name: smoke
description: Small mixed population over one week, default fault rates.
seed: 42
users: 300
days: 7
start_date: 2025-01-06
"""#,
        "soak": #"""
# Few users over a long time: per-user state over a year of data.
name: soak
description: 3,000 users over a year.
seed: 13
users: 3000
days: 365
start_date: 2024-01-01
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
"""#,
    ]
}
