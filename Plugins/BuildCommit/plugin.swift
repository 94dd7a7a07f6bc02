import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift`, the commit the package was built from (`simharness --version`), before
/// each build of the target that uses it. The file is rewritten only when the commit changes, so an
/// unchanged checkout recompiles nothing; outside a git checkout the commit reads "unknown".
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let script = """
            set -u
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
            file="$2/BuildCommit.swift"
            text="/// The commit this package was built from (a build-tool plugin writes this file).
            let buildCommit = \\"$commit\\""
            mkdir -p "$2"
            [ -f "$file" ] && [ "$(cat "$file")" = "$text" ] || printf '%s\\n' "$text" > "$file"
            """
        return [
            .prebuildCommand(
                displayName: "Recording the commit of \(context.package.displayName)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "sh", context.package.directoryURL.path, output.path],
                outputFilesDirectory: output
            ),
        ]
    }
}
