import Foundation
import Testing

/// `--check`, `--diff` and `-q`: dewrap in CI, where nothing is written.
@Suite struct CheckAndDiffTests {
    let unlowered = "struct V {\n    @State private var on = false\n}\n"
    let plain = "struct P {\n    var x = 1\n}\n"
    /// A warning (the type cannot be read) and no change.
    let warned = "struct W {\n    @State var tab = Tab.home\n}\n"

    /// A scratch folder holding `files`, and its contents before the run.
    private func folder(with files: [String: String]) throws -> URL {
        let folder = try makeScratchFolder()
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try write(text, to: url)
        }
        return folder
    }

    private func contents(of folder: URL) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted() {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                result[name] = try bytes(of: url)
            }
        }
        return result
    }

    @Test func checkListsTheInputsThatWouldChangeAndWritesNothing() throws {
        let folder = try folder(with: ["a.swift": unlowered, "b.swift": plain, "sub/c.swift": unlowered, "w.swift": warned])
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try contents(of: folder)
        let outcome = try runDewrap(["--check", "a.swift", "b.swift", "sub/c.swift", "w.swift"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.stdoutText == "a.swift\nsub/c.swift\n")
        #expect(outcome.stderr == "w.swift:2:16: warning: cannot lower 'tab': its type cannot be read from the source; add a type annotation\n")
        #expect(try contents(of: folder) == before)

        // An already lowered tree: nothing printed, status 0.
        let lowered = try runDewrap(["a.swift"], in: folder).stdout
        try Data(lowered).write(to: folder.appendingPathComponent("a.swift"))
        try Data(lowered).write(to: folder.appendingPathComponent("sub/c.swift"))
        let clean = try runDewrap(["--check", "-q", "a.swift", "b.swift", "sub/c.swift", "w.swift"], in: folder)
        #expect(clean.status == 0)
        #expect(clean.stdout.isEmpty)
        #expect(clean.stderr.isEmpty)

        // Standard input is named as diagnostics name it.
        let piped = try runDewrap(["--check"], stdin: Array(unlowered.utf8))
        #expect(piped.status == 1)
        #expect(piped.stdoutText == "<stdin>\n")
    }

    @Test func checkStillReportsErrorsWithStatusOne() throws {
        let folder = try folder(with: ["bad.swift": "struct B {\n    @State let x = 1\n}\n", "b.swift": plain])
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try runDewrap(["--check", "bad.swift", "b.swift"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr == "bad.swift:2:5: error: property wrapper can only be applied to a 'var'\n")
    }

    /// The diff is `diff -u`'s, line for line, on the shipped example, fixtures
    /// with many changes, and edge cases: CRLF, no newline at the end, a change
    /// on the first and the last line, hunks merged and apart.
    @Test func diffIsWhatDiffUPrints() throws {
        var inputs: [(String, [UInt8])] = []
        for name in [
            "examples/PlayerView.swift", "lowering/CRLF.swift", "lowering/AccessLevels.swift",
            "lowering/ClosureParameters.swift", "lowering/LocalVariables.swift", "lowering/Composition.swift",
        ] {
            let url = fixturesFolder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { inputs.append((url.lastPathComponent, try bytes(of: url))) }
        }
        #expect(inputs.count == 6)
        let filler = (0..<12).map { "    let k\($0) = \($0)\n" }.joined()
        inputs.append(("NoNewline.swift", Array("struct N {\n    @State private var on = false\n}".utf8)))
        inputs.append(
            (
                "FirstAndLast.swift",
                Array(
                    "@propertyWrapper struct W { var wrappedValue: Int }\nstruct S {\n\(filler)    @W var a: Int\n\(filler)    @W var b: Int\n}".utf8)
            ))
        inputs.append(("Close.swift", Array("struct C {\n    @State private var a = 1\n    let k = 0\n    @State private var b = 2\n}\n".utf8)))

        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var combined: [UInt8] = []
        for (name, source) in inputs {
            let input = folder.appendingPathComponent(name)
            try Data(source).write(to: input)
            let lowered = try runDewrap([name], in: folder)
            #expect(lowered.status == 0, "\(name): \(lowered.stderr)")
            #expect(lowered.stdout != source, "\(name) should change")
            let loweredFile = folder.appendingPathComponent(name + ".lowered")
            try Data(lowered.stdout).write(to: loweredFile)

            let ours = try runDewrap(["--diff", name], in: folder)
            #expect(ours.status == 0)
            let reference = try runProgram("/usr/bin/diff", ["-u", "--label", "a/\(name)", "--label", "b/\(name)", input.path, loweredFile.path])
            #expect(reference.status == 1)
            #expect(ours.stdoutText == reference.stdoutText, "\(name)")
            combined += ours.stdout
            try FileManager.default.removeItem(at: loweredFile)
        }

        // Several inputs: the diffs one after the other, in input order; `patch -p1` applies them.
        let names = inputs.map(\.0)
        let all = try runDewrap(["--diff", "-j", "3"] + names, in: folder)
        #expect(all.status == 0)
        #expect(all.stdout == combined)
        let checked = try runDewrap(["--diff", "--check"] + names, in: folder)
        #expect(checked.status == 1)
        #expect(checked.stdout == combined)
        let patched = try runProgram("/usr/bin/patch", ["-p1", "-s", "-d", folder.path], stdin: combined)
        #expect(patched.status == 0, "\(patched.stderr)")
        for name in names {
            let again = try runDewrap(["--check", name], in: folder)
            #expect(again.status == 0, "\(name) is not lowered after patching")
        }
        // Nothing to change: no diff.
        let none = try runDewrap(["--diff"], stdin: Array(plain.utf8))
        #expect(none.status == 0)
        #expect(none.stdout.isEmpty)
    }

    @Test func quietPrintsErrorsOnly() throws {
        let noisy = try runDewrap(["-"], stdin: Array(warned.utf8))
        #expect(!noisy.stderr.isEmpty)
        for flag in ["-q", "--quiet"] {
            let quiet = try runDewrap([flag, "-"], stdin: Array(warned.utf8))
            #expect(quiet.status == 0)
            #expect(quiet.stderr == "")
            #expect(quiet.stdoutText == warned)
            let note = try runDewrap([flag], stdin: Array("struct F {\n    @Trimmed var name: String\n}\n".utf8))
            #expect(note.stderr == "")
            let strict = try runDewrap([flag, "--strict"], stdin: Array(warned.utf8))
            #expect(strict.status == 1)
            #expect(strict.stderr.hasPrefix("<stdin>:2:16: error: cannot lower 'tab'"))
        }
    }

    @Test(arguments: [
        (["--check", "-o", "out", "a.swift"], "'--check' writes nothing; it cannot be used with '-o'"),
        (["--diff", "--output=out", "a.swift"], "'--diff' writes nothing; it cannot be used with '-o'"),
        (["--diff", "--check", "--in-place", "a.swift"], "'--diff' writes nothing; it cannot be used with '--in-place'"),
        (["-i", "--check", "a.swift"], "'--check' writes nothing; it cannot be used with '--in-place'"),
        (["--check", "--emit-tree", "a.swift"], "'--emit-tree' and '--check' cannot be used together"),
        (["--diff", "--line-directives", "a.swift"], "'--line-directives' output is generated code; '--diff' does not compare it with the input"),
    ])
    func checkAndDiffConflictWithWriting(arguments: [String], message: String) throws {
        let folder = try folder(with: ["a.swift": unlowered])
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try runDewrap(arguments, in: folder)
        #expect(outcome.status == 64)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr == "dewrap: error: \(message)\nRun 'dewrap --help' for usage.\n")
        #expect(try contents(of: folder) == ["a.swift": Array(unlowered.utf8)])
    }
}
