import Foundation
import Testing

/// `--config FILE`: the settings of the build plugin's `.dewrap.json`.
@Suite struct ConfigurationTests {
    /// A wrapper declared in `Wrappers/Trimmed.swift`, an @ObservedObject, and a property
    /// whose type dewrap cannot read (a warning).
    let source = """
        import SwiftUI
        @MainActor final class Library: ObservableObject {}
        struct Form {
            @Trimmed var name: String
        }
        struct Shelf {
            @ObservedObject var library: Library
        }
        struct Tabs {
            @State var count = [1, 2].count
        }

        """
    let wrapper = "@propertyWrapper struct Trimmed {\n    var wrappedValue: String = \"\"\n}\n"

    private func project(config: String) throws -> URL {
        let folder = try makeScratchFolder()
        for sub in ["Sources/Views", "Sources/Wrappers"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try write(source, to: folder.appendingPathComponent("Sources/Views/Form.swift"))
        try write(wrapper, to: folder.appendingPathComponent("Sources/Wrappers/Trimmed.swift"))
        try write(config, to: folder.appendingPathComponent("Sources/.dewrap.json"))
        return folder
    }

    @Test func settingsApplyAndPathsAreRelativeToTheFile() throws {
        let folder = try project(config: "{\n  \"swiftVersion\": 5,\n  \"wrapperSources\": [\"Wrappers\"],\n  \"strict\": false\n}\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [["--config", "Sources/.dewrap.json"], ["--config=Sources/.dewrap.json"]] {
            let outcome = try runDewrap(arguments + ["Sources/Views/Form.swift"], in: folder)
            #expect(outcome.status == 0)
            #expect(outcome.stdoutText.contains("    private var _name: Trimmed\n"))
            #expect(outcome.stdoutText.contains("\n@preconcurrency @MainActor struct Shelf {\n"))
            #expect(
                outcome.stderr
                    == "Sources/Views/Form.swift:10:16: warning: cannot lower 'count': its type cannot be read from the source; add a type annotation\n"
            )
        }
        // From another folder, by an absolute path: the same wrapper sources.
        let absolute = try runDewrap(["--config", folder.path + "/Sources/.dewrap.json", "-"], stdin: Array(source.utf8))
        #expect(absolute.stdoutText.contains("    private var _name: Trimmed\n"))
        // The command line wins over the file's swiftVersion.
        let six = try runDewrap(["--config", "Sources/.dewrap.json", "--swift-version", "6", "Sources/Views/Form.swift"], in: folder)
        #expect(six.status == 0)
        #expect(six.stdoutText.contains("\nstruct Shelf {\n"))
    }

    @Test func strictMakesTheWarningAnError() throws {
        let folder = try project(config: "{ \"strict\": true }")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try runDewrap(["--config", "Sources/.dewrap.json", "Sources/Views/Form.swift", "-o", "out.swift"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("Sources/Views/Form.swift:10:16: error: cannot lower 'count'"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.swift").path))
    }

    /// Every problem is an error at its line and column that names the key; nothing is lowered.
    @Test(arguments: [
        (
            "{\n  \"strict\": true,\n  \"stritc\": false\n}\n",
            "3:3: error: unknown key 'stritc' (the keys are 'strict', 'swiftVersion', 'wrapperSources', 'moduleSources')"
        ),
        ("{ \"strict\": \"yes\" }", "1:13: error: 'strict' must be true or false"),
        ("{ \"swiftVersion\": 4 }", "1:19: error: 'swiftVersion' must be 5 or 6"),
        ("{ \"swiftVersion\": \"5\" }", "1:19: error: 'swiftVersion' must be 5 or 6"),
        ("{ \"wrapperSources\": \"Wrappers\" }", "1:21: error: 'wrapperSources' must be an array of paths (relative to this file's folder)"),
        ("{ \"wrapperSources\": [\"\"] }", "1:22: error: 'wrapperSources' must be an array of paths (relative to this file's folder)"),
        ("{ \"strict\": true, }", "1:19: error: not valid JSON: expected a member name in double quotes"),
        ("{ \"strict\": true, \"strict\": false }", "1:19: error: not valid JSON: 'strict' is given twice"),
        ("{ \"strict\": tru }", "1:13: error: not valid JSON: expected 'true'"),
        ("[\"strict\"]", "1:1: error: a configuration is a JSON object, { \"key\": value, … }"),
        ("", "1:1: error: not valid JSON: expected a value, found the end"),
        ("{ \"\\u0073trict\": 1 }", "1:18: error: 'strict' must be true or false"),
        (
            "{ \"a\\ud83d\\ude00\\n\": 1 }",
            "1:3: error: unknown key 'a😀\n' (the keys are 'strict', 'swiftVersion', 'wrapperSources', 'moduleSources')"
        ),
    ])
    func problemsAreErrorsThatNameTheKey(config: String, message: String) throws {
        let folder = try project(config: config)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try runDewrap(["--config", "Sources/.dewrap.json", "Sources/Views/Form.swift"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr == "Sources/.dewrap.json:\(message)\n")
    }

    @Test func aMissingFileOrASecondConfigIsAnError() throws {
        let missing = try runDewrap(["--config", "/nonexistent/.dewrap.json", "-"], stdin: Array(source.utf8))
        #expect(missing.status == 1)
        #expect(missing.stderr == "dewrap: error: cannot read '/nonexistent/.dewrap.json': No such file or directory\n")
        #expect(missing.stdout.isEmpty)
        let twice = try runDewrap(["--config", "a.json", "--config=b.json", "-"])
        #expect(twice.status == 64)
        #expect(twice.stderr.hasPrefix("dewrap: error: option '--config' is given more than once\n"))
    }
}
