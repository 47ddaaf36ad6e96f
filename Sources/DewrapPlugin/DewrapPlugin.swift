// The build-tool plugin: every `*.swift.dewrap` file of a target is lowered
// into one generated `.swift` file, with `#sourceLocation` lines so that the
// compiler reports problems at the `.swift.dewrap` file and line. Settings
// come from a `.dewrap.json` file (Configuration.swift). In Xcode projects the
// same plugin lowers an app target's files (XcodeSupport.swift).
//
// Each file is lowered as part of its module (issue 21): the target's plain
// `.swift` files are passed as `--module-sources` (their declarations,
// wrappers and wrapped properties are read, never written) and the Swift files
// of the targets it depends on as `--wrapper-sources` (the wrappers they
// declare), so that no one writes a flag for either. Those files are not the
// lowering commands' inputs: one more command writes a module index
// (`dewrap --write-module-index`: a digest of what lowering reads from each
// file, and what lowering would otherwise read every file for) only when it
// changes, and the lowering commands depend on the index and read it
// (`--module-index`). So touching one `.swift.dewrap` file lowers that file
// again, and touching a plain file lowers them all again only when its
// declarations changed (an edit inside a function body, a comment or the
// layout does not); and a lowering command reads only the plain files that
// declare a wrapper, not all of them.
import Foundation
import PackagePlugin

@main
struct DewrapPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let files = target.sourceFiles(withSuffix: ".swift.dewrap").map(\.url)
        // A target without such files has nothing to configure: its settings are not even looked for.
        guard !files.isEmpty else { return [] }
        let moduleSources = target.sourceFiles(withSuffix: ".swift").map { $0.url }
        let wrapperSources = target.recursiveTargetDependencies
            .compactMap { $0 as? SourceModuleTarget }
            .flatMap { $0.sourceFiles(withSuffix: ".swift").map(\.url) }
        return loweringCommands(
            for: files, under: target.directoryURL, targetName: target.name, moduleSources: moduleSources,
            wrapperSources: wrapperSources, dewrap: try context.tool(named: "dewrap").url,
            configuration: ConfigurationFile.find(in: [target.directoryURL, context.package.directoryURL]),
            workDirectory: context.pluginWorkDirectoryURL)
    }
}

/// The build commands for the `*.swift.dewrap` files in `files`: each lowered with
/// `#sourceLocation` lines into a generated `.swift` file in `workDirectory`, named after its
/// path under `root`, as part of its module (`moduleSources`: the target's plain files;
/// `wrapperSources`: its dependencies' files), and before them the module index they read.
/// Shared by SwiftPM targets (above) and Xcode targets (XcodeSupport.swift).
func loweringCommands(
    for files: [URL], under root: URL, targetName: String, moduleSources: [URL], wrapperSources: [URL], dewrap: URL,
    configuration: ConfigurationFile?, workDirectory: URL
) -> [Command] {
    let root = root.standardizedFileURL.path
    let modulePaths = moduleSources.map { $0.standardizedFileURL.path }.sorted()
    let wrapperPaths = wrapperSources.map { $0.standardizedFileURL.path }.sorted()
    let sources = modulePaths.flatMap { ["--module-sources", $0] } + wrapperPaths.flatMap { ["--wrapper-sources", $0] }
    var commands: [Command] = []
    var indexInputs: [URL] = []
    var indexArguments: [String] = []
    if !sources.isEmpty {
        // Swift comments only: SwiftPM compiles a `.swift` output (an empty file) and would make any other a resource.
        let index = workDirectory.appendingPathComponent("dewrap-module-index.swift")
        commands.append(
            .buildCommand(
                displayName: "Indexing the declarations of \(targetName)'s Swift files for dewrap",
                executable: dewrap,
                // The settings' wrapper and module sources are indexed too.
                arguments: (configuration?.arguments ?? []) + ["--write-module-index", index.path] + sources,
                inputFiles: (modulePaths + wrapperPaths).map { URL(fileURLWithPath: $0) } + [dewrap]
                    + (configuration?.inputFiles ?? []),
                outputFiles: [index]))
        indexInputs = [index]
        indexArguments = modulePaths.isEmpty ? [] : ["--module-index", index.path]
    }
    for file in files {
        let input = file.standardizedFileURL
        var relative = input.path
        if relative.hasPrefix(root + "/") { relative = String(relative.dropFirst(root.count + 1)) }
        let output = workDirectory.appendingPathComponent(generatedName(for: relative))
        commands.append(
            .buildCommand(
                displayName: "Lowering \(relative) with dewrap",
                executable: dewrap,
                arguments: (configuration?.arguments ?? []) + sources + indexArguments
                    + ["--line-directives", "--source-name", input.path, input.path, "-o", output.path],
                inputFiles: [input, dewrap] + indexInputs + (configuration?.inputFiles ?? []),
                outputFiles: [output]))
    }
    return commands
}

/// `Views/Player.swift.dewrap` → `Views_Player.swift`: unique per input path
/// (`_` is doubled first), and a distinct file name, as a Swift module needs.
func generatedName(for relativePath: String) -> String {
    let base = relativePath.hasSuffix(".dewrap") ? String(relativePath.dropLast(".dewrap".count)) : relativePath
    return base.replacingOccurrences(of: "_", with: "__").replacingOccurrences(of: "/", with: "_")
}
