import DewrapLowering
import DewrapSyntax

/// Exit statuses scripts can rely on.
enum ExitStatus: Int32 {
    case success = 0
    /// An input had errors, or a file could not be read or written.
    case failure = 1
    /// The command line is wrong (BSD `EX_USAGE`).
    case usage = 64
}

let version = "0.1.0"

/// Carries out the jobs one after the other; a failing input does not stop
/// the others, and nothing is written for it.
func run(_ jobs: [Job], invocation: Invocation) -> ExitStatus {
    var status = ExitStatus.success
    let wrapperShapes: WrapperShapes
    do throws(FileError) {
        wrapperShapes = try readWrapperSources(invocation.wrapperSources)
    } catch {
        writeStandardError("dewrap: error: \(error.message)\n")
        return .failure
    }
    for job in jobs {
        var options = LoweringOptions(strict: invocation.strict, wrapperShapes: wrapperShapes)
        if invocation.lineDirectives { options.lineDirectives = invocation.sourceName ?? job.displayName }
        if !perform(job, action: invocation.action, options: options) { status = .failure }
    }
    return status
}

/// One job; false when it failed.
private func perform(_ job: Job, action: Invocation.Action, options: LoweringOptions) -> Bool {
    let source: [UInt8]
    do throws(FileError) {
        source = try readInput(job.input)
        guard source.count <= Lexer.maximumInputSize else {
            throw FileError(message: "cannot read '\(job.displayName)': it is larger than 4 GiB")
        }
    } catch {
        writeStandardError("dewrap: error: \(error.message)\n")
        return false
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
        writeStandardError(formatDiagnostics(warnings + tree.diagnostics, source: source, path: job.displayName))
        do throws(FileError) {
            try write(Array(tree.dump(source: source).utf8), for: job, source: source)
        } catch {
            writeStandardError("dewrap: error: \(error.message)\n")
            return false
        }
        return tree.diagnostics.isEmpty
    default:
        let lowered = lower(source, fileName: job.displayName, options: options)
        result = lowered.output
        diagnostics = lowered.diagnostics
    }
    writeStandardError(formatDiagnostics(diagnostics, source: source, path: job.displayName))
    if diagnostics.contains(where: { $0.severity == .error }) { return false }

    do throws(FileError) {
        try write(result, for: job, source: source)
    } catch {
        writeStandardError("dewrap: error: \(error.message)\n")
        return false
    }
    return true
}

private func write(_ result: [UInt8], for job: Job, source: [UInt8]) throws(FileError) {
    switch job.output {
    case .standardOutput:
        try writeStandardOutput(result)
    case .file(let path):
        try writeAtomically(result, to: path)
    case .inPlace:
        if result != source { try writeAtomically(result, to: job.input) }
    }
}
