import Foundation
import Testing

/// Folders as inputs (issue 21): a folder stands for its `.swift` files, found recursively in a
/// fixed order; `-o FOLDER` keeps each one's path under the folder it was found in.
@Suite struct FolderInputTests {
    /// Two views named `Row.swift` in different folders, one using the other's `$count`, a model,
    /// and what a folder search must skip: hidden folders (`.build`), other file kinds.
    let app: [String: String] = [
        "App/Views/Row.swift": """
        import SwiftUI
        struct Row: View {
            @State var count = 0
            var body: some View { Text("\\(count)") }
        }

        """,
        "App/Settings/Row.swift": """
        import SwiftUI
        struct SettingsRow: View {
            var row: Row
            var body: some View { Stepper("n", value: row.$count) }
        }

        """,
        "App/Models/Item.swift": "struct Item {\n    var name = \"\"\n}\n",
        "App/.build/Generated.swift": "struct Generated {\n    @State var hidden = 0\n}\n",
        "App/.hidden.swift": "struct Hidden {\n    @State var hidden = 0\n}\n",
        "App/Views/notes.txt": "@State var x = 0\n",
    ]

    private func scratch(_ files: [String: String]) throws -> URL {
        let folder = try makeScratchFolder()
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try write(text, to: url)
        }
        return folder
    }

    /// Every regular file under `folder`, by relative path.
    private func files(under folder: URL) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let url = folder.appendingPathComponent(path)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                result[path] = try bytes(of: url)
            }
        }
        return result
    }

    @Test func outputFolderKeepsPathsUnderTheFolderGiven() throws {
        let folder = try scratch(app)
        defer { try? FileManager.default.removeItem(at: folder) }
        for input in ["App", "App/"] {
            let outcome = try runDewrap(["-o", "out", input], in: folder)
            #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
            let written = try files(under: folder.appendingPathComponent("out"))
            #expect(written.keys.sorted() == ["Models/Item.swift", "Settings/Row.swift", "Views/Row.swift"])
            // One module: the `$count` of another folder's file is rewritten too.
            #expect(String(decoding: written["Settings/Row.swift"] ?? [], as: UTF8.self).contains("row._$count"))
            #expect(String(decoding: written["Views/Row.swift"] ?? [], as: UTF8.self).contains("var _count: State<Int>"))
            #expect(written["Models/Item.swift"] == Array(app["App/Models/Item.swift"]!.utf8))
            try FileManager.default.removeItem(at: folder.appendingPathComponent("out"))
        }
        // A folder and a file together: the file under its own name.
        try write("struct Loose {\n    @State var on = false\n}\n", to: folder.appendingPathComponent("Loose.swift"))
        let mixed = try runDewrap(["-o", "out", "App", "Loose.swift"], in: folder)
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(
            try files(under: folder.appendingPathComponent("out")).keys.sorted()
                == ["Loose.swift", "Models/Item.swift", "Settings/Row.swift", "Views/Row.swift"])
    }

    /// `--file-by-file`: each input alone, as before a run was a module: another file's `$count`
    /// is not rewritten.
    @Test func fileByFileLowersEachInputAlone() throws {
        let folder = try scratch(app)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try runDewrap(["--file-by-file", "-o", "out", "App"], in: folder)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(try bytes(of: folder.appendingPathComponent("out/Settings/Row.swift")) == Array(app["App/Settings/Row.swift"]!.utf8))
        let conflicting = try runDewrap(["--file-by-file", "--module-sources", "App", "-i", "App"], in: folder)
        #expect(conflicting.status == 64)
    }

    @Test func inPlaceRewritesTheFilesFoundAndNothingElse() throws {
        let folder = try scratch(app)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try files(under: folder)
        let outcome = try runDewrap(["-i", "App"], in: folder)
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        let after = try files(under: folder)
        let changed = after.keys.filter { after[$0] != before[$0] }.sorted()
        #expect(changed == ["App/Settings/Row.swift", "App/Views/Row.swift"])
        #expect(after.count == before.count)
        // Lowered again: nothing left to change.
        let check = try runDewrap(["--check", "App"], in: folder)
        #expect(check.status == 0 && check.stdout.isEmpty, "\(check.stdoutText)")
    }

    /// Files are taken in the order of their paths, by bytes (`Z` before `a`), whatever order
    /// the file system lists them in; `--check` prints them with the folder as given.
    @Test func filesAreInPathOrder() throws {
        let wrapped = "struct V {\n    @State var on = false\n}\n"
        let folder = try scratch([
            "App/b.swift": wrapped, "App/a/z.swift": wrapped, "App/Z.swift": wrapped, "App/a.swift": wrapped,
            "App/ä.swift": wrapped, "App/a/b/c.swift": wrapped,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try runDewrap(["--check", "-j", "2", "App/"], in: folder)
        #expect(outcome.status == 1)
        #expect(
            outcome.stdoutText
                == ["App/Z.swift", "App/a/b/c.swift", "App/a/z.swift", "App/a.swift", "App/b.swift", "App/ä.swift"]
                .map { $0 + "\n" }.joined())
    }

    /// A symbolic link to a `.swift` file counts as that file, one to a folder is not searched, one
    /// that leads nowhere is reported when read; a file found twice (a hard link) is an error.
    @Test func linksInAFolder() throws {
        let wrapped = "struct V {\n    @State var on = false\n}\n"
        let folder = try scratch(["App/Views/Row.swift": wrapped, "Elsewhere/Model.swift": wrapped])
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("App/Model.swift").path, withDestinationPath: "../Elsewhere/Model.swift")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("App/Linked").path, withDestinationPath: "../Elsewhere")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("App/Dangling.swift").path, withDestinationPath: "Missing.swift")
        let outcome = try runDewrap(["--check", "App"], in: folder)
        #expect(outcome.stdoutText == "App/Model.swift\nApp/Views/Row.swift\n")
        #expect(outcome.stderr == "dewrap: error: cannot read 'App/Dangling.swift': No such file or directory\n")
        try manager.linkItem(
            atPath: folder.appendingPathComponent("App/Views/Row.swift").path, toPath: folder.appendingPathComponent("App/Copy.swift").path)
        let twice = try runDewrap(["--check", "App"], in: folder)
        #expect(twice.status == 64)
        #expect(twice.stderr == "dewrap: error: 'App/Copy.swift' and 'App/Views/Row.swift' are the same file\nRun 'dewrap --help' for usage.\n")
    }

    @Test func anOutputFolderInsideTheInputIsNotSearched() throws {
        let folder = try scratch(app)
        defer { try? FileManager.default.removeItem(at: folder) }
        for _ in 0..<2 {
            let outcome = try runDewrap(["-o", "App/lowered", "App"], in: folder)
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        #expect(
            try files(under: folder.appendingPathComponent("App/lowered")).keys.sorted()
                == ["Models/Item.swift", "Settings/Row.swift", "Views/Row.swift"])
    }

    @Test(arguments: [
        (["App"], "'App' is a folder: its files need '-o FOLDER', '--in-place', '--check' or '--diff'"),
        (["--emit-tree", "App"], "'--emit-tree' takes one file, not the folder 'App'"),
        (["-o", "file.swift", "App"], "'-o file.swift' is a file; the results of the folder 'App' go into a folder"),
        (["-o", "out", "--line-directives", "--source-name", "x", "App"], "'--source-name' names one input, not the folder 'App'"),
        (["-i", "Empty"], "the folder 'Empty' holds no .swift files"),
        (["-o", "out", "App", "Other"], "'App/Views/Row.swift' and 'Other/Views/Row.swift' would both be written to 'out/Views/Row.swift'"),
        (["-i", "App", "App/Views"], "'App/Views/Row.swift' is given twice: two of the folders given hold it"),
        (["-i", "App", "./App/Views/Row.swift"], "'App/Views/Row.swift' and './App/Views/Row.swift' are the same file"),
    ])
    func folderUsageErrors(arguments: [String], message: String) throws {
        var files = app
        files["Other/Views/Row.swift"] = app["App/Views/Row.swift"]
        files["Empty/readme.txt"] = "no Swift here\n"
        files["file.swift"] = "struct F {}\n"
        let folder = try scratch(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try self.files(under: folder)
        let outcome = try runDewrap(arguments, in: folder)
        #expect(outcome.status == 64)
        #expect(outcome.stderr == "dewrap: error: \(message)\nRun 'dewrap --help' for usage.\n")
        #expect(try self.files(under: folder) == before)
    }
}
