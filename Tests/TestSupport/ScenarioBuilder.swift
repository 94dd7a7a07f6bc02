@_spi(Tooling) import Scenarios

/// Builds small scenarios for tests: `users` users over `days` days from `seed`, then any change.
package struct ScenarioBuilder: Sendable {
    private var scenario = Scenario(name: "test")

    package init(users: Int = 40, days: Int = 3, seed: UInt64 = 99) {
        scenario.users = users
        scenario.days = days
        scenario.seed = seed
    }

    package func with(_ change: (inout Scenario) -> Void) -> ScenarioBuilder {
        var copy = self
        change(&copy.scenario)
        return copy
    }

    /// No injected faults at all.
    package func clean() -> ScenarioBuilder {
        with {
            $0.faults.defaultRate = 0
            $0.faults.mealsOutOfOrder = 0
            $0.faults.stepsOutOfOrder = 0
            $0.faults.paymentsOutOfOrder = 0
        }
    }

    /// Every fault of SPEC at a visible rate, a flaky gateway, many refunds and retries.
    package func faulty() -> ScenarioBuilder {
        with {
            $0.faults.defaultRate = 0.02
            $0.faults.users = [.malformed: 0.03, .duplicate: 0.03]
            $0.faults.mealsOutOfOrder = 0.05
            $0.faults.stepsOutOfOrder = 0.05
            $0.faults.paymentsOutOfOrder = 0.05
            $0.payments.perUserPerDay = 3
            $0.payments.refundRate = 0.3
            $0.payments.retryRate = 0.1
            $0.payments.timeoutRate = 0.1
            $0.payments.lostRate = 0.05
            $0.payments.declineRate = 0.1
        }
    }

    package func build() -> Scenario { scenario }
}
