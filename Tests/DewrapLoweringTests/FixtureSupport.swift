import DewrapLowering
import DewrapSyntax
import Foundation

/// The repository's `fixtures/` folder and its cases.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")

    static var updating: Bool { ProcessInfo.processInfo.environment["DEWRAP_UPDATE_FIXTURES"] == "1" }

    /// `folder/<case>.swift` inputs (not the `.expected.swift` goldens), as `folder/case`.
    static func cases(in folders: [String]) -> [String] {
        folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".swift") && !$0.hasSuffix(".expected.swift") }
                .map { folder + "/" + $0.dropLast(".swift".count) }
        }.sorted()
    }

    static func url(_ name: String, _ suffix: String) -> URL { root.appendingPathComponent(name + suffix) }

    static func read(_ name: String, _ suffix: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(name, suffix)))
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
        let result = run([
            "-swift-version", "6", "-parse-as-library", "-emit-module", "-module-name", "SwiftUI",
            Fixtures.root.appendingPathComponent("standin/SwiftUI.swift").path,
            "-emit-module-path", folder.appendingPathComponent("SwiftUI.swiftmodule").path,
        ])
        return result.status == 0 ? folder : nil
    }()

    /// The compiler's error lines for `file`; empty when it type-checks.
    static func typeCheck(_ file: URL) -> String {
        guard let standInFolder else { return "the SwiftUI stand-in did not build" }
        let result = run(["-swift-version", "6", "-typecheck", "-I", standInFolder.path, file.path])
        return result.status == 0 ? "" : result.output
    }

    private static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "cannot run swiftc: \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.contains("error:") }.joined(separator: "\n")
        return (process.terminationStatus, output)
    }
}
