@_spi(Tooling) import HealthCore
@_spi(Tooling) import Scenarios
import Testing
@_spi(Tooling) @testable import Generation
import TestSupport

/// The meal model fits each protocol: its days comply unless the user breaks it.
@Suite("Meal model")
struct MealModelTests {
    private func days(breakRate: Double, lateSnackRate: Double) -> [(FastingProtocol, FastingDay)] {
        let sut = Simulator(scenario: ScenarioBuilder(users: 300, days: 10, seed: 12).clean().with {
            $0.meals.breakRate = breakRate
            $0.meals.lateSnackRate = lateSnackRate
        }.build())
        var batch = SimulationBatch()
        sut.fill(&batch, with: sut.allUsers)
        var result: [(FastingProtocol, FastingDay)] = []
        for (i, user) in batch.users.enumerated() {
            let analysis = FastingAnalyzer.analyze(batch.meals(ofUserAt: i).map(\.meal), configuration: user.fastingConfiguration())
            result += analysis.days.map { (user.fastingProtocol, $0) }
        }
        return result
    }

    @Test("without breaks or late snacks every evaluated day is compliant")
    func keptProtocols() {
        // Given users who never break their protocol
        // When their days are analyzed
        let sut = days(breakRate: 0, lateSnackRate: 0)
        // Then every evaluated day complies, and every protocol is present
        let evaluated = sut.filter { $0.1.compliant != nil }
        #expect(evaluated.count > 1000)
        #expect(evaluated.allSatisfy { $0.1.compliant == true })
        #expect(Set(sut.map(\.0)).count == FastingProtocol.allCases.count)
    }

    @Test("when every day breaks the protocol no evaluated day is compliant")
    func brokenProtocols() {
        // Given users who eat outside their window every day
        // When their days are analyzed
        let sut = days(breakRate: 1, lateSnackRate: 0)
        // Then no evaluated day complies
        let evaluated = sut.filter { $0.1.compliant != nil }
        #expect(evaluated.count > 1000)
        #expect(evaluated.allSatisfy { $0.1.compliant == false })
    }

    @Test("late-night snacks cross local midnight on some days")
    func midnightCrossings() {
        // Given a late snack every day (23:20 to 00:20 local, 10 to 40 minutes long)
        let sut = Simulator(scenario: ScenarioBuilder(users: 100, days: 10, seed: 13).clean().with { $0.meals.lateSnackRate = 1 }.build())
        var batch = SimulationBatch()
        sut.fill(&batch, with: sut.allUsers)
        // When the local days of each meal's start and end are compared
        var crossing = 0
        for (i, user) in batch.users.enumerated() {
            for meal in batch.meals(ofUserAt: i) {
                let startDay = LocalDay(instant: meal.start, utcOffsetMinutes: user.utcOffsetMinutes)
                let endDay = LocalDay(instant: meal.end, utcOffsetMinutes: user.utcOffsetMinutes)
                if startDay != endDay { crossing += 1 }
            }
        }
        // Then a sizeable share of the 1,000 snacks crosses midnight (about 60% start after 23:40)
        #expect(crossing > 300 && crossing < 1000)
    }
}
