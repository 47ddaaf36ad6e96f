import DewrapLowering
import Foundation
import Testing

/// `fixtures/module/<name>/` is one module (issue 21): its files are lowered together, each
/// seeing the others' declarations as one run of the CLI does, to the goldens in
/// `<name>.expected/`, with no diagnostics; and the files as written and as lowered, built with
/// `fixtures/module/<name>.driver.swift` (or `driver.swift`) against the stand-in, print the same.
/// Files in `<name>/Dependencies/` are another module's (`--wrapper-sources`): read for their
/// wrappers and public declarations, never lowered, built with the module as written.
struct ModuleFixtureTests {
    static let folder = Fixtures.root.appendingPathComponent("module")
    static let modules: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { !$0.hasSuffix(".expected") && !$0.hasSuffix(".swift") }.sorted()

    static func files(of module: String, in subfolder: String? = nil) throws -> [String: [UInt8]] {
        var path = folder.appendingPathComponent(module)
        if let subfolder {
            path = path.appendingPathComponent(subfolder)
            guard FileManager.default.fileExists(atPath: path.path) else { return [:] }
        }
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path.path) where name.hasSuffix(".swift") {
            files[name] = [UInt8](try Data(contentsOf: path.appendingPathComponent(name)))
        }
        return files
    }

    /// Each file lowered with the module's declarations and wrappers, as the CLI does.
    static func lowered(
        _ files: [String: [UInt8]], dependencies: [String: [UInt8]] = [:], asModule: Bool = true
    ) -> [String: LoweringResult] {
        let sources = files.keys.sorted().map { files[$0]! }
        let dependencySources = dependencies.keys.sorted().map { dependencies[$0]! }
        var options = LoweringOptions()
        if asModule {
            options.module = ModuleSources(sources, dependencies: dependencySources)
            // The dependencies' wrappers too, as `--wrapper-sources` gives them.
            options.wrapperShapes = WrapperShapes(readingModule: sources + dependencySources)
        }
        guard asModule else { return files.mapValues { lower($0, fileName: "Module.swift", options: options) } }
        let names = files.keys.sorted()
        // Functions with wrapped parameters called across files: the files that may declare one first,
        // then the others knowing them, then again those a refusal concerns (as the CLI does).
        options.moduleCalls = ModuleCalls()
        var passes = ModuleFunctionPasses(
            early: names.map { name in
                mayDeclareWrappedParameter(files[name]!)
                    ? LoweredFile(source: files[name]!, result: lower(files[name]!, fileName: "Module.swift", options: options)) : nil
            }, paths: names)
        for (index, name) in names.enumerated() where passes.held[index] == nil {
            options.moduleCalls = passes.calls
            passes.held[index] = LoweredFile(source: files[name]!, result: lower(files[name]!, fileName: "Module.swift", options: options))
        }
        while case let stale = passes.staleFiles(), !stale.isEmpty {
            options.moduleCalls = passes.calls
            for index in stale { passes.held[index]!.result = lower(files[names[index]]!, fileName: "Module.swift", options: options) }
            passes.relowered(stale)
        }
        options.moduleCalls = passes.calls
        var results: [String: LoweringResult] = [:]
        for (index, name) in names.enumerated() { results[name] = passes.held[index]!.result }
        // `$x` across files: lowered again, knowing what the others lowered, where it matters (as the CLI does).
        let (projections, relower) = LoweringResult.Projections.acrossFiles(names.map { results[$0]!.projections })
        options.moduleProjections = projections
        options.moduleProjectionMembers = LoweringResult.Projections.projectionMembersAcrossFiles(names.map { results[$0]!.projections })
        for (index, name) in names.enumerated() where relower[index] {
            results[name] = lower(files[name]!, fileName: "Module.swift", options: options)
        }
        return results
    }

    @Test func thereIsAModule() {
        #expect(!Self.modules.isEmpty)
    }

    @Test(arguments: modules)
    func lowersToGoldens(_ module: String) throws {
        let files = try Self.files(of: module)
        let expected = Self.folder.appendingPathComponent(module + ".expected")
        for (name, result) in Self.lowered(files, dependencies: try Self.files(of: module, in: "Dependencies")) {
            #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnostics.map(\.message))")
            if Fixtures.updating { try Data(result.output).write(to: expected.appendingPathComponent(name)) }
            let golden = [UInt8](try Data(contentsOf: expected.appendingPathComponent(name)))
            #expect(String(decoding: result.output, as: UTF8.self) == String(decoding: golden, as: UTF8.self), "\(name)")
        }
    }

    /// One file at a time the same module is not lowered: the test shows what the module adds.
    @Test(arguments: modules)
    func fileByFileLeavesWhatOtherFilesDeclare(_ module: String) throws {
        let files = try Self.files(of: module)
        let alone = Self.lowered(files, asModule: false)
        #expect(alone.values.contains { !$0.diagnostics.isEmpty })
    }

    @Test(arguments: modules)
    func originalAndLoweringBehaveTheSame(_ module: String) throws {
        let files = try Self.files(of: module)
        let dependencies = try Self.files(of: module, in: "Dependencies")
        var driver = Self.folder.appendingPathComponent(module + ".driver.swift")
        if !FileManager.default.fileExists(atPath: driver.path) { driver = Self.folder.appendingPathComponent("driver.swift") }
        let original = Equivalence.run(sources: files.merging(dependencies) { own, _ in own }, driver: driver)
        #expect(!original.isEmpty && !original.contains("build failed") && !original.contains("exit status"), "\(original)")
        let lowered = Self.lowered(files, dependencies: dependencies).mapValues(\.output)
        #expect(Equivalence.run(sources: lowered.merging(dependencies) { own, _ in own }, driver: driver) == original)
    }
}
