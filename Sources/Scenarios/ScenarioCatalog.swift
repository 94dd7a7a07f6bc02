import Foundation

/// Finds scenarios by name or path: a path to a YAML file, else `Scenarios/NAME.yaml` under the
/// current directory, else the copy of the shipped scenario embedded in the binary.
package enum ScenarioCatalog {
    /// The names of the shipped scenarios.
    package static var names: [String] { EmbeddedScenarios.texts.keys.sorted() }

    /// The embedded text of a shipped scenario.
    package static func embeddedText(_ name: String) -> String? { EmbeddedScenarios.texts[name] }

    /// Loads and validates a scenario.
    package static func load(_ nameOrPath: String, currentDirectory: String = FileManager.default.currentDirectoryPath) throws(ScenarioError) -> Scenario {
        let looksLikePath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".yaml") || nameOrPath.hasSuffix(".yml")
        if looksLikePath {
            let path = nameOrPath.hasPrefix("/") ? nameOrPath : currentDirectory + "/" + nameOrPath
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ScenarioError(file: nameOrPath, line: nil, message: "cannot read the scenario file")
            }
            return try ScenarioParser.parse(text, file: nameOrPath)
        }
        let local = currentDirectory + "/Scenarios/" + nameOrPath + ".yaml"
        if let text = try? String(contentsOfFile: local, encoding: .utf8) {
            return try ScenarioParser.parse(text, file: "Scenarios/\(nameOrPath).yaml")
        }
        if let text = EmbeddedScenarios.texts[nameOrPath] {
            return try ScenarioParser.parse(text, file: "\(nameOrPath).yaml (embedded)")
        }
        throw ScenarioError(
            file: nameOrPath, line: nil,
            message: "no such scenario: not a file, not in ./Scenarios, and not one of \(names.joined(separator: ", "))"
        )
    }
}
