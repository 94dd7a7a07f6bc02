import Foundation
import Testing

/// The README stays a README: short, its fresh-machine commands are the ones CI runs, and the one step
/// before them installs every system library `Package.swift` names a Debian package for.
@Suite("The README")
struct ReadmeTests {
    /// The longest README, in lines.
    static let maximumLines = 300
    /// The main job, as a fresh machine runs it.
    static let runCommand = "swift run -c release simharness run"
    /// The tests, as CI runs them (coverage with exact counters).
    static let testCommand = "swift test --enable-code-coverage -Xswiftc -Xllvm -Xswiftc -instrprof-atomic-counter-update-all"

    /// The Debian packages `manifest` (a `Package.swift`) names as its system libraries' providers.
    static func aptPackages(in manifest: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: #"\.apt\(\[([^\]]*)\]\)"#)
        return regex.matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)).flatMap { match in
            manifest[Range(match.range(at: 1), in: manifest)!].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        }
    }

    /// What is wrong with `readme` given the CI script `ci` and the package manifest; empty when nothing is.
    static func problems(readme: String, ci: String, manifest: String) -> [String] {
        var found: [String] = []
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - (readme.hasSuffix("\n") ? 1 : 0)
        if lines > maximumLines { found.append("README.md has \(lines) lines, at most \(maximumLines)") }
        let ciLines = ci.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        if !ciLines.contains(where: { $0.hasPrefix(testCommand) }) { found.append(".ci/run does not run the README's test command") }
        for command in [runCommand, testCommand] where !readme.contains(command) {
            found.append("README.md lacks `\(command)`")
        }
        let install = readme.split(separator: "\n").first { $0.contains("apt-get install") }
        for package in aptPackages(in: manifest) where !(install?.contains(package) ?? false) {
            found.append("README.md's apt-get install line lacks \(package)")
        }
        if let install, let run = readme.range(of: runCommand), readme.range(of: install)!.lowerBound > run.lowerBound {
            found.append("README.md installs the system libraries after `\(runCommand)`")
        }
        return found
    }

    @Test("the README is at most 300 lines, installs every system library first and gives the two commands CI runs")
    func readme() throws {
        // Given the README, the CI script and the package manifest
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let ci = try String(contentsOf: repository.appendingPathComponent(".ci/run"), encoding: .utf8)
        let manifest = try String(contentsOf: repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(Self.aptPackages(in: manifest).contains("libzstd-dev"))
        // When they are checked
        let sut = Self.problems(readme: readme, ci: ci, manifest: manifest)
        // Then nothing is wrong
        #expect(sut == [])
    }

    @Test("the check finds a long README, a missing command, a CI script running another test command and a library not installed")
    func checkBites() {
        // Given a README one line too long without the run command, whose install line lacks a library the
        // manifest names, and CI running plain `swift test`
        let readme = String(repeating: "line\n", count: Self.maximumLines - 1) + "apt-get install -y zlib1g-dev\n" + Self.testCommand + "\n"
        let ci = "set -e\nswift test 2>&1 | tee log\n"
        let manifest = #".systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]), .systemLibrary(name: "CZstd", providers: [.apt(["libzstd-dev"]), .brew(["zstd"])])"#
        // When they are checked
        let sut = Self.problems(readme: readme, ci: ci, manifest: manifest)
        // Then all four are named
        #expect(sut == [
            "README.md has 301 lines, at most 300",
            ".ci/run does not run the README's test command",
            "README.md lacks `\(Self.runCommand)`",
            "README.md's apt-get install line lacks libzstd-dev",
        ])
    }

    @Test("the check finds the libraries installed after the run command")
    func installAfterRun() {
        // Given a README that runs first and installs after
        let readme = Self.runCommand + "\n" + Self.testCommand + "\napt-get install -y zlib1g-dev\n"
        // When it is checked
        let sut = Self.problems(readme: readme, ci: Self.testCommand, manifest: #".apt(["zlib1g-dev"])"#)
        // Then the order is named
        #expect(sut == ["README.md installs the system libraries after `\(Self.runCommand)`"])
    }
}
