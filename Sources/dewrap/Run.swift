import DewrapLowering
import DewrapSyntax
import Synchronization

/// Exit statuses scripts can rely on.
enum ExitStatus: Int32 {
    case success = 0
    /// An input had errors, or a file could not be read or written.
    case failure = 1
    /// The command line is wrong (BSD `EX_USAGE`).
    case usage = 64
}

let version = "0.1.0"

/// Carries out the jobs, on up to `invocation.jobs` threads; a failing input
/// does not stop the others, and nothing is written for it. Diagnostics are
/// printed in the order of the inputs.
func run(_ jobs: [Job], invocation: Invocation) -> ExitStatus {
    var sourcesShapes: WrapperShapes
    do throws(FileError) {
        sourcesShapes = try readWrapperSources(invocation.wrapperSources)
    } catch {
        writeStandardError("dewrap: error: \(error.message)\n")
        return .failure
    }
    let module = invocation.action == .lower ? readModule(invocation.inputs, wrapperShapes: &sourcesShapes) : nil
    let wrapperShapes = sourcesShapes
    _ = fileCreationMask  // read before the workers start
    let failed = Atomic<Bool>(false)
    let reports = OrderedReports(jobs: jobs.count, print: writeStandardError)
    concurrentForEach(jobs.count, threads: invocation.jobs ?? availableCores()) { index in
        let job = jobs[index]
        var options = LoweringOptions(
            strict: invocation.strict, wrapperShapes: wrapperShapes,
            swiftVersion: invocation.swiftVersion == 5 ? .swift5 : .swift6)
        options.module = module
        if invocation.lineDirectives { options.lineDirectives = invocation.sourceName ?? job.displayName }
        let outcome = perform(job, action: invocation.action, options: options)
        if !outcome.succeeded { failed.store(true, ordering: .relaxed) }
        reports.finish(index, outcome.report)
    }
    return failed.load(ordering: .relaxed) ? .failure : .success
}

/// What one job has to say: its diagnostics and errors, and whether it succeeded.
private struct Outcome {
    var succeeded: Bool
    var report: String

    static func failure(_ error: FileError, after report: String = "") -> Outcome {
        Outcome(succeeded: false, report: report + "dewrap: error: \(error.message)\n")
    }
}

/// One job: read, lower (or dump), write.
private func perform(_ job: Job, action: Invocation.Action, options: LoweringOptions) -> Outcome {
    let source: [UInt8]
    do throws(FileError) {
        source = try readInput(job.input)
        guard source.count <= Lexer.maximumInputSize else {
            throw FileError(message: "cannot read '\(job.displayName)': it is larger than 4 GiB")
        }
    } catch {
        return .failure(error)
    }

    let result: [UInt8]
    let diagnostics: [Diagnostic]
    switch action {
    case .emitTokens:
        let lexed = Lexer.lex(source)
        result = tokenDump(source, tokens: lexed.tokens)
        diagnostics = lexed.diagnostics.map { Diagnostic(.warning, at: $0.offset, $0.message) }
    case .emitTree:
        // A report: written even when the parser found errors.
        let tree = Parser.parse(source)
        let warnings = tree.lexerDiagnostics.map { Diagnostic(.warning, at: $0.offset, $0.message) }
        let report = formatDiagnostics(warnings + tree.diagnostics, source: source, path: job.displayName)
        do throws(FileError) {
            try write(Array(tree.dump(source: source).utf8), for: job, source: source)
        } catch {
            return .failure(error, after: report)
        }
        return Outcome(succeeded: tree.diagnostics.isEmpty, report: report)
    default:
        let lowered = lower(source, fileName: job.displayName, options: options)
        result = lowered.output
        diagnostics = lowered.diagnostics
    }
    let report = formatDiagnostics(diagnostics, source: source, path: job.displayName)
    if diagnostics.contains(where: { $0.severity == .error }) { return Outcome(succeeded: false, report: report) }

    do throws(FileError) {
        try write(result, for: job, source: source)
    } catch {
        return .failure(error, after: report)
    }
    return Outcome(succeeded: true, report: report)
}

private func write(_ result: [UInt8], for job: Job, source: [UInt8]) throws(FileError) {
    switch job.output {
    case .standardOutput:
        try writeStandardOutput(result)
    case .file(let path):
        try writeAtomically(result, to: path, durable: false)
    case .inPlace:
        if result != source { try writeAtomically(result, to: job.input, durable: true) }
    }
}
