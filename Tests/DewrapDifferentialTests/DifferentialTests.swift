import Foundation
import Testing

/// `dewrap-dev differential` (bin/differential): its programs are the same for
/// the same seed, cover what SPEC describes, and a wrong lowering is reported.
struct DifferentialTests {
    /// The executables SwiftPM puts beside the test bundle.
    static func executable(_ name: String) -> URL {
        var folder = Bundle.main.bundleURL
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        fatalError("\(name) not found near \(Bundle.main.bundleURL.path)")
    }

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dewrap-differential-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `dewrap-dev differential` with `arguments`; its exit status and standard output.
    static func differential(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable("dewrap-dev")
        process.arguments = ["differential"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The generated files of `folder`, by name.
    static func files(in folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }

    @Test func programsAreTheSameForTheSameSeed() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first"), second = folder.appendingPathComponent("second")
        let other = folder.appendingPathComponent("other"), alone = folder.appendingPathComponent("alone")
        #expect(try Self.differential(["--emit", first.path, "--seed", "7", "--count", "40"]).status == 0)
        #expect(try Self.differential(["--emit", second.path, "--seed", "7", "--count", "40"]).status == 0)
        #expect(try Self.differential(["--emit", other.path, "--seed", "8", "--count", "40"]).status == 0)
        // One program made alone (`--index`) is the one made among the others.
        #expect(try Self.differential(["--emit", alone.path, "--seed", "7", "--index", "23"]).status == 0)
        let programs = try Self.files(in: first)
        // A program is one file, sometimes with a second one (`P12.more.swift`).
        #expect(Set(programs.keys.map { $0.split(separator: ".")[0] }).count == 40)
        #expect(programs.keys.contains { $0.hasSuffix(".more.swift") })
        #expect(programs == (try Self.files(in: second)))
        #expect(programs != (try Self.files(in: other)))
        #expect(try Self.files(in: alone) == programs.filter { $0.key.hasPrefix("P23.") })
    }

    /// Across a few dozen programs, every kind of member, type, init and use of SPEC appears.
    @Test func programsCoverTheSpec() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.differential(["--emit", folder.path, "--seed", "1", "--count", "60"]).status == 0)
        let text = try Self.files(in: folder).values.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        let features = [
            "@State ", "@Binding ", "@StateObject ", "@ObservedObject ", "@Published ", "@Environment(\\.locale)",
            "@Environment(\\.self)", "@AppStorage(", "var projectedValue: String", "private(set) var projectedValue",
            "var projectedValue: P", "final class P", "private(set) var", "lazy var", "let ", "@ViewBuilder let content",
            ": @Sendable () -> Void", ": @MainActor () -> Void", ": (() -> Void)?", "_Handler\n", "actor P", ": ObservableObject",
            "class P", "@MainActor struct", ": View {", "public struct", "fileprivate ", "private var", "static let",
            "static var", "didSet", "willSet", "#if", "#else", "init(seed: Int)", "init?(seed: Int, fails: Bool)",
            "self.init(seed: seed * 2)", "convenience init", "init(copying seed: Int)", "init(direct seed: Int)",
            "super.init", "if seed >", "self.$", "other.$", "keyPath: \\", "(tag: \"t", "Codable", "CodingKeys",
            // Functions with wrapped parameters (P-1, P-2), their defaults, and calls from a second file.
            "_shown1(@", ": Int = ", "_traced(", "func P", "The second file of program",
        ]
        for feature in features {
            #expect(text.contains(feature), "no generated program has \(feature)")
        }
    }

    /// The runner can fail: a lowering whose setters forget to store (a plausible bug, made by a script
    /// around dewrap) is reported as different for every program the real lowering keeps the same.
    @Test func aWrongLoweringIsReportedAsDifferent() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dewrap = Self.executable("dewrap").path
        let wrong = folder.appendingPathComponent("wrong-dewrap")
        try Data(
            """
            #!/usr/bin/env bash
            # dewrap, then every lowered setter's store taken out
            "\(dewrap)" "$@" || exit $?
            out="$2"
            sed -i 's/\\(set {\\) _\\([A-Za-z0-9_]*\\)\\.wrappedValue = newValue }/\\1 _ = newValue }/' "$out"/*.swift

            """.utf8
        ).write(to: wrong)
        _ = chmod(wrong.path, 0o755)
        func run(_ lowering: String, _ name: String) throws -> (status: Int32, verdicts: [String: String]) {
            let result = try Self.differential([
                "--seed", "3", "--count", "6", "--verdicts", "--dewrap", lowering, "--swiftc", "swiftc",
                "--work", folder.appendingPathComponent(name).path,
                "--standin", Self.root.appendingPathComponent("fixtures/standin/SwiftUI.swift").path,
            ])
            var verdicts: [String: String] = [:]
            for line in result.output.split(separator: "\n") where line.hasPrefix("P") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2 { verdicts[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
            return (result.status, verdicts)
        }
        let right = try run(dewrap, "right")
        // The programs that lower the same and have a lowered setter the wrong lowering breaks.
        let programs = folder.appendingPathComponent("programs")
        #expect(try Self.differential(["--emit", programs.path, "--seed", "3", "--count", "6"]).status == 0)
        let same = try right.verdicts.filter { $0.value == "same" }.map(\.key).filter { program in
            let lowering = Process()
            lowering.executableURL = URL(fileURLWithPath: dewrap)
            lowering.arguments = [programs.appendingPathComponent(program + ".swift").path]
            let output = Pipe()
            lowering.standardOutput = output
            lowering.standardError = FileHandle.nullDevice
            try lowering.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            lowering.waitUntilExit()
            return text.contains(".wrappedValue = newValue }")
        }
        #expect(!same.isEmpty, "seed 3 has no program that lowers the same with a setter; pick another seed for this test")
        let broken = try run(wrong.path, "wrong")
        #expect(broken.status != 0)
        for program in same {
            #expect(broken.verdicts[program] == "different", "\(program) with setters that do not store")
        }
    }
}
