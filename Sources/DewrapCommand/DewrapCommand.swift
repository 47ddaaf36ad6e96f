// The command plugin: `swift package --allow-writing-to-package-directory
// dewrap [--target T…] [--in-place | --output DIR]` lowers the `.swift` and
// `.swift.dewrap` files of the chosen targets (all source targets by default)
// with the `dewrap` executable, with the settings of the target's (or else the
// package's) `.dewrap.json`, as the build plugin.
//
// `--help` prints the usage and writes nothing, but SwiftPM asks for the
// permissions a command plugin declares before it builds or starts the plugin
// (PluginCommand.swift in swift-package-manager: no exception for --help), so
// the help too needs --allow-writing-to-package-directory, or a "yes" in a
// terminal. Declaring no permission would let `swift package dewrap --help`
// run as is, but then nothing would ask before files are rewritten (Linux has
// no plugin sandbox), which matters more.
import Foundation
import PackagePlugin

let usage = """
    OVERVIEW: Lower property wrappers in the package's .swift and .swift.dewrap files with dewrap.

    USAGE: swift package --allow-writing-to-package-directory dewrap [--target T ...] (--in-place | --output DIR)

    OPTIONS:
      --target T      Lower the files of target T (repeatable; default: every source target).
      --in-place      Rewrite each file; a file whose lowering equals it is not touched.
      --output DIR    Write each lowered file into DIR, named without '.dewrap'.
      -h, --help      Show this help; nothing is written.

    SwiftPM asks for the plugin's write permission before it starts it, even for --help:
    give --allow-writing-to-package-directory, or answer 'yes' when asked in a terminal.
    The dewrap command itself has more options: see 'dewrap --help' or the README.

    """

@main
struct DewrapCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        if arguments.contains("--help") || arguments.contains("-h") {
            print(usage, terminator: "")
            return
        }
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let inPlace = extractor.extractFlag(named: "in-place") > 0
        let output = extractor.extractOption(named: "output").last
        guard extractor.remainingArguments.isEmpty else {
            throw CommandError("unknown arguments: \(extractor.remainingArguments.joined(separator: " "))")
        }
        guard inPlace != (output != nil) else {
            throw CommandError("give either --in-place or --output DIR")
        }
        let targets =
            try targetNames.isEmpty
            ? context.package.targets.compactMap { $0 as? SourceModuleTarget }
            : context.package.targets(named: targetNames).compactMap { $0 as? SourceModuleTarget }
        // Each file with its target's settings, as the build plugin finds them: the
        // target's .dewrap.json, or else the package's (README, "Settings").
        let files = targets.flatMap { target in
            let configuration = [target.directoryURL, context.package.directoryURL]
                .map { $0.appendingPathComponent(".dewrap.json") }
                .first { FileManager.default.fileExists(atPath: $0.path) }
            return target.sourceFiles
                .filter { $0.url.path.hasSuffix(".swift") || $0.url.path.hasSuffix(".swift.dewrap") }
                .map { (path: $0.url.path, configuration: configuration) }
        }
        guard !files.isEmpty else {
            print("dewrap: no .swift or .swift.dewrap files in the chosen targets")
            return
        }
        let dewrap = try context.tool(named: "dewrap").url
        var status: Int32 = 0
        // One call per file keeps the names in `--output` distinct and each result atomic.
        for (file, configuration) in files {
            var arguments = [file]
            if let configuration { arguments = ["--config", configuration.path] + arguments }
            if inPlace {
                arguments.insert("--in-place", at: 0)
            } else if let output {
                let name = URL(fileURLWithPath: file).lastPathComponent
                let lowered = name.hasSuffix(".dewrap") ? String(name.dropLast(".dewrap".count)) : name
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                arguments += ["-o", URL(fileURLWithPath: output).appendingPathComponent(lowered).path]
            }
            let process = try Process.run(dewrap, arguments: arguments)
            process.waitUntilExit()
            if process.terminationStatus != 0 { status = process.terminationStatus }
        }
        if status != 0 { throw CommandError("dewrap reported errors (exit status \(status))") }
    }
}

struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
