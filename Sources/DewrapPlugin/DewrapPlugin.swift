// The build-tool plugin: every `*.swift.dewrap` file of a target is lowered
// into one generated `.swift` file, with `#sourceLocation` lines so that the
// compiler reports problems at the `.swift.dewrap` file and line. Settings
// come from a `.dewrap.json` file (Configuration.swift). In Xcode projects the
// same plugin lowers an app target's files (XcodeSupport.swift).
import Foundation
import PackagePlugin

@main
struct DewrapPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles(withSuffix: ".swift.dewrap").map(\.url)
        // A target without such files has nothing to configure: its settings are not even looked for.
        guard !files.isEmpty else { return [] }
        return loweringCommands(
            for: files, under: target.directoryURL, dewrap: try context.tool(named: "dewrap").url,
            configuration: ConfigurationFile.find(in: [target.directoryURL, context.package.directoryURL]),
            workDirectory: context.pluginWorkDirectoryURL)
    }
}

/// One build command per `*.swift.dewrap` file in `files`: lowered with `#sourceLocation`
/// lines into a generated `.swift` file in `workDirectory`, named after its path under
/// `root`. Shared by SwiftPM targets (above) and Xcode targets (XcodeSupport.swift).
func loweringCommands(
    for files: [URL], under root: URL, dewrap: URL, configuration: ConfigurationFile?, workDirectory: URL
) -> [Command] {
    let root = root.standardizedFileURL.path
    return files.map { file in
        let input = file.standardizedFileURL
        var relative = input.path
        if relative.hasPrefix(root + "/") { relative = String(relative.dropFirst(root.count + 1)) }
        let output = workDirectory.appendingPathComponent(generatedName(for: relative))
        return .buildCommand(
            displayName: "Lowering \(relative) with dewrap",
            executable: dewrap,
            arguments: (configuration?.arguments ?? [])
                + ["--line-directives", "--source-name", input.path, input.path, "-o", output.path],
            inputFiles: [input, dewrap] + (configuration?.inputFiles ?? []),
            outputFiles: [output])
    }
}

/// `Views/Player.swift.dewrap` → `Views_Player.swift`: unique per input path
/// (`_` is doubled first), and a distinct file name, as a Swift module needs.
func generatedName(for relativePath: String) -> String {
    let base = relativePath.hasSuffix(".dewrap") ? String(relativePath.dropLast(".dewrap".count)) : relativePath
    return base.replacingOccurrences(of: "_", with: "__").replacingOccurrences(of: "/", with: "_")
}
