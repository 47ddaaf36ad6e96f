// The command plugin: `swift package --allow-writing-to-package-directory
// dewrap [--target T…] [--in-place | --output DIR]` lowers the `.swift` and
// `.swift.dewrap` files of the chosen targets (all source targets by default)
// with the `dewrap` executable.
import Foundation
import PackagePlugin

@main
struct DewrapCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
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
        let targets = try targetNames.isEmpty
            ? context.package.targets.compactMap { $0 as? SourceModuleTarget }
            : context.package.targets(named: targetNames).compactMap { $0 as? SourceModuleTarget }
        let files = targets.flatMap { target in
            target.sourceFiles.filter { $0.url.path.hasSuffix(".swift") || $0.url.path.hasSuffix(".swift.dewrap") }.map(\.url.path)
        }
        guard !files.isEmpty else {
            print("dewrap: no .swift or .swift.dewrap files in the chosen targets")
            return
        }
        let dewrap = try context.tool(named: "dewrap").url
        var status: Int32 = 0
        // One call per file keeps the names in `--output` distinct and each result atomic.
        for file in files {
            var arguments = [file]
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
