import DewrapTestSupport
import Foundation

/// `dewrap-dev differential`: generated programs built as written and as
/// lowered by dewrap, against the SwiftUI stand-in (Swift 6 mode), run, and
/// compared — their output (driver prints and wrapper traces) and their
/// initializers as `-print-ast` shows them. Many programs make one batch,
/// one executable per side; a batch that fails to build is narrowed to the
/// programs responsible from the compiler's errors (by file), or by building
/// halves when an error names no program.
struct DifferentialSettings {
    var seed: UInt64 = 1
    var count = 200
    /// Only this program (`--index`), to reproduce one.
    var only: Int?
    var dewrap = ""
    var swiftc = ""
    var work = ""
    var standIn = ""
    var batchSize = 40
    /// Compiler jobs per build.
    var jobs = 2
    /// Write the generated programs into this folder and stop (no builds).
    var emit: String?
    /// Also print one line per program with its verdict (`P3: same`).
    var verdicts = false
}

/// What became of one program.
struct ProgramOutcome {
    enum Verdict: String {
        case same, leftWithWarning = "left with a warning", different, notCompiling = "not compiling"
    }

    var program: GeneratedProgram
    var verdict: Verdict = .same
    /// Why it is not `same`, for the report.
    var reasons: [String] = []
    /// dewrap's warnings and notes, as `LINE:COL: severity: message`.
    var diagnostics: [String] = []
    var lowered: String?
    var originalOutput: String?
    var loweredOutput: String?
    /// The original does not compile (or crashes the compiler): a generator bug, not a finding.
    var originalFails = false
}

struct DifferentialError: Error {
    var message: String
}

/// Seconds spent per kind of child process (`print-ast`, `build`, …), for the progress lines.
final class PhaseClock: @unchecked Sendable {
    private var seconds: [String: Double] = [:]
    private let lock = NSLock()

    func add(_ phase: String, _ value: Double) {
        lock.lock()
        seconds[phase, default: 0] += value
        lock.unlock()
    }

    /// `print-ast 12 s, build 20 s, …`, and starts again from zero.
    func takeSummary() -> String {
        lock.lock()
        defer { seconds = [:]; lock.unlock() }
        return seconds.sorted { $0.key < $1.key }.map { "\($0.key) \(Int($0.value.rounded())) s" }.joined(separator: ", ")
    }
}

/// Builds and compares programs batch by batch.
struct DifferentialRunner {
    let settings: DifferentialSettings
    let standInFolder: String
    let clock = PhaseClock()

    init(settings: DifferentialSettings) throws {
        var settings = settings
        // A compiler named without a folder is looked up in PATH.
        if !settings.swiftc.contains("/") {
            let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            guard let found = folders.map({ "\($0)/\(settings.swiftc)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw DifferentialError(message: "no \(settings.swiftc) in PATH")
            }
            settings.swiftc = found
        }
        self.settings = settings
        standInFolder = settings.work + "/standin"
        try buildStandIn()
    }

    /// The stand-in as a static library and module, built once (as bin/equivalence does).
    private func buildStandIn() throws {
        let library = standInFolder + "/libSwiftUI.a"
        let manager = FileManager.default
        try manager.createDirectory(atPath: standInFolder, withIntermediateDirectories: true)
        if let built = try? manager.attributesOfItem(atPath: library)[.modificationDate] as? Date,
            let source = try? manager.attributesOfItem(atPath: settings.standIn)[.modificationDate] as? Date, built > source
        {
            return
        }
        let result = runChild(
            settings.swiftc,
            [
                "-swift-version", "6", "-parse-as-library", "-emit-library", "-static", "-emit-module", "-module-name", "SwiftUI",
                settings.standIn, "-emit-module-path", standInFolder + "/SwiftUI.swiftmodule", "-o", library,
            ])
        guard result.status == 0 else { throw DifferentialError(message: "the SwiftUI stand-in did not build:\n" + result.errors) }
    }

    // MARK: - One batch

    /// Lowers, builds, runs and compares `programs`.
    func run(_ programs: [GeneratedProgram]) throws -> [ProgramOutcome] {
        let folder = settings.work + "/batch"
        let manager = FileManager.default
        try? manager.removeItem(atPath: folder)
        for side in ["original", "lowered"] { try manager.createDirectory(atPath: "\(folder)/\(side)", withIntermediateDirectories: true) }
        var outcomes: [Int: ProgramOutcome] = [:]
        for program in programs {
            try Data(program.source.utf8).write(to: URL(fileURLWithPath: "\(folder)/original/\(fileName(program.index))"))
            if let companion = program.companion {
                try Data(companion.utf8).write(to: URL(fileURLWithPath: "\(folder)/original/\(companionName(program.index))"))
            }
            outcomes[program.index] = ProgramOutcome(program: program)
        }

        // Lowering, all files at once (one module); diagnostics name their file.
        let lowering = runChild(settings.dewrap, ["-o", folder + "/lowered"] + programs.flatMap { files($0.index, side: folder + "/original") })
        clock.add("dewrap", lowering.seconds)
        for line in lowering.errors.split(separator: "\n") {
            guard let (index, rest) = programDiagnostic(String(line)), outcomes[index] != nil else { continue }
            outcomes[index]!.diagnostics.append(rest)
        }
        for program in programs {
            let paths = files(program.index, side: folder + "/original").map { $0.replacingOccurrences(of: "/original/", with: "/lowered/") }
            let contents = paths.compactMap { manager.contents(atPath: $0) }
            if contents.count == paths.count {
                outcomes[program.index]!.lowered = contents.map { String(decoding: $0, as: UTF8.self) }
                    .joined(separator: "\n// ---- \(companionName(program.index))\n")
            } else {
                outcomes[program.index]!.verdict = .different
                let errors = outcomes[program.index]!.diagnostics.filter { $0.contains(": error: ") }
                outcomes[program.index]!.reasons.append(
                    "dewrap wrote no lowering (exit status \(lowering.status)): " + errors.joined(separator: "; "))
            }
        }

        // Each side: `-print-ast` (which type-checks) narrows the batch to the programs that compile, then
        // one build of those, narrowed again if code generation finds more (definite initialization).
        // With two jobs, the two sides are built at the same time. Every original is built, so that one the
        // compiler rejects is told as a generator bug even when dewrap refused it.
        let names = ["original", "lowered"]
        let members = [programs.map(\.index), programs.map(\.index).filter { outcomes[$0]!.lowered != nil }]
        let results = SideResults()
        if settings.jobs >= 2 {
            DispatchQueue.concurrentPerform(iterations: 2) { results.set($0, side("\(folder)/\(names[$0])", members: members[$0])) }
        } else {
            for index in 0..<2 { results.set(index, side("\(folder)/\(names[index])", members: members[index])) }
        }
        var sides: [String: SideResult] = [:]
        for (index, name) in names.enumerated() {
            let result = results.get(index)
            sides[name] = result
            for (program, errors) in result.failures.sorted(by: { $0.key < $1.key }) {
                if name == "original" {
                    outcomes[program]!.originalFails = true
                    outcomes[program]!.verdict = .notCompiling
                    outcomes[program]!.reasons.insert("the original does not compile (a generator bug):\n" + errors, at: 0)
                } else if outcomes[program]!.verdict != .notCompiling {
                    outcomes[program]!.verdict = .notCompiling
                    outcomes[program]!.reasons.append("the lowering does not compile:\n" + errors)
                }
            }
        }

        // Comparison.
        for program in programs {
            var outcome = outcomes[program.index]!
            defer { outcomes[program.index] = outcome }
            guard outcome.verdict == .same else { continue }
            let original = sides["original"]!.outputs[program.index], lowered = sides["lowered"]!.outputs[program.index]
            outcome.originalOutput = original
            outcome.loweredOutput = lowered
            if original != lowered {
                outcome.verdict = .different
                outcome.reasons.append("the runs differ")
            }
            if let problem = compareSignatures(program, original: sides["original"]!.signatures, lowered: sides["lowered"]!.signatures) {
                outcome.verdict = .different
                outcome.reasons.append(problem)
            }
            if outcome.verdict == .same && outcome.diagnostics.contains(where: { $0.contains(": warning: ") }) {
                outcome.verdict = .leftWithWarning
            }
        }
        return programs.map { outcomes[$0.index]! }
    }

    /// The two sides' results, set from two threads.
    private final class SideResults: @unchecked Sendable {
        private var results: [SideResult?] = [nil, nil]
        private let lock = NSLock()

        func set(_ index: Int, _ result: SideResult) {
            lock.lock()
            results[index] = result
            lock.unlock()
        }

        func get(_ index: Int) -> SideResult {
            lock.lock()
            defer { lock.unlock() }
            return results[index]!
        }
    }

    /// What one side (as written, or as lowered) of a batch gave.
    private struct SideResult {
        var signatures: [String: [String]]
        var outputs: [Int: String]
        /// Programs that do not compile, with the compiler's errors.
        var failures: [Int: String]
    }

    /// `-print-ast` over the side's programs, one build of those that compile, and its run.
    private func side(_ folder: String, members: [Int]) -> SideResult {
        var failures: [Int: String] = [:]
        let (compiling, signatures) = printedSignatures(of: members, side: folder, failures: &failures)
        let built = buildProgram(compiling, side: folder, failures: &failures)
        let outputs = built.map { runPrograms($0, members: compiling.filter { failures[$0] == nil }) } ?? [:]
        return SideResult(signatures: signatures, outputs: outputs, failures: failures)
    }

    private func fileName(_ index: Int) -> String { "P\(index).swift" }
    /// A program's second file, when it has one (`GeneratedProgram.companion`).
    private func companionName(_ index: Int) -> String { "P\(index).more.swift" }

    /// The paths of program `index`'s files in `side`: its file and its companion, if that is there.
    private func files(_ index: Int, side: String) -> [String] {
        let companion = "\(side)/\(companionName(index))"
        return ["\(side)/\(fileName(index))"] + (FileManager.default.fileExists(atPath: companion) ? [companion] : [])
    }

    /// `…/P12.swift:3:4: warning: …` (or `…/P12.more.swift:…`) → (12, `3:4: warning: …`).
    private func programDiagnostic(_ line: String) -> (Int, String)? {
        guard let range = line.range(of: ".swift:"),
            let slash = line[..<range.lowerBound].lastIndex(of: "/").map({ line.index(after: $0) }) ?? Optional(line.startIndex),
            line[slash...].hasPrefix("P")
        else { return nil }
        let digits = line[line.index(after: slash)..<range.lowerBound].prefix { $0.isASCII && $0.isNumber }
        guard let index = Int(digits) else { return nil }
        return (index, String(line[range.upperBound...]))
    }

    /// The programs whose files the compiler's error lines name, with those lines.
    private func errorsByProgram(_ text: String) -> [Int: String] {
        var result: [Int: String] = [:]
        for line in text.split(separator: "\n") where line.contains(": error: ") {
            if let (index, rest) = programDiagnostic(String(line)) { result[index, default: ""] += rest + "\n" }
        }
        return result
    }

    // MARK: - Compiling

    private var compilerFlags: [String] {
        ["-swift-version", "6", "-I", standInFolder]
    }

    /// `-print-ast` over `members`' files (it prints nothing if any has an error: those found are dropped, and
    /// it runs again). Returns the programs that type-check and the signatures by type.
    private func printedSignatures(of members: [Int], side: String, failures: inout [Int: String]) -> ([Int], [String: [String]]) {
        var members = members
        while !members.isEmpty {
            let result = printAST(members, side: side)
            if result.status == 0 {
                return (members, InitializerSignatures.byType(in: result.output + "\n" + result.errors))
            }
            let named = errorsByProgram(result.errors).filter { members.contains($0.key) }
            if named.isEmpty {
                // A crash, or errors that name no program: halves, down to each program alone.
                let failing = narrow(members) { printAST($0, side: side).status == 0 }
                for index in failing { failures[index] = "the compiler fails on it alone:\n" + String(result.errors.suffix(4000)) }
                if failing.isEmpty {
                    // Each program alone type-checks, but not all of them together: no signatures.
                    return (members, [:])
                }
                members.removeAll { failing.contains($0) }
            } else {
                for (index, errors) in named { failures[index] = errors }
                members.removeAll { named[$0] != nil }
            }
        }
        return (members, [:])
    }

    /// `swiftc -print-ast` over the programs as one file, each after a `#sourceLocation` naming its own file (so
    /// that errors name the program): one compiler process. Given several files, the driver starts one per
    /// file, each loading the modules again and parsing all the others (twice the time for a batch).
    private func printAST(_ members: [Int], side: String) -> ChildResult {
        var text = ""
        for path in members.flatMap({ files($0, side: side) }) {
            let source = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            text += "#sourceLocation(file: \"\(path)\", line: 1)\n" + source + "\n"
        }
        text += "#sourceLocation()\n"
        let path = side + "/AllPrograms.swift.txt"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let result = runChild(
            settings.swiftc,
            [
                "-frontend", "-print-ast", "-swift-version", "6", "-I", standInFolder, "-module-name", "Batch", path,
            ])
        clock.add("print-ast", result.seconds)
        return result
    }

    /// The executable built from `members` and a main calling each driver, or nil; programs that stop it
    /// from building are moved to `failures`.
    private func buildProgram(_ members: [Int], side: String, failures: inout [Int: String]) -> String? {
        var members = members
        let executable = side + "/program"
        while !members.isEmpty {
            writeMain(members, side: side)
            let result = runChild(
                settings.swiftc,
                compilerFlags + [
                    // One frontend for the batch (whole module): about half the time of one per file in a debug build.
                    "-L", standInFolder, "-lSwiftUI", "-wmo", "-continue-building-after-errors",
                    "-o", executable, side + "/main.swift",
                ] + members.flatMap { files($0, side: side) })
            clock.add("build", result.seconds)
            if result.status == 0 { return executable }
            let named = errorsByProgram(result.errors).filter { members.contains($0.key) }
            if named.isEmpty {
                let failing = narrow(members) { compiles($0, side: side, arguments: ["-c", "-wmo", "-parse-as-library", "-o", "/dev/null"]) }
                guard !failing.isEmpty else {
                    for index in members {
                        failures[index] = "the batch does not build, its programs alone do:\n" + String(result.errors.suffix(4000))
                    }
                    return nil
                }
                for index in failing { failures[index] = "the compiler fails on it alone:\n" + String(result.errors.suffix(4000)) }
                members.removeAll { failing.contains($0) }
            } else {
                for (index, errors) in named { failures[index, default: ""] += errors }
                members.removeAll { named[$0] != nil }
            }
        }
        return nil
    }

    /// The programs among `members` for which `succeeds` is false, found by trying halves and finally
    /// each program alone.
    private func narrow(_ members: [Int], _ succeeds: ([Int]) -> Bool) -> [Int] {
        if succeeds(members) { return [] }
        if members.count == 1 { return members }
        let half = members.count / 2
        return narrow(Array(members[..<half]), succeeds) + narrow(Array(members[half...]), succeeds)
    }

    /// Whether `swiftc arguments` succeeds on `members`' files.
    private func compiles(_ members: [Int], side: String, arguments: [String]) -> Bool {
        let result = runChild(settings.swiftc, compilerFlags + arguments + members.flatMap { files($0, side: side) })
        clock.add("narrowing", result.seconds)
        return result.status == 0
    }

    /// `main.swift`: line-buffered output, the stand-in's trace, then each driver after a header line,
    /// from the index given as the first argument on (to go on after one that crashed).
    private func writeMain(_ members: [Int], side: String) {
        var text = """
            @preconcurrency import Glibc
            import SwiftUI

            setvbuf(stdout, nil, _IOLBF, 0)
            wrapperTrace = { print("  [trace] " + $0) }
            let first = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 0 : 0

            """
        for index in members {
            text += "if first <= \(index) {\n    print(\"=== P\(index)\")\n    await P\(index)_drive()\n}\n"
        }
        try? Data(text.utf8).write(to: URL(fileURLWithPath: side + "/main.swift"))
    }

    /// Runs the executable and splits its output by program; a program that crashes (or hangs) ends
    /// with its exit status, and the run goes on from the next one.
    private func runPrograms(_ executable: String, members: [Int]) -> [Int: String] {
        var outputs: [Int: String] = [:]
        var next = members.first
        while let first = next {
            let result = runChild(executable, [String(first)], timeout: 120)
            clock.add("run", result.seconds)
            var current: Int?
            var lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.last == "" { lines.removeLast() }
            for line in lines {
                if line.hasPrefix("=== P"), let index = Int(line.dropFirst(5)) {
                    current = index
                    outputs[index] = ""
                } else if let current {
                    outputs[current]! += line + "\n"
                }
            }
            guard result.status != 0 || result.timedOut else { break }
            let stopped = current ?? first
            outputs[stopped, default: ""] += result.timedOut ? "timed out\n" : "exit status \(result.status)\n"
            next = members.first { $0 > stopped }
        }
        return outputs
    }

    // MARK: - Signatures

    /// The program's inits, as written and as lowered, compared per type as multisets, after the two known
    /// exceptions (SPEC Corrections I-4 and the Oracle note) are applied to the compiler's. Nil when they match.
    private func compareSignatures(_ program: GeneratedProgram, original: [String: [String]], lowered: [String: [String]]) -> String? {
        var problems: [String] = []
        let types = Set(original.keys).union(lowered.keys).filter { $0.hasPrefix(program.prefix) }.sorted()
        for type in types {
            var compilers = original[type] ?? []
            let written = lowered[type] ?? []
            // The exceptions apply to inits dewrap wrote out; a type left as written prints as the compiler's.
            if let (labels, isolation) = program.isolatedByCorrection[type] {
                // The compiler's may be isolated already (a non-Sendable property): nothing to replace then.
                compilers = compilers.map { signature in
                    let isMemberwise = InitializerSignatures.labels(signature) == labels || signature.hasSuffix("init()")
                    guard isMemberwise, !written.contains(signature),
                        let isolated = InitializerSignatures.keptIsolated(signature, isolation: isolation)
                    else {
                        return signature
                    }
                    return isolated
                }
            }
            for (printed, real) in program.defaultsPrintedAsAttribute[type] ?? [] where !written.contains(where: { $0.contains(printed) }) {
                guard compilers.contains(where: { $0.contains(printed) }) else {
                    problems.append("\(type): -print-ast no longer prints this default as the attribute: \(printed)")
                    continue
                }
                compilers = compilers.map { $0.replacingOccurrences(of: printed, with: real) }
            }
            if InitializerSignatures.sorted(compilers) != InitializerSignatures.sorted(written) {
                let missing = compilers.filter { !written.contains($0) }, extra = written.filter { !compilers.contains($0) }
                problems.append(
                    "\(type): the inits differ from the compiler's\n"
                        + missing.map { "  compiler's:  \($0)\n" }.joined() + extra.map { "  written:     \($0)\n" }.joined())
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "\n")
    }
}
