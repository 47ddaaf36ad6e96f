import Foundation
import Testing

/// `--module-sources PATH` (issue 21): files of the same module that are read, never written —
/// the plain `.swift` files beside a build plugin's `.swift.dewrap` ones.
@Suite struct ModuleSourcesTests {
    /// The file to lower: a wrapper, an enum and a static member each declared in another file.
    let view = """
        import SwiftUI
        struct Shelf: View {
            @Clamped var volume: Int = 5
            @State private var sort = SortOrder.name
            @StateObject private var store = Store.shared
            @State var count = 0
            var body: some View { Text("\\(volume)") }
        }

        """
    let wrapper = """
        @propertyWrapper struct Clamped {
            private var value: Int
            init(wrappedValue: Int) { value = min(max(wrappedValue, 0), 10) }
            var wrappedValue: Int {
                get { value }
                set { value = min(max(newValue, 0), 10) }
            }
        }

        """
    let models = """
        import SwiftUI
        enum SortOrder { case name, date }
        @MainActor final class Store: ObservableObject {
            static let shared = Store()
        }

        """
    /// A plain file that uses the lowered `count` of `Shelf` through `$count`.
    let user = """
        import SwiftUI
        struct ShelfButton: View {
            var shelf: Shelf
            var body: some View {
                Stepper("Count", value: shelf.$count)
            }
        }

        """

    private func project(_ extra: [String: String] = [:]) throws -> URL {
        let folder = try makeScratchFolder()
        var files = ["View.swift": view, "Plain/Clamped.swift": wrapper, "Plain/Models.swift": models, "Plain/Button.swift": user]
        files.merge(extra) { $1 }
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try write(text, to: url)
        }
        return folder
    }

    private func plainFiles(_ folder: URL) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Plain").path) {
            result[name] = try bytes(of: folder.appendingPathComponent("Plain/" + name))
        }
        return result
    }

    @Test func declarationsAndWrappersAreReadAndTheFilesAreNotWritten() throws {
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try plainFiles(folder)

        // Alone, the file does not know `Clamped`, `SortOrder` or `Store`.
        let alone = try runDewrap(["View.swift"], in: folder)
        #expect(alone.stderr.contains("dewrap does not have the declaration of '@Clamped'"))
        #expect(alone.stderr.contains("cannot lower 'sort'"))

        for arguments in [
            ["--module-sources", "Plain"],
            [
                "--module-sources=Plain/Clamped.swift", "--module-sources", "Plain/Models.swift",
                "--module-sources", "Plain/Button.swift",
            ],
        ] {
            let outcome = try runDewrap(arguments + ["-i", "View.swift"], in: folder)
            #expect(outcome.status == 0)
            #expect(
                outcome.stderr
                    == "Plain/Button.swift:5:39: note: '$count' would need rewriting to '_$count': 'count' is lowered in 'View.swift'; this file is a module source, read but not written\n"
            )
            let lowered = String(decoding: try bytes(of: folder.appendingPathComponent("View.swift")), as: UTF8.self)
            #expect(lowered.contains("    private var _volume: Clamped\n"), "\(lowered)")
            #expect(lowered.contains("        self._volume = Clamped(wrappedValue: volume)\n"))
            // M-8 step 4: after `volume`, whose value the inits evaluate, `sort`'s moves into them too.
            #expect(lowered.contains("private var _sort: State<SortOrder>\n"))
            #expect(lowered.contains("self._sort = State(wrappedValue: SortOrder.name)"))
            #expect(lowered.contains("private var _store: StateObject<Store>"))
            #expect(try plainFiles(folder) == before)
            try write(view, to: folder.appendingPathComponent("View.swift"))
        }
        // -q: no notes.
        let quiet = try runDewrap(["-q", "--module-sources", "Plain", "View.swift"], in: folder)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty)
    }

    /// The module sources keep their wrapped properties: a `$x` of that name in an input, which
    /// may mean one of them, is not rewritten (names decide, as across the inputs); a module
    /// source's own `$x` of its own property needs nothing and gets no note.
    @Test func aNameAModuleSourceKeepsWrappedIsNotRewritten() throws {
        let other = """
            import SwiftUI
            struct Uses {
                var shelf: Shelf
                var binding: Binding<Int> { shelf.$count }
            }

            """
        let keeps = """
            import SwiftUI
            struct Tally: View {
                @State var count = 0
                var body: some View { Stepper("n", value: $count) }
            }

            """
        let folder = try project(["Other.swift": other])
        defer { try? FileManager.default.removeItem(at: folder) }
        let rewritten = try runDewrap(["--module-sources", "Plain", "-o", "out", "View.swift", "Other.swift"], in: folder)
        #expect(rewritten.status == 0)
        #expect(String(decoding: try bytes(of: folder.appendingPathComponent("out/Other.swift")), as: UTF8.self).contains("shelf._$count"))

        try write(keeps, to: folder.appendingPathComponent("Plain/Tally.swift"))
        let kept = try runDewrap(["--module-sources", "Plain", "-o", "out", "View.swift", "Other.swift"], in: folder)
        #expect(kept.status == 0)
        #expect(kept.stderr.isEmpty, "\(kept.stderr)")
        #expect(try bytes(of: folder.appendingPathComponent("out/Other.swift")) == Array(other.utf8))
    }

    @Test func anInputNamedAsModuleSourceIsLoweredAndSettingsNameThem() throws {
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The whole folder as module sources, its one file as input: lowered, no note about itself.
        let outcome = try runDewrap(["--module-sources", ".", "--module-sources", "Plain", "-o", "out/", "View.swift"], in: folder)
        #expect(outcome.status == 0)
        #expect(outcome.stderr.hasPrefix("./Plain/Button.swift:5:39: note:"), "\(outcome.stderr)")
        #expect(String(decoding: try bytes(of: folder.appendingPathComponent("out/View.swift")), as: UTF8.self).contains("_volume: Clamped"))

        try write("{ \"moduleSources\": [\"Plain\"] }", to: folder.appendingPathComponent(".dewrap.json"))
        let configured = try runDewrap(["--config", ".dewrap.json", "View.swift"], in: folder)
        #expect(configured.status == 0)
        #expect(configured.stdoutText.contains("_volume: Clamped"))
        #expect(configured.stderr.contains("note: '$count' would need rewriting"))

        try write("{ \"moduleSources\": \"Plain\" }", to: folder.appendingPathComponent(".dewrap.json"))
        let wrongKind = try runDewrap(["--config", ".dewrap.json", "View.swift"], in: folder)
        #expect(wrongKind.status == 1)
        #expect(wrongKind.stderr == ".dewrap.json:1:20: error: 'moduleSources' must be an array of paths (relative to this file's folder)\n")
    }

    /// `--module-index FILE` (what the build plugin passes): the same results as reading the
    /// module sources, from the index `--write-module-index` wrote for them.
    @Test func anIndexGivesTheSameResults() throws {
        let keeps = "import SwiftUI\nstruct Tally: View {\n    @State var count = 0\n    var body: some View { Stepper(\"n\", value: $count) }\n}\n"
        let folder = try project(["Other.swift": "struct Uses {\n    var shelf: Shelf\n    var c: Int { shelf.$count.wrappedValue }\n}\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        for extra in [nil, keeps] {
            if let extra { try write(extra, to: folder.appendingPathComponent("Plain/Tally.swift")) }
            let written = try runDewrap(["--write-module-index", "index.swift", "--module-sources", "Plain"], in: folder)
            #expect(written.status == 0, "\(written.stderr)")
            for inputs in [["View.swift"], ["-o", "out", "View.swift", "Other.swift"]] {
                let plain = try runDewrap(["--module-sources", "Plain"] + inputs, in: folder)
                let indexed = try runDewrap(["--module-sources", "Plain", "--module-index", "index.swift"] + inputs, in: folder)
                #expect(plain.status == 0 && indexed.status == plain.status)
                #expect(indexed.stdout == plain.stdout)
                #expect(indexed.stderr == plain.stderr)
                #expect(extra != nil || plain.stderr.contains("note: '$count' would need rewriting"))
            }
        }
        // The module sources named one by one, in another order than the index lists them, and with
        // a name that the index writes escaped: the same results.
        try write("struct Odd {}\n", to: folder.appendingPathComponent("Plain/Back\\slash.swift"))
        #expect(try runDewrap(["--write-module-index", "index.swift", "--module-sources", "Plain"], in: folder).status == 0)
        let named = ["Tally", "Models", "Clamped", "Button", "Back\\slash"].flatMap { ["--module-sources", "Plain/\($0).swift"] }
        let byFolder = try runDewrap(["--module-sources", "Plain", "View.swift"], in: folder)
        let reordered = try runDewrap(named + ["--module-index", "index.swift", "View.swift"], in: folder)
        #expect(byFolder.status == 0 && reordered.status == 0, "\(reordered.stderr)")
        #expect(reordered.stdout == byFolder.stdout && reordered.stderr == byFolder.stderr)
        // An index of other files is refused.
        let other = try runDewrap(["--module-sources", "Plain/Models.swift", "--module-index", "index.swift", "View.swift"], in: folder)
        #expect(other.status == 1)
        #expect(
            other.stderr
                == "dewrap: error: 'index.swift' is not a module index of these module sources (format 4); write it again with '--write-module-index'\n"
        )
        let alone = try runDewrap(["--module-index", "index.swift", "View.swift"], in: folder)
        #expect(alone.status == 64)
    }

    /// The index of a folder, one file of which is the run's input (not a module source of that run):
    /// its entry is passed over, and the results are those of the folder read file by file. A file
    /// the index lists that is neither is still a stale index.
    @Test func anIndexMayListTheInput() throws {
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("struct Unused {}\n", to: folder.appendingPathComponent("Plain/Unused.swift"))
        #expect(try runDewrap(["--write-module-index", "index.txt", "--module-sources", ".", "--module-sources", "Plain"], in: folder).status == 0)
        for input in ["View.swift", "./View.swift"] {
            let plain = try runDewrap(["--module-sources", ".", "--module-sources", "Plain", input], in: folder)
            let indexed = try runDewrap(["--module-sources", ".", "--module-sources", "Plain", "--module-index", "index.txt", input], in: folder)
            #expect(plain.status == 0 && indexed.status == 0, "\(indexed.stderr)")
            #expect(indexed.stdout == plain.stdout && indexed.stderr == plain.stderr)
            #expect(indexed.stdoutText.contains("_volume: Clamped"))
        }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Plain/Unused.swift"))
        let stale = try runDewrap(["--module-sources", ".", "--module-sources", "Plain", "--module-index", "index.txt", "View.swift"], in: folder)
        #expect(stale.status == 1 && stale.stderr.contains("is not a module index of these module sources"))
    }

    /// What `T(…)` needs of the module sources (a generic type, a failable init) comes from the index
    /// as from the files themselves: `Tag(raw:)` may be nil, `Tag(named:)` is a `Tag`.
    @Test func anIndexKnowsWhichConstructionsAreUncertain() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Plain"), withIntermediateDirectories: true)
        try write(
            "struct Tag {\n    var raw: String\n    init(named: String) { raw = named }\n    init?(raw: String) { nil }\n}\n",
            to: folder.appendingPathComponent("Plain/Tag.swift"))
        try write(
            "import SwiftUI\nstruct Tags: View {\n    @State private var maybe = Tag(raw: \"x\")\n    @State private var named = Tag(named: \"y\")\n"
                + "    var body: some View { Text(named.raw) }\n}\n",
            to: folder.appendingPathComponent("View.swift"))
        #expect(try runDewrap(["--write-module-index", "index.swift", "--module-sources", "Plain"], in: folder).status == 0)
        let plain = try runDewrap(["--module-sources", "Plain", "View.swift"], in: folder)
        let indexed = try runDewrap(["--module-sources", "Plain", "--module-index", "index.swift", "View.swift"], in: folder)
        #expect(plain.stderr == "View.swift:3:24: warning: cannot lower 'maybe': its type cannot be read from the source; add a type annotation\n")
        #expect(indexed.stderr == plain.stderr && indexed.stdout == plain.stdout)
        #expect(indexed.stdoutText.contains("private var _named: State<Tag>"))
    }

    /// A wrapper's extension in a module source that declares no wrapper (its `init(wrappedValue:_:)`)
    /// is read with an index as without one: the index marks the files that extend one of the
    /// module's wrappers, and those are read with the wrappers' files.
    @Test func anIndexReadsAWrappersExtensionsInOtherFiles() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Plain"), withIntermediateDirectories: true)
        try write(
            "@propertyWrapper struct Stored<Value> {\n    let key: String\n    var wrappedValue: Value { fatalError() }\n}\n",
            to: folder.appendingPathComponent("Plain/Stored.swift"))
        try write(
            "extension Stored {\n    init(wrappedValue: Value, _ key: String) { self.key = key }\n}\n",
            to: folder.appendingPathComponent("Plain/StoredKeys.swift"))
        try write("struct Settings {\n    @Stored(\"v\") var volume = 5\n}\n", to: folder.appendingPathComponent("Settings.swift"))
        #expect(try runDewrap(["--write-module-index", "index.swift", "--module-sources", "Plain"], in: folder).status == 0)
        let plain = try runDewrap(["--module-sources", "Plain", "Settings.swift"], in: folder)
        let indexed = try runDewrap(["--module-sources", "Plain", "--module-index", "index.swift", "Settings.swift"], in: folder)
        #expect(plain.status == 0 && plain.stderr == "")
        #expect(plain.stdoutText.contains("self._volume = Stored(wrappedValue: volume, \"v\")\n"))
        #expect(indexed.status == 0 && indexed.stderr == plain.stderr && indexed.stdout == plain.stdout, "\(indexed.stderr)")
    }

    @Test func aMissingModuleSourceIsAnError() throws {
        let folder = try project()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try runDewrap(["--module-sources", "Missing", "View.swift"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "dewrap: error: cannot read 'Missing': No such file or directory\n")
        #expect(outcome.stdout.isEmpty)
        let noPath = try runDewrap(["--module-sources"], in: folder)
        #expect(noPath.status == 64)
        #expect(noPath.stderr.hasPrefix("dewrap: error: option '--module-sources' needs a path\n"))
    }
}

/// `--module-index FILE`: a digest of what lowering reads from the module and wrapper sources,
/// written only when it changes (the build plugin's lowering commands depend on it).
@Suite struct ModuleIndexTests {
    let models = """
        enum SortOrder {
            case name, date
        }
        struct Store {
            static let shared = Store()
            init() {
                print("made")
            }
            func title() -> String {
                "Store"
            }
        }

        """

    @Test func writtenOnlyWhenWhatLoweringReadsChanges() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Models.swift")
        let index = folder.appendingPathComponent("index.swift")
        try write(models, to: file)
        let arguments = ["--write-module-index", "index.swift", "--module-sources", "Models.swift", "--wrapper-sources", "Models.swift"]
        func run() throws -> [UInt8] {
            let outcome = try runDewrap(arguments, in: folder)
            #expect(outcome.status == 0 && outcome.stderr.isEmpty && outcome.stdout.isEmpty, "\(outcome.stderr)")
            return try bytes(of: index)
        }
        let first = try run()
        let text = String(decoding: first, as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.hasPrefix("// ") })
        #expect(lines[1].hasPrefix("// module ") && lines[1].hasSuffix(" Models.swift"))
        #expect(lines[2].hasPrefix("// wrapper ") && lines[2].hasSuffix(" Models.swift"))

        // Unchanged: not written again (its inode stays; a rewrite renames a new file over it).
        let inode = try FileManager.default.attributesOfItem(atPath: index.path)[.systemFileNumber] as? Int
        #expect(try run() == first)
        #expect(try FileManager.default.attributesOfItem(atPath: index.path)[.systemFileNumber] as? Int == inode)

        // Comments, layout and function bodies: the same index.
        for edit in [
            models.replacingOccurrences(of: "print(\"made\")", with: "print(\"made\", 1) // and a comment"),
            models.replacingOccurrences(of: "\"Store\"", with: "\"A store\"\n"),
            models.replacingOccurrences(of: "    case name, date", with: "    case name,   date  /* … */"),
        ] {
            try write(edit, to: file)
            #expect(try run() == first, "\(edit)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: index.path)[.systemFileNumber] as? Int == inode)
        // A declaration, an initial value, a signature, a `$x` in a body: another index.
        for edit in [
            models.replacingOccurrences(of: "case name, date", with: "case name, date, size"),
            models.replacingOccurrences(of: "static let shared = Store()", with: "static let shared: Store? = nil"),
            models.replacingOccurrences(of: "func title() -> String", with: "func title() -> Substring"),
            models.replacingOccurrences(of: "print(\"made\")", with: "print($made)"),
        ] {
            try write(edit, to: file)
            #expect(try run() != first, "\(edit)")
        }
    }

    @Test func itLowersNothing() throws {
        let outcome = try runDewrap(["--write-module-index", "index.swift", "View.swift"])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("dewrap: error: '--write-module-index' writes only the index; it lowers no input ('View.swift')\n"))
        let output = try runDewrap(["--write-module-index", "index.swift", "-o", "x"])
        #expect(output.status == 64)
    }

    /// `--wrapper-sources` files are another module's: their public declarations say the types
    /// of initial values (a single input too); their internal ones cannot be named from here.
    @Test func dependencySourcesGiveTheirPublicDeclarations() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Dep"), withIntermediateDirectories: true)
        try write(
            """
            public enum Theme { case light, dark
                public static let standard = Theme.dark
                static let hidden = Theme.light
            }

            """, to: folder.appendingPathComponent("Dep/Theme.swift"))
        try write(
            """
            import SwiftUI
            struct V: View {
                @State private var theme = Theme.standard
                @State private var other = Theme.hidden
                var body: some View { Text("") }
            }

            """, to: folder.appendingPathComponent("V.swift"))
        let alone = try runDewrap(["V.swift"], in: folder)
        #expect(alone.stderr.contains("cannot lower 'theme'"))
        let outcome = try runDewrap(["--wrapper-sources", "Dep", "V.swift"], in: folder)
        #expect(outcome.stdoutText.contains("private var _theme: State<Theme> = State(wrappedValue: Theme.standard)"), "\(outcome.stdoutText)")
        #expect(!outcome.stderr.contains("cannot lower 'theme'"))
        #expect(outcome.stderr.contains("cannot lower 'other'"))
    }
}
