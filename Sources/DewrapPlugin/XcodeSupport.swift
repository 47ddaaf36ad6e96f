// The build-tool plugin in an Xcode project: Xcode hands a plugin that conforms
// to `XcodeBuildToolPlugin` (module XcodeProjectPlugin, which only Xcode
// provides) each app or framework target that lists it under Build Phases → Run
// Build Tool Plug-ins. The target's `*.swift.dewrap` files, among its input
// files (`XcodeTarget.inputFiles`), are lowered as a package target's are, by
// the same commands (`loweringCommands` in DewrapPlugin.swift).
//
// Written against the API Apple documents and ships in its templates (SwiftPM's
// `swift package init --type build-tool-plugin`, "Xcode Extensions to the
// PackagePlugin API" in its plugin documentation), as SwiftLint's and
// swift-openapi-generator's build plugins do: `XcodePluginContext.xcodeProject
// .directoryURL`, `.pluginWorkDirectoryURL`, `.tool(named:)`, `XcodeTarget
// .inputFiles`. Where XcodeProjectPlugin is absent (SwiftPM on Linux) none of
// this is compiled; `PluginStubTests` type-checks it against a stand-in module.
import Foundation
import PackagePlugin

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension DewrapPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        // By name, whatever type Xcode gives the file (it knows no `.dewrap` type).
        let files = target.inputFiles.map(\.url).filter { $0.lastPathComponent.hasSuffix(".swift.dewrap") }
        // A target without such files has nothing to configure: its settings are not even looked for.
        guard !files.isEmpty else { return [] }
        let project = context.xcodeProject.directoryURL
        // The target's other Swift files are its module (Xcode does not say which targets it depends on).
        let moduleSources = target.inputFiles.map(\.url).filter { $0.pathExtension == "swift" }
        return loweringCommands(
            for: files, under: project, targetName: target.displayName, moduleSources: moduleSources, wrapperSources: [],
            dewrap: try context.tool(named: "dewrap").url,
            configuration: ConfigurationFile.find(in: configurationFolders(for: files, project: project)),
            workDirectory: context.pluginWorkDirectoryURL)
    }
}
#endif

/// Where an Xcode target's `.dewrap.json` is looked for, nearest first: an Xcode target has
/// no folder of its own (a package target's settings are in its folder, or else the
/// package's), so the folder that holds all of its `.swift.dewrap` files, then each folder
/// above it up to the project's folder (the one holding the `.xcodeproj`). Only the
/// project's folder when the files are outside it.
func configurationFolders(for files: [URL], project: URL) -> [URL] {
    let projectPath = project.standardizedFileURL.path
    var common = files.first.map { $0.standardizedFileURL.deletingLastPathComponent().pathComponents } ?? []
    for file in files.dropFirst() {
        let components = file.standardizedFileURL.deletingLastPathComponent().pathComponents
        common = Array(zip(common, components).prefix { $0 == $1 }.map(\.0))
    }
    var folders: [URL] = []
    var folder = common.dropFirst().reduce(URL(fileURLWithPath: "/", isDirectory: true)) {
        $0.appendingPathComponent($1, isDirectory: true)
    }
    while !common.isEmpty {
        let path = folder.standardizedFileURL.path
        guard path == projectPath || path.hasPrefix(projectPath + "/") else { break }
        folders.append(folder)
        if path == projectPath { break }
        folder = folder.deletingLastPathComponent()
    }
    return folders.isEmpty ? [project] : folders
}
