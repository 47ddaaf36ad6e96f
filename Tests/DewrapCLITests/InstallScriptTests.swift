import Foundation
import Testing

/// `bin/dewrap` and `bin/install`, run on a copy of `bin/` in a scratch checkout
/// whose `swift` is a stand-in on PATH that "builds" a small script in a moment:
/// what the scripts do around the build, without a real release build.
@Suite struct InstallScriptTests {
    /// The repository's `bin/` folder.
    static let binFolder = fixturesFolder.deletingLastPathComponent().appendingPathComponent("bin")

    /// A scratch checkout: `repo/bin/{dewrap,install,release-build}`, `repo/Package.swift`,
    /// `repo/Sources/`, and `tools/swift`, which writes `repo/.build/release/dewrap`.
    struct Checkout {
        var folder: URL
        var repo: URL { folder.appendingPathComponent("repo") }
        var built: URL { repo.appendingPathComponent(".build/release/dewrap") }
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = folder.appendingPathComponent("tools").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            return environment
        }

        init() throws {
            folder = try makeScratchFolder()
            let manager = FileManager.default
            for sub in ["repo/bin", "repo/Sources", "tools", "links", "elsewhere"] {
                try manager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            for script in ["dewrap", "install", "release-build"] {
                try manager.copyItem(
                    at: InstallScriptTests.binFolder.appendingPathComponent(script),
                    to: repo.appendingPathComponent("bin/\(script)"))
            }
            try write("// swift-tools-version: 6.3\n", to: repo.appendingPathComponent("Package.swift"))
            // `swift build … --package-path ROOT …`: the "executable" echoes its arguments.
            let swift = folder.appendingPathComponent("tools/swift")
            try write(
                """
                #!/usr/bin/env bash
                set -euo pipefail
                while [[ $# -gt 0 ]]; do
                    if [[ "$1" == --package-path ]]; then root="$2"; fi
                    shift
                done
                echo "Compiling…"
                mkdir -p "$root/.build/release"
                printf '#!/bin/sh\\necho "built dewrap $*"\\n' > "$root/.build/release/dewrap"
                chmod +x "$root/.build/release/dewrap"

                """, to: swift)
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        }

        func run(_ executable: URL, _ arguments: [String]) throws -> Outcome {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.environment = environment
            process.currentDirectoryURL = folder.appendingPathComponent("elsewhere")
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let outBytes = output.fileHandleForReading.readDataToEndOfFile()
            let errBytes = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Outcome(status: process.terminationStatus, stdout: [UInt8](outBytes), stderr: String(decoding: errBytes, as: UTF8.self))
        }

        /// Runs `command` under `script(1)`, so that its standard streams are a terminal;
        /// everything it printed comes back on stdout.
        func runInTerminal(_ command: String) throws -> Outcome {
            try run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command, "/dev/null"])
        }
    }

    /// A relative symbolic link in a PATH-like folder, and a link to that link.
    @Test func dewrapRunsThroughASymbolicLink() throws {
        let checkout = try Checkout()
        defer { try? FileManager.default.removeItem(at: checkout.folder) }
        let link = checkout.folder.appendingPathComponent("links/dewrap")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "../repo/bin/dewrap")
        let second = checkout.folder.appendingPathComponent("elsewhere/dw")
        try FileManager.default.createSymbolicLink(atPath: second.path, withDestinationPath: link.path)
        for executable in [link, second] {
            let outcome = try checkout.run(executable, ["--version"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdoutText == "built dewrap --version\n")
            // Not a terminal: nothing on stderr, not even while building.
            #expect(outcome.stderr == "")
        }
    }

    @Test func dewrapSaysOnceThatItIsBuildingWhenStandardErrorIsATerminal() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
        let checkout = try Checkout()
        defer { try? FileManager.default.removeItem(at: checkout.folder) }
        let dewrap = checkout.repo.appendingPathComponent("bin/dewrap").path
        let first = try checkout.runInTerminal("\(dewrap) --version")
        #expect(first.status == 0)
        let lines = first.stdoutText.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n")
        #expect(lines == ["bin/dewrap: building dewrap (release), about a minute, once…", "built dewrap --version"])
        let second = try checkout.runInTerminal("\(dewrap) --version")
        #expect(second.stdoutText.replacingOccurrences(of: "\r\n", with: "\n") == "built dewrap --version\n")
    }

    @Test func installCopiesTheExecutableIntoPrefixBin() throws {
        let checkout = try Checkout()
        defer { try? FileManager.default.removeItem(at: checkout.folder) }
        let prefix = checkout.folder.appendingPathComponent("prefix")
        let install = checkout.repo.appendingPathComponent("bin/install")
        let outcome = try checkout.run(install, [prefix.path])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdoutText == "installed \(prefix.path)/bin/dewrap\n")
        let installed = prefix.appendingPathComponent("bin/dewrap")
        #expect(try bytes(of: installed) == bytes(of: checkout.built))
        #expect(FileManager.default.isExecutableFile(atPath: installed.path))
        // No temporary file is left behind; installing again replaces the file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix.appendingPathComponent("bin").path) == ["dewrap"])
        let again = try checkout.run(install, [prefix.path + "/"])
        #expect(again.status == 0)
        #expect(again.stdoutText == "installed \(prefix.path)/bin/dewrap\n")
        let run = try checkout.run(installed, ["--version"])
        #expect(run.stdoutText == "built dewrap --version\n")
        let misuse = try checkout.run(install, ["--frobnicate"])
        #expect(misuse.status == 64)
    }
}
