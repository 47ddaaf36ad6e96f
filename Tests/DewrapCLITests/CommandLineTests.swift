import Foundation
import Testing

/// End-to-end behaviour of the `dewrap` executable: streams, files, exit statuses.
@Suite struct CommandLineTests {
    let source = "struct V {\r\n    var x = 1 // kept\r\n}\n"

    @Test func readsStandardInputAndWritesStandardOutput() throws {
        for arguments in [[], ["-"]] {
            let outcome = try runDewrap(arguments, stdin: Array(source.utf8))
            #expect(outcome.status == 0)
            #expect(outcome.stdoutText == source)
            #expect(outcome.stderr == "")
        }
    }

    @Test func copiesFilesWithoutWrappersUnchanged() throws {
        // The lexer fixtures hold no wrappers: odd bytes, a BOM, CRLF, unterminated literals.
        let files = FileManager.default.enumerator(at: fixturesFolder.appendingPathComponent("lexer"), includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count >= 3)
        for file in files {
            let outcome = try runDewrap([file.path])
            #expect(outcome.status == 0, "\(file.lastPathComponent): \(outcome.stderr)")
            #expect(outcome.stdout == (try bytes(of: file)), "\(file.lastPathComponent)")
        }
    }

    @Test func lowersTheShippedExample() throws {
        let example = fixturesFolder.appendingPathComponent("examples/PlayerView.swift")
        let outcome = try runDewrap([example.path])
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "")
        #expect(outcome.stdout == (try bytes(of: fixturesFolder.appendingPathComponent("examples/PlayerView.expected.swift"))))
    }

    @Test func strictRefusesWhatCannotBeLowered() throws {
        let source = Array("struct V {\n    @State var tab = Tab.home\n}\n".utf8)
        let lenient = try runDewrap(["-"], stdin: source)
        #expect(lenient.status == 0)
        #expect(lenient.stdout == source)
        #expect(lenient.stderr == "<stdin>:2:16: warning: cannot lower 'tab': its type cannot be read from the source; add a type annotation\n")
        let strict = try runDewrap(["--strict", "-"], stdin: source)
        #expect(strict.status == 1)
        #expect(strict.stdout.isEmpty)
        #expect(strict.stderr.hasPrefix("<stdin>:2:16: error: cannot lower 'tab'"))
    }

    @Test func reportsLexicalProblemsAsWarningsWithLineAndColumn() throws {
        let outcome = try runDewrap(["-"], stdin: Array("let a = 1\nlet s = \"open\n".utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stderr == "<stdin>:2:9: warning: unterminated string literal\n")
        #expect(outcome.stdoutText == "let a = 1\nlet s = \"open\n")
    }

    @Test func columnsCountUTF8Bytes() throws {
        let outcome = try runDewrap([], stdin: Array("let é = \"x\n".utf8))
        #expect(outcome.stderr == "<stdin>:1:10: warning: unterminated string literal\n")
    }

    @Test func emitsTokensWithEscapedText() throws {
        let outcome = try runDewrap(["--emit-tokens", "-"], stdin: Array("let s = \"a\\tb\\\\\tc\"\r\n$x".utf8))
        #expect(outcome.status == 0)
        #expect(outcome.stdoutText == """
            0\tkeyword\tlet
            4\tidentifier\ts
            6\tequal\t=
            8\tstringStart\t"
            9\tstringSegment\ta\\\\tb\\\\\\\\\\tc
            17\tstringEnd\t"
            20\tdollarIdentifier\t$x

            """)
    }

    @Test func emitsTheTreeAndFailsOnParseErrors() throws {
        let good = try runDewrap(["--emit-tree"], stdin: Array("@State var x = 1\n".utf8))
        #expect(good.status == 0)
        #expect(good.stdoutText.hasPrefix("file\n  var 1:8 @State\n    binding «x» init=«1»\n"))
        let bad = try runDewrap(["--emit-tree", "-"], stdin: Array("struct A {\n  )\n}\n".utf8))
        #expect(bad.status == 1)
        #expect(bad.stderr == "<stdin>:2:3: error: expected a declaration, found ')'\n")
        #expect(bad.stdoutText.contains("error 2:3 expected a declaration, found ')'"))
    }

    @Test func helpAndVersionSucceed() throws {
        let help = try runDewrap(["--help"])
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("USAGE: dewrap [options] [FILE...]"))
        let version = try runDewrap(["--version"])
        #expect(version.status == 0)
        #expect(version.stdoutText == "dewrap 0.1.0\n")
    }

    @Test(arguments: [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["a.swift", "b.swift"], "several inputs need '-o FOLDER' or '--in-place'"),
        (["-o"], "option '-o' needs a path"),
        (["-o", "x", "--in-place", "a.swift"], "'-o' and '--in-place' cannot be used together"),
        (["--in-place"], "'--in-place' needs files, not standard input"),
        (["--in-place", "a.swift", "./a.swift"], "'a.swift' and './a.swift' are the same file"),
        (["a.swift", "-o", "a.swift"], "writing 'a.swift' would overwrite the input 'a.swift'; use '--in-place' to rewrite it"),
        (["a.swift", "sub/a.swift", "-o", "out"], "two inputs are named 'a.swift'; their results would overwrite each other in the output folder"),
    ])
    func usageErrorsExit64WithoutOutput(arguments: [String], message: String) throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: false)
        try write(source, to: folder.appendingPathComponent("a.swift"))
        try write(source, to: folder.appendingPathComponent("sub/a.swift"))
        let outcome = try runDewrap(arguments, in: folder)
        #expect(outcome.status == 64)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr == "dewrap: error: \(message)\nRun 'dewrap --help' for usage.\n")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func unreadableInputFailsButOthersAreStillWritten() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(source, to: folder.appendingPathComponent("good.swift"))
        let outcome = try runDewrap(["missing.swift", "good.swift", "-o", "out"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "dewrap: error: cannot read 'missing.swift': No such file or directory\n")
        #expect(try bytes(of: folder.appendingPathComponent("out/good.swift")) == Array(source.utf8))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/missing.swift").path))
    }

    @Test func oneInputIntoAnExistingFolderKeepsItsName() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: false)
        try write(source, to: folder.appendingPathComponent("a.swift"))
        let outcome = try runDewrap(["a.swift", "-o", "out"], in: folder)
        #expect(outcome.status == 0)
        #expect(try bytes(of: folder.appendingPathComponent("out/a.swift")) == Array(source.utf8))
    }

    @Test func outputFileIsReplacedAndKeepsItsPermissions() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.swift")
        try write("old", to: output)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: output.path)
        let outcome = try runDewrap(["-o", "out.swift", "-"], stdin: Array(source.utf8), in: folder)
        #expect(outcome.status == 0)
        #expect(try bytes(of: output) == Array(source.utf8))
        let permissions = try FileManager.default.attributesOfItem(atPath: output.path)[.posixPermissions] as? Int
        #expect(permissions == 0o640)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.swift"])
    }

    @Test func outputThroughASymbolicLinkReplacesItsTarget() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write("old", to: folder.appendingPathComponent("target.swift"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.swift").path, withDestinationPath: "target.swift")
        let outcome = try runDewrap(["-o", "link.swift"], stdin: Array(source.utf8), in: folder)
        #expect(outcome.status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("link.swift").path) == "target.swift")
        #expect(try bytes(of: folder.appendingPathComponent("target.swift")) == Array(source.utf8))
    }

    @Test func inPlaceLeavesAnUnchangedFileUntouched() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.swift")
        try write(source, to: file)
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file.path)
        let outcome = try runDewrap(["--in-place", "a.swift"], in: folder)
        #expect(outcome.status == 0)
        #expect(outcome.stdout.isEmpty)
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(modified == past)
        #expect(try bytes(of: file) == Array(source.utf8))
    }

    @Test func aFolderIsNotAnInput() throws {
        let outcome = try runDewrap([fixturesFolder.path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr == "dewrap: error: cannot read '\(fixturesFolder.path)': it is a folder\n")
        #expect(outcome.stdout.isEmpty)
    }
}
