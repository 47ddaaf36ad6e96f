import Foundation
import Testing

/// Inputs that are not Swift source, floods of warnings, and outputs whose
/// folder is missing: one clear message each.
@Suite struct InputProblemTests {
    /// dewrap's own executable printed a warning for every stray byte (1.5 million
    /// for the release build, in 14 s) and exited 0.
    @Test func aBinaryFileIsOneErrorAndNothingIsWritten() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = dewrapExecutable.path
        let started = Date()
        let outcome = try runDewrap([path, "-o", "out.swift"], in: folder)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(outcome.status == 1)
        #expect(outcome.stdout.isEmpty)
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(outcome.stderr.hasPrefix("\(path):1:"))
        #expect(outcome.stderr.contains(": error: not Swift source: "))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.swift").path))
    }

    /// Anywhere in the file, in a comment or a string literal too: swiftc rejects
    /// invalid UTF-8 everywhere, and no source file holds a NUL.
    static let notSource: [(source: [UInt8], message: String)] = [
        (
            Array("struct V {\n    @State var x = 1 // a".utf8) + [0] + Array("b\n}\n".utf8),
            "2:26: error: not Swift source: it contains a NUL byte"
        ),
        (
            Array("struct V {\n    @State private var s = \"caf".utf8) + [0xE9] + Array("\"\n}\n".utf8),
            "2:32: error: not Swift source: it is not UTF-8 (byte 0xE9)"
        ),
        // A surrogate, a sequence cut short, an overlong form.
        (
            Array("/* ".utf8) + [0xED, 0xA0, 0x80] + Array(" */ struct V {}\n".utf8),
            "1:4: error: not Swift source: it is not UTF-8 (byte 0xED)"
        ),
        (Array("let a = 1 // ".utf8) + [0xE6, 0xBC], "1:14: error: not Swift source: it is not UTF-8 (byte 0xE6)"),
        (Array("@State var x = 1 // ".utf8) + [0xC0, 0xAF], "1:21: error: not Swift source: it is not UTF-8 (byte 0xC0)"),
    ]

    @Test(arguments: notSource)
    func nulOrInvalidUTF8IsNotSwiftSource(source: [UInt8], message: String) throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("in.swift")
        try Data(source).write(to: file)
        for arguments in [
            ["in.swift"], ["in.swift", "-o", "out.swift"], ["--in-place", "in.swift"],
            ["--check", "in.swift"], ["--emit-tokens", "in.swift"],
        ] {
            let outcome = try runDewrap(arguments, in: folder)
            #expect(outcome.status == 1, "\(arguments)")
            #expect(outcome.stdout.isEmpty, "\(arguments)")
            #expect(outcome.stderr == "in.swift:\(message)\n", "\(arguments)")
        }
        #expect(try bytes(of: file) == source)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["in.swift"])
    }

    /// UTF-8 beyond ASCII, a BOM, CR and tabs are Swift source.
    @Test func validUTF8IsSwiftSource() throws {
        let source = "\u{FEFF}struct V {\r\n\t@State private var s = \"😀 漢字 é\"\r\n}\r\n"
        let outcome = try runDewrap([], stdin: Array(source.utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(outcome.stdoutText.contains("State(wrappedValue: \"😀 漢字 é\")"))
    }

    /// Twenty of each message a file, then one line for the rest.
    @Test func repeatedWarningsAreCapped() throws {
        var source = "struct V {\n    @State private var on = false\n"
        for index in 0..<30 { source += "    let a\(index) = 1 \u{01}\n" }
        source += "}\n"
        let outcome = try runDewrap(["-"], stdin: Array(source.utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stdoutText.contains("private var _on: State<Bool>"))
        let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 21)
        #expect(lines.first == "<stdin>:3:16: warning: invalid character in source")
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix(": warning: invalid character in source") })
        #expect(lines.last == "<stdin>: warning: … and 10 more warnings (a message is shown 20 times a file at most)")

        // Under --strict they are errors, capped the same way; -q keeps them.
        let strict = try runDewrap(["--strict", "-q", "-"], stdin: Array(source.utf8))
        #expect(strict.status == 1)
        #expect(strict.stderr.split(separator: "\n").last == "<stdin>: error: … and 10 more errors (a message is shown 20 times a file at most)")

        // Messages that differ are all printed.
        var distinct = "struct W {\n"
        for index in 0..<25 { distinct += "    @State var t\(index) = make()\n" }
        distinct += "}\n"
        let many = try runDewrap(["-"], stdin: Array(distinct.utf8))
        #expect(many.stderr.split(separator: "\n").count == 25)
        #expect(!many.stderr.contains("more warnings"))
    }

    @Test func outputIntoAMissingFolderNamesIt() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = "struct V {\n    @State private var on = false\n}\n"
        try write(source, to: folder.appendingPathComponent("a.swift"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("there"), withIntermediateDirectories: false)
        for (output, message) in [
            ("missing/out.swift", "no such folder 'missing'"),
            ("there/missing/deeper/out.swift", "no such folder 'there/missing'"),
            ("a.swift/out.swift", "'a.swift' is not a folder"),
            ("\(folder.path)/missing/out.swift", "no such folder '\(folder.path)/missing'"),
        ] {
            let outcome = try runDewrap(["a.swift", "-o", output], in: folder)
            #expect(outcome.status == 1)
            #expect(outcome.stderr == "dewrap: error: cannot write '\(output)': \(message)\n")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.swift", "there"])

        // A path that ends in '/' names a folder, created if missing, as for several inputs.
        let intoFolder = try runDewrap(["a.swift", "-o", "made/here/"], in: folder)
        #expect(intoFolder.status == 0, "\(intoFolder.stderr)")
        #expect(String(decoding: try bytes(of: folder.appendingPathComponent("made/here/a.swift")), as: UTF8.self).contains("_on"))
    }

    /// A file rewritten as root keeps its owner and group (tests run as root here).
    @Test func inPlaceKeepsTheFilesOwnerAndGroup() throws {
        guard getuid() == 0 else { return }
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.swift")
        let output = folder.appendingPathComponent("out.swift")
        try write("struct V {\n    @State private var on = false\n}\n", to: file)
        try write("old\n", to: output)
        for url in [file, output] {
            #expect(chown(url.path, 1234, 2345) == 0)
            #expect(chmod(url.path, 0o640) == 0)
        }
        let outcome = try runDewrap(["--in-place", "a.swift"], in: folder)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let written = try runDewrap(["a.swift", "-o", "out.swift"], in: folder)
        #expect(written.status == 0)
        for url in [file, output] {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            #expect(String(decoding: try bytes(of: url), as: UTF8.self).contains("_on"), "\(url.lastPathComponent) was rewritten")
            #expect((attributes[.ownerAccountID] as? NSNumber)?.intValue == 1234, "\(url.lastPathComponent)")
            #expect((attributes[.groupOwnerAccountID] as? NSNumber)?.intValue == 2345, "\(url.lastPathComponent)")
            #expect(attributes[.posixPermissions] as? Int == 0o640, "\(url.lastPathComponent)")
        }
    }
}
