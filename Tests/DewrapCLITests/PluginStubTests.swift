import Foundation
import Testing

/// The build plugin's Xcode conformance (`Sources/DewrapPlugin/XcodeSupport.swift`) is
/// compiled only where Xcode's XcodeProjectPlugin module exists. Here it is type-checked
/// against a stand-in of that module (`fixtures/xcode/XcodeProjectPlugin.swift`, the
/// declarations Apple documents), with the toolchain's PackagePlugin module, as SwiftPM
/// compiles a plugin; and without the stand-in, as SwiftPM on Linux compiles it.
@Suite struct PluginStubTests {
    static let pluginSources = fixturesFolder.deletingLastPathComponent().appendingPathComponent("Sources/DewrapPlugin")

    /// The toolchain's PackagePlugin module: `lib/swift/pm/PluginAPI` beside `bin/swiftc`.
    static var pluginAPI: URL? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let swiftc = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
            guard FileManager.default.isExecutableFile(atPath: swiftc.path) else { continue }
            let api = swiftc.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("lib/swift/pm/PluginAPI")
            return FileManager.default.fileExists(atPath: api.appendingPathComponent("PackagePlugin.swiftmodule").path) ? api : nil
        }
        return nil
    }

    /// swiftc with the flags SwiftPM gives a plugin of this package (tools version 6.3).
    static func swiftc(_ arguments: [String], api: URL) throws -> Outcome {
        try runProgram("/usr/bin/env", ["swiftc", "-swift-version", "6", "-package-description-version", "6.3", "-I", api.path] + arguments)
    }

    static func sources() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: pluginSources.path).filter { $0.hasSuffix(".swift") }.sorted()
            .map { pluginSources.appendingPathComponent($0).path }
    }

    @Test func xcodeConformanceTypeChecksAgainstTheDocumentedAPI() throws {
        let api = try #require(Self.pluginAPI, "no PackagePlugin module beside swiftc")
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let stub = try Self.swiftc(
            [
                "-parse-as-library", "-emit-module", "-module-name", "XcodeProjectPlugin",
                fixturesFolder.appendingPathComponent("xcode/XcodeProjectPlugin.swift").path,
                "-emit-module-path", folder.appendingPathComponent("XcodeProjectPlugin.swiftmodule").path,
            ], api: api)
        #expect(stub.status == 0, "the stand-in does not build: \(stub.stderr)")
        // The probe holds only if the `#if canImport(XcodeProjectPlugin)` branch was compiled.
        let probe = folder.appendingPathComponent("Probe.swift")
        try write("import XcodeProjectPlugin\nfunc probe() -> any XcodeBuildToolPlugin.Type { DewrapPlugin.self }\n", to: probe)
        let sources = try Self.sources()
        #expect(sources.contains { $0.hasSuffix("/XcodeSupport.swift") })
        let checked = try Self.swiftc(["-typecheck", "-I", folder.path] + sources + [probe.path], api: api)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(!checked.stderr.contains("error:"))
    }

    @Test func pluginTypeChecksWithoutXcode() throws {
        let api = try #require(Self.pluginAPI, "no PackagePlugin module beside swiftc")
        let checked = try Self.swiftc(["-typecheck"] + Self.sources(), api: api)
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stderr.isEmpty)
    }

    /// Where an Xcode target's `.dewrap.json` is looked for (`configurationFolders`, compiled
    /// on Linux too): built with a driver and run.
    @Test func xcodeSettingsAreLookedForFromTheFilesUpToTheProject() throws {
        let api = try #require(Self.pluginAPI, "no PackagePlugin module beside swiftc")
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = folder.appendingPathComponent("main.swift")
        try write(
            """
            import Foundation
            for files in CommandLine.arguments.dropFirst() {
                let urls = files.split(separator: ",").map { URL(fileURLWithPath: String($0)) }
                print(configurationFolders(for: urls, project: URL(fileURLWithPath: "/p/App")).map(\\.path).joined(separator: " "))
            }

            """, to: driver)
        let program = folder.appendingPathComponent("folders")
        let built = try Self.swiftc(
            [
                "-L", api.path, "-lPackagePlugin", "-Xlinker", "-rpath", "-Xlinker", api.path,
                Self.pluginSources.appendingPathComponent("XcodeSupport.swift").path, driver.path, "-o", program.path,
            ], api: api)
        #expect(built.status == 0, "\(built.stderr)")
        let run = try runProgram(
            program.path,
            [
                "/p/App/App/Views/A.swift.dewrap,/p/App/App/Models/B.swift.dewrap",
                "/p/App/App/Views/A.swift.dewrap",
                "/p/App/A.swift.dewrap",
                "/elsewhere/A.swift.dewrap",
            ])
        #expect(
            run.stdoutText == """
                /p/App/App /p/App
                /p/App/App/Views /p/App/App /p/App
                /p/App
                /p/App

                """)
    }
}
