import ArgumentParser
import Foundation
@_spi(Tooling) import RunEngine
@_spi(Tooling) import Reports
@_spi(Tooling) import RunResults

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Renders a run result (run --json, merge --json) as HTML, Markdown, JUnit XML, OpenMetrics or an HdrHistogram log.",
        discussion: """
            --html writes one self-contained page (verdict, tables and SVG charts; nothing loaded from the network), \
            --markdown a table for a pull-request comment or $GITHUB_STEP_SUMMARY, --junit a JUnit XML file (one test \
            case per threshold and per compared metric), --openmetrics the final metrics for a Pushgateway or a textfile \
            collector, --hdr-log the series' latency histograms in HdrHistogram's interval-log format. --compare or --baseline adds the change of each metric (🔴/🟢 beyond its tolerance); --history \
            adds trend lines over the results in a folder. Exit status: 0 written, 2 unreadable input or a bad option, 3 an \
            output could not be written.
            """
    )

    @Argument(help: "The result file (run --json or merge --json).")
    var result: String

    @Option(help: "Compare with this baseline file (baseline record).")
    var baseline: String?

    @Option(help: "Compare with this other result file.")
    var compare: String?

    @Option(help: "What this run is called beside the --compare run (default: the scenario and the file's name, or its folder's for result.json).")
    var label: String?

    @Option(help: "What the --compare run is called (default: its scenario and file or folder name, as --label).")
    var compareLabel: String?

    @Option(help: "A folder of earlier result files (*.json, in name order) for trend lines.")
    var history: String?

    @Option(help: "Write the HTML report here.") var html: String?
    @Option(help: "Write the Markdown summary here ('-' for stdout).") var markdown: String?
    @Option(help: "Write JUnit XML here.") var junit: String?
    @Option(help: "Write OpenMetrics text here ('-' for stdout).") var openmetrics: String?
    @Option(help: "Write the series' latency histograms as an HdrHistogram interval log here ('-' for stdout).") var hdrLog: String?

    func validate() throws {
        guard [html, markdown, junit, openmetrics, hdrLog].contains(where: { $0 != nil }) else {
            throw ValidationError("give at least one of --html, --markdown, --junit, --openmetrics and --hdr-log")
        }
        guard baseline == nil || compare == nil else { throw ValidationError("give --baseline or --compare, not both") }
        guard compare != nil || (label == nil && compareLabel == nil) else { throw ValidationError("--label and --compare-label go with --compare") }
    }

    func run() async throws {
        let context: ReportContext
        do {
            context = try ReportInputs.context(result: result, baseline: baseline, compare: compare, history: history, labels: (label, compareLabel))
        } catch let error as InvalidInput {
            throw failure("report", error.message, status: HarnessExit.invalidInput)
        }
        let outputs: [(ReportFormat, String?)] = [(.html, html), (.markdown, markdown), (.junit, junit), (.openmetrics, openmetrics), (.hdrlog, hdrLog)]
        for case let (format, path?) in outputs {
            do { try writeOutput(Data(format.render(context).utf8), to: path) } catch {
                throw failure("report", "cannot write \(path): \(error)", status: HarnessExit.internalError)
            }
        }
    }
}

/// Reads the files a report is made of, refusing any that is not what it should be.
enum ReportInputs {
    static func context(
        result path: String, baseline: String?, compare: String?, history: String?, labels: (this: String?, other: String?) = (nil, nil)
    ) throws -> ReportContext {
        var context = ReportContext(result: try readResult(path))
        if let history { context.history = try readHistory(history, excluding: path) }
        do {
            if let compare {
                let other = try readResult(compare)
                var names = (labels.this ?? label(of: context.result, at: path), labels.other ?? label(of: other, at: compare))
                if names.0 == names.1 { names = (names.0 + " (this run)", names.1 + " (compared)") }
                context.label = names.0
                try context.compare(with: other, label: names.1)
            }
            if let baseline {
                guard let data = FileManager.default.contents(atPath: baseline) else { throw InvalidInput(message: "cannot read \(baseline)") }
                let measurement: BaselineMeasurement
                do { measurement = try BaselineJSON.decode(data) } catch { throw InvalidInput(message: "\(baseline): \(error.message)") }
                try context.compare(with: measurement, label: "baseline " + (baseline as NSString).lastPathComponent)
            }
        } catch let error as ReportError {
            throw InvalidInput(message: error.message)
        }
        return context
    }

    /// `spike · pr-123`: the run's scenario and its file's name without `.json`, or its folder's
    /// name for a `result.json` (as `run --report-dir` writes it).
    static func label(of result: RunResult, at path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension().lastPathComponent
        let name = stem == "result" ? url.deletingLastPathComponent().lastPathComponent : stem
        return "\(result.scenario) · \(name)"
    }

    static func readResult(_ path: String) throws -> RunResult {
        guard let data = FileManager.default.contents(atPath: path) else { throw InvalidInput(message: "cannot read \(path)") }
        do { return try ResultJSON.decode(data) } catch { throw InvalidInput(message: "\(path): \(error)") }
    }

    /// The results in `folder` in name order, but the one reported on.
    static func readHistory(_ folder: String, excluding current: String) throws -> [RunResult] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            throw InvalidInput(message: "cannot read the history folder \(folder)")
        }
        let currentPath = URL(fileURLWithPath: current).standardizedFileURL.path
        return try names.filter { $0.hasSuffix(".json") }.sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
            .filter { URL(fileURLWithPath: $0).standardizedFileURL.path != currentPath }
            .map(readResult)
    }
}
