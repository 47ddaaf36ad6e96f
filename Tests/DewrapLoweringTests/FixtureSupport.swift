import DewrapLowering
import DewrapSyntax
import DewrapTestSupport
import Foundation

/// The repository's `fixtures/` folder and its cases.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")

    static var updating: Bool { ProcessInfo.processInfo.environment["DEWRAP_UPDATE_FIXTURES"] == "1" }

    /// `source` lowered as the first file of a module with `others`, with `dependencies` as
    /// `--wrapper-sources` gives them (their declarations and wrappers), as the CLI's module run does.
    static func lowered(_ source: String, module others: [String] = [], dependencies: [String]) -> LoweringResult {
        let sources = ([source] + others).map { Array($0.utf8) }
        let dependencySources = dependencies.map { Array($0.utf8) }
        var options = LoweringOptions()
        options.module = ModuleSources(sources, dependencies: dependencySources)
        options.wrapperShapes = WrapperShapes(readingModule: sources + dependencySources)
        return lower(sources[0], fileName: "Model.swift", options: options)
    }

    /// `folder/<case>.swift` inputs (not the `.expected.swift` goldens), as `folder/case`.
    static func cases(in folders: [String]) -> [String] {
        folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".swift") && !$0.hasSuffix(".expected.swift") && !$0.hasSuffix(".driver.swift") }
                .map { folder + "/" + $0.dropLast(".swift".count) }
        }.sorted()
    }

    static func url(_ name: String, _ suffix: String) -> URL { root.appendingPathComponent(name + suffix) }

    static func read(_ name: String, _ suffix: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(name, suffix)))
    }

    /// `source` with one random token mutation: token `a` deleted or doubled, two
    /// tokens swapped, or a token from elsewhere inserted before `a`; nil when the
    /// drawn swap overlaps. `tokens` are the source's, without the end of file.
    static func tokenMutation(of source: [UInt8], tokens: ArraySlice<Token>, random: inout SplitMix64) -> [UInt8]? {
        let a = tokens[Int(random.next() % UInt64(tokens.count))]
        let b = tokens[Int(random.next() % UInt64(tokens.count))]
        var mutated = source
        switch random.next() % 4 {
        case 0: mutated.removeSubrange(a.start..<a.end)
        case 1: mutated.insert(contentsOf: source[a.start..<a.end], at: a.start)
        case 2:
            let (first, second) = a.start < b.start ? (a, b) : (b, a)
            guard first.end <= second.start else { return nil }
            mutated.replaceSubrange(second.start..<second.end, with: source[first.start..<first.end])
            mutated.replaceSubrange(first.start..<first.end, with: source[second.start..<second.end])
        default: mutated.insert(contentsOf: source[b.start..<b.end] + [32], at: a.start)
        }
        return mutated
    }

    /// Diagnostics as `line:col: severity: message` lines.
    static func render(_ diagnostics: [Diagnostic], in source: [UInt8]) -> String {
        let lines = LineTable(source)
        return diagnostics.map { diagnostic in
            let location = lines.location(of: diagnostic.offset)
            return "\(location.line):\(location.column): \(diagnostic.severity.rawValue): \(diagnostic.message)\n"
        }.joined()
    }
}

/// Type-checks Swift files with swiftc (Swift 6 mode) against the project's
/// SwiftUI stand-in (`fixtures/standin/SwiftUI.swift`), built once per run.
enum Compiler {
    static let standInFolder: URL? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dewrap-standin-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = swiftc([
            "-swift-version", "6", "-parse-as-library", "-emit-module", "-module-name", "SwiftUI",
            Fixtures.root.appendingPathComponent("standin/SwiftUI.swift").path,
            "-emit-module-path", folder.appendingPathComponent("SwiftUI.swiftmodule").path,
        ])
        return result.status == 0 ? folder : nil
    }()

    /// The compiler's error lines for `file`; empty when it type-checks.
    static func typeCheck(_ file: URL, swiftVersion: String = "6") -> String {
        guard let standInFolder else { return "the SwiftUI stand-in did not build" }
        let result = swiftc(["-swift-version", swiftVersion, "-typecheck", "-I", standInFolder.path, file.path])
        return result.status == 0 ? "" : result.output
    }

    /// The struct, class, enum and actor declarations and the `func`s as
    /// `swiftc -print-ast` shows them, with the isolation it inferred (SPEC I-2);
    /// attributes sorted, functions whose name starts with `_` left out.
    static func typeAndMethodSignatures(_ file: URL, swiftVersion: String) -> String {
        guard let standInFolder else { return "the SwiftUI stand-in did not build" }
        let result = swiftc(["-swift-version", swiftVersion, "-print-ast", "-I", standInFolder.path, file.path], keepAll: true)
        return result.output.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let keyword = words.firstIndex(where: { ["struct", "class", "enum", "actor", "func"].contains($0) }),
                words[..<keyword].allSatisfy({
                    $0.hasPrefix("@")
                        || [
                            "internal", "private", "fileprivate", "public", "final",
                            "nonisolated", "static", "mutating",
                        ].contains($0)
                })
            else { return nil }
            // The observer helpers a lowering adds (A-5: `_x_willSet`, `_x_didSet`) have no counterpart in the input.
            if words[keyword] == "func", keyword + 1 < words.count, words[keyword + 1].hasPrefix("_") { return nil }
            // Attribute order carries no meaning: an inferred `@MainActor @preconcurrency` prints in that
            // order, a written `@preconcurrency @MainActor` as written.
            let attributes = words[..<keyword].filter { $0.hasPrefix("@") }.sorted()
            return (attributes + words[..<keyword].filter { !$0.hasPrefix("@") } + words[keyword...]).joined(separator: " ")
        }.joined(separator: "\n")
    }

    /// The initializers as `swiftc -print-ast` shows them, synthesized ones
    /// included (SPEC "Oracle"): one signature per line, in order.
    static func initializerSignatures(_ file: URL) -> String {
        guard let standInFolder else { return "the SwiftUI stand-in did not build" }
        let result = swiftc(["-swift-version", "6", "-print-ast", "-I", standInFolder.path, file.path], keepAll: true)
        return InitializerSignatures.lines(in: result.output).joined(separator: "\n")
    }

    /// Runs swiftc; unless `keepAll`, the output keeps only its error lines.
    static func swiftc(_ arguments: [String], keepAll: Bool = false) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "cannot run swiftc: \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let output = keepAll ? text : text.split(separator: "\n").filter { $0.contains("error:") }.joined(separator: "\n")
        return (process.terminationStatus, output)
    }
}

/// Builds a fixture and its driver into a program and runs it: the original
/// and its lowering must print the same (SPEC: the compiler is the judge).
enum Equivalence {
    /// The stand-in as a static library and module, built once per run.
    static let libraryFolder: URL? = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dewrap-standin-lib-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = Compiler.swiftc([
            "-swift-version", "6", "-parse-as-library", "-emit-library", "-static", "-emit-module", "-module-name", "SwiftUI",
            Fixtures.root.appendingPathComponent("standin/SwiftUI.swift").path,
            "-emit-module-path", folder.appendingPathComponent("SwiftUI.swiftmodule").path,
            "-o", folder.appendingPathComponent("libSwiftUI.a").path,
        ])
        return result.status == 0 ? folder : nil
    }()

    /// What the program built from `source` and `driver` printed, or why it could not run.
    static func run(source: [UInt8], driver: URL, swiftVersion: String = "6") -> String {
        run(sources: ["Fixture.swift": source], driver: driver, swiftVersion: swiftVersion)
    }

    /// The same for a module of several files (by file name), built into one program.
    static func run(sources: [String: [UInt8]], driver: URL, swiftVersion: String = "6") -> String {
        guard let library = libraryFolder else { return "the SwiftUI stand-in library did not build" }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dewrap-equivalence-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, source) in sources { try Data(source).write(to: folder.appendingPathComponent(name)) }
            try FileManager.default.copyItem(at: driver, to: folder.appendingPathComponent("main.swift"))
        } catch {
            return "cannot prepare the build: \(error)"
        }
        let program = folder.appendingPathComponent("program")
        let build = Compiler.swiftc(
            [
                "-swift-version", swiftVersion, "-I", library.path, "-L", library.path, "-lSwiftUI",
            ] + sources.keys.sorted().map { folder.appendingPathComponent($0).path } + [
                folder.appendingPathComponent("main.swift").path, "-o", program.path,
            ])
        guard build.status == 0 else { return "build failed:\n" + build.output }
        let process = Process()
        process.executableURL = program
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return "cannot run: \(error)" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self) + (process.terminationStatus == 0 ? "" : "exit status \(process.terminationStatus)\n")
    }
}
