import Foundation
import Testing

/// The README stays a README: short, and its fresh-machine commands are the ones CI runs.
@Suite("The README")
struct ReadmeTests {
    /// The longest README, in lines.
    static let maximumLines = 300
    /// The main job, as a fresh machine runs it.
    static let runCommand = "swift run -c release simharness run"
    /// The tests, as CI runs them (coverage with exact counters).
    static let testCommand = "swift test --enable-code-coverage -Xswiftc -Xllvm -Xswiftc -instrprof-atomic-counter-update-all"

    /// What is wrong with `readme` given the CI script `ci`; empty when nothing is.
    static func problems(readme: String, ci: String) -> [String] {
        var found: [String] = []
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - (readme.hasSuffix("\n") ? 1 : 0)
        if lines > maximumLines { found.append("README.md has \(lines) lines, at most \(maximumLines)") }
        let ciLines = ci.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        if !ciLines.contains(where: { $0.hasPrefix(testCommand) }) { found.append(".ci/run does not run the README's test command") }
        for command in [runCommand, testCommand] where !readme.contains(command) {
            found.append("README.md lacks `\(command)`")
        }
        return found
    }

    @Test("the README is at most 300 lines and gives the two commands CI runs")
    func readme() throws {
        // Given the README and the CI script
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let ci = try String(contentsOf: repository.appendingPathComponent(".ci/run"), encoding: .utf8)
        // When they are checked
        let sut = Self.problems(readme: readme, ci: ci)
        // Then nothing is wrong
        #expect(sut == [])
    }

    @Test("the check finds a long README, a missing command and a CI script running another test command")
    func checkBites() {
        // Given a README one line too long without the run command, and CI running plain `swift test`
        let readme = String(repeating: "line\n", count: Self.maximumLines) + Self.testCommand + "\n"
        let ci = "set -e\nswift test 2>&1 | tee log\n"
        // When they are checked
        let sut = Self.problems(readme: readme, ci: ci)
        // Then all three are named
        #expect(sut == [
            "README.md has 301 lines, at most 300",
            ".ci/run does not run the README's test command",
            "README.md lacks `\(Self.runCommand)`",
        ])
    }
}
