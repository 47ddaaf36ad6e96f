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
/// does not stop the others, and nothing is written for it. Diagnostics (and
/// the standard output of `--check` and `--diff`) are printed in the order of
/// the inputs.
func run(_ jobs: [Job], invocation: Invocation) -> ExitStatus {
    var sourcesShapes: WrapperShapes
    let moduleSources: [String]
    var moduleIndex: [ModuleIndexEntry]?
    do throws(FileError) {
        sourcesShapes = try readWrapperSources(invocation.wrapperSources)
        moduleSources =
            invocation.action == .lower
            ? try moduleSourceFiles(invocation.moduleSources, inputs: jobs.map(\.input)) : []
        if let path = invocation.moduleIndex, invocation.action == .lower {
            moduleIndex = try readModuleIndex(path, moduleSources: moduleSources, inputs: jobs.map(\.input))
        }
    } catch {
        writeStandardError("dewrap: error: \(error.message)\n")
        return .failure
    }
    var declaringInputs: Set<String>?
    let kept = KeptInputs()
    let module =
        invocation.action == .lower && !invocation.fileByFile
        ? readModule(
            jobs.map(\.input), moduleSources: moduleSources, dependencies: wrapperSourceFiles(invocation.wrapperSources),
            moduleIndex: moduleIndex, wrapperShapes: &sourcesShapes, declaringInputs: &declaringInputs, keeping: kept)
        : nil
    let declaring = declaringInputs
    let wrapperShapes = sourcesShapes
    _ = fileCreationMask // read before the workers start
    let failed = Atomic<Bool>(false)
    let changed = Atomic<Bool>(false)
    let staged = StagedWrites(jobs: jobs.count)
    let reports = OrderedReports(jobs: jobs.count) { report in
        writeStandardError(report.diagnostics)
        do throws(FileError) {
            if !report.output.isEmpty { try writeStandardOutput(report.output) }
        } catch {
            writeStandardError("dewrap: error: \(error.message)\n")
            failed.store(true, ordering: .relaxed)
        }
    }
    let threads = invocation.jobs ?? availableCores()
    @Sendable func options(
        for job: Job?, projections: Set<String> = [], ambiguous: [String: AmbiguousProjection] = [:], calls: ModuleCalls? = nil,
        projectionMembers: [String: Set<String>] = [:]
    ) -> LoweringOptions {
        var options = LoweringOptions(
            strict: invocation.strict, wrapperShapes: wrapperShapes,
            swiftVersion: invocation.swiftVersion == 5 ? .swift5 : .swift6)
        options.module = module
        options.moduleProjections = projections
        options.moduleAmbiguous = ambiguous
        options.moduleProjectionMembers = projectionMembers
        options.moduleCalls = calls
        if invocation.lineDirectives, let job { options.lineDirectives = invocation.sourceName ?? job.displayName }
        return options
    }
    @Sendable func report(_ index: Int, _ outcome: Outcome) {
        let outcome = stage(outcome, of: jobs[index], index: index, into: staged)
        if !outcome.succeeded { failed.store(true, ordering: .relaxed) }
        if outcome.changed { changed.store(true, ordering: .relaxed) }
        reports.finish(index, outcome.report)
    }
    // A module's `$x` across files: a file that uses a `$name` it did not rewrite waits until every file
    // was lowered once, which tells the names lowered elsewhere; it is then lowered again knowing them.
    // Every other file is finished (written, reported) at once.
    var waiting: [LoweredFile?] = Array(repeating: nil, count: jobs.count)
    var relowered: [Set<String>?] = Array(repeating: nil, count: jobs.count)
    var done = Array(repeating: false, count: jobs.count)
    var moduleUses = ModuleSourceUses()
    var finalCalls: ModuleCalls?
    var ambiguous: [String: AmbiguousProjection] = [:]
    var projectionMembers: [String: Set<String>] = [:]
    if module != nil {
        // Functions with wrapped parameters that other files call (issue 21): the files that may declare
        // one are lowered first, so that the others are lowered knowing those functions.
        let early = Mutex<[LoweredFile?]>(Array(repeating: nil, count: jobs.count))
        concurrentForEach(jobs.count, threads: threads) { index in
            let job = jobs[index]
            guard job.input != "-", declaring?.contains(job.input) ?? true, let source = try? kept.read(job.input),
                declaring != nil || mayDeclareWrappedParameter(source), notSwiftSource(source) == nil
            else { return }
            let result = lower(source, fileName: job.displayName, options: options(for: job, calls: ModuleCalls()))
            early.withLock { $0[index] = LoweredFile(source: source, result: result) }
        }
        var functions = ModuleFunctionPasses(early: early.withLock { $0 }, paths: jobs.map(\.displayName))
        if functions.declaresFunctions {
            for path in moduleSources {
                if let source = try? kept.read(path) { functions.refuseNamed(by: source, path: path) }
            }
        }
        let calls = functions.calls
        let firstPass = Mutex(FirstPass(jobs: jobs.count))
        let earlyResults = functions.held
        concurrentForEach(jobs.count, threads: threads) { index in
            let job = jobs[index]
            let lowered: LoweredFile
            if let held = earlyResults[index] {
                lowered = held
            } else {
                guard job.input != "-", let source = try? kept.read(job.input), notSwiftSource(source) == nil else { return }
                lowered = LoweredFile(source: source, result: lower(source, fileName: job.displayName, options: options(for: job, calls: calls)))
            }
            let projections = lowered.result.projections
            if projections.unresolved.isEmpty && !projections.unread && earlyResults[index] == nil
                && projections.functions.isEmpty && projections.called.isEmpty && projections.unmatched.isEmpty
            {
                report(index, perform(job, invocation: invocation, options: options(for: job, calls: calls), lowered: lowered, reading: kept))
                firstPass.withLock {
                    $0.projections[index] = projections; $0.done[index] = true
                }
            } else {
                firstPass.withLock {
                    $0.projections[index] = projections; $0.waiting[index] = lowered
                }
            }
        }
        var first = firstPass.withLock { $0 }
        // Until no file has a use it cannot rewrite of a function still lowered: refuse those functions,
        // and lower again the files whose result depends on one refused (or lowered before it was known).
        functions.held = first.waiting
        while true {
            let stale = functions.staleFiles()
            if stale.isEmpty { break }
            let calls = functions.calls
            let relowering = Mutex(functions.held)
            concurrentForEach(stale.count, threads: threads) { position in
                let index = stale[position]
                let job = jobs[index]
                guard let source = relowering.withLock({ $0[index]?.source }) else { return }
                let result = lower(source, fileName: job.displayName, options: options(for: job, calls: calls))
                relowering.withLock { $0[index] = LoweredFile(source: source, result: result) }
            }
            functions.held = relowering.withLock { $0 }
            functions.relowered(stale)
        }
        for index in jobs.indices where functions.held[index] != nil {
            first.waiting[index] = functions.held[index]
            first.projections[index] = functions.held[index]!.result.projections
        }
        finalCalls = functions.calls
        waiting = first.waiting
        done = first.done
        // The module sources keep their wrapped properties: their names count as left as written.
        moduleUses = moduleSourceUses(
            moduleSources, moduleIndex: moduleIndex, run: first.projections, runPaths: jobs.map(\.displayName),
            options: options(for: nil, calls: finalCalls))
        let (projections, relower) = moduleUses.acrossFiles(first.projections)
        projectionMembers = LoweringResult.Projections.projectionMembersAcrossFiles(first.projections)
        for index in jobs.indices where relower[index] {
            relowered[index] = projections
            waiting[index] = nil
        }
        // A file that leaves a `$name` as written where `name` is lowered in one file and left in
        // another (and not in this file: then the file's own, most likely) is lowered again to say so
        // at each such use (which property it names cannot be told).
        ambiguous = ambiguousProjections(first.projections, paths: jobs.map(\.displayName))
        let ambiguousNames = Set(ambiguous.keys)
        for index in jobs.indices where !ambiguous.isEmpty && !done[index] {
            // A file copied unread is read for a `$name` of one of them (a byte scan).
            guard let file = first.projections[index],
                file.unresolved.contains(where: { ambiguous[$0] != nil && !file.left.contains($0) })
                    || file.unread && first.waiting[index].map { !dollarNames(in: $0.source, among: ambiguousNames).isEmpty } ?? true
            else { continue }
            relowered[index] = relowered[index] ?? projections
            waiting[index] = nil
        }
    }
    let moduleAmbiguous = ambiguous
    let moduleCalls = finalCalls
    let moduleProjectionMembers = projectionMembers
    let projectionsByJob = relowered
    let lowered = waiting
    let finished = done
    // What the run holds is left for the exit to free: its module's parsed files and kept bytes,
    // the first pass's results and the module index's entries are some hundred thousand objects,
    // which freeing one by one costs a large run more than it saves (docs/PERFORMANCE.md).
    defer { keepUntilExit(module as Any, kept, lowered, moduleIndex as Any, moduleSources) }
    concurrentForEach(jobs.count, threads: threads) { index in
        guard !finished[index] else { return }
        let job = jobs[index]
        report(
            index,
            perform(
                job, invocation: invocation,
                options: options(
                    for: job, projections: projectionsByJob[index] ?? [], ambiguous: moduleAmbiguous, calls: moduleCalls,
                    projectionMembers: moduleProjectionMembers),
                lowered: lowered[index], reading: kept))
    }
    for error in staged.commit() {
        writeStandardError("dewrap: error: \(error.message)\n")
        failed.store(true, ordering: .relaxed)
    }
    for note in moduleUses.notes {
        writeStandardError(formatDiagnostics(note.diagnostics, source: note.source, path: note.path, verbosity: invocation.verbosity))
    }
    if failed.load(ordering: .relaxed) { return .failure }
    if case .comparison(let comparison) = invocation.destination, comparison.failsOnChange,
        changed.load(ordering: .relaxed)
    {
        return .failure
    }
    return .success
}

/// What one job has to say, whether it succeeded, whether its result differs
/// from its input (`--check`, `--diff`), and the bytes that are to replace its
/// input (`--in-place`).
private struct Outcome {
    var succeeded: Bool
    var changed = false
    var report: Report
    var replacement: [UInt8]?

    init(succeeded: Bool, changed: Bool = false, diagnostics: String, output: [UInt8] = [], replacement: [UInt8]? = nil) {
        self.succeeded = succeeded
        self.changed = changed
        report = Report(diagnostics: diagnostics, output: output)
        self.replacement = replacement
    }

    static func failure(_ error: FileError, after diagnostics: String = "") -> Outcome {
        Outcome(succeeded: false, diagnostics: diagnostics + "dewrap: error: \(error.message)\n")
    }
}

/// One job: read (from `kept` if the module's read kept it), lower (or dump), write (or compare);
/// `lowered` when that was done already.
private func perform(
    _ job: Job, invocation: Invocation, options: LoweringOptions, lowered done: LoweredFile? = nil, reading kept: KeptInputs
) -> Outcome {
    if let done { return finish(job, invocation: invocation, source: done.source, lowered: done.result) }
    let source: [UInt8]
    do throws(FileError) {
        source = try kept.read(job.input)
        guard source.count <= Lexer.maximumInputSize else {
            throw FileError(message: "cannot read '\(job.displayName)': it is larger than 4 GiB")
        }
    } catch {
        return .failure(error)
    }
    // A binary file, most likely: one error, not a warning for every stray byte.
    if let problem = notSwiftSource(source) {
        return Outcome(succeeded: false, diagnostics: formatDiagnostics([problem], source: source, path: job.displayName))
    }

    let result: [UInt8]
    let diagnostics: [Diagnostic]
    switch invocation.action {
    case .emitTokens:
        let lexed = Lexer.lex(source)
        result = tokenDump(source, tokens: lexed.tokens)
        diagnostics = lexed.diagnostics.map { Diagnostic(.warning, at: $0.offset, $0.message) }
    case .emitTree:
        // A report: written even when the parser found errors.
        let tree = Parser.parse(source)
        let warnings = tree.lexerDiagnostics.map { Diagnostic(.warning, at: $0.offset, $0.message) }
        let report = formatDiagnostics(
            warnings + tree.diagnostics, source: source, path: job.displayName,
            verbosity: invocation.verbosity)
        do throws(FileError) {
            try write(Array(tree.dump(source: source).utf8), for: job)
        } catch {
            return .failure(error, after: report)
        }
        return Outcome(succeeded: tree.diagnostics.isEmpty, diagnostics: report)
    default:
        return finish(job, invocation: invocation, source: source, lowered: lower(source, fileName: job.displayName, options: options))
    }
    return finish(job, invocation: invocation, source: source, result: result, diagnostics: diagnostics)
}

private func finish(_ job: Job, invocation: Invocation, source: [UInt8], lowered: LoweringResult) -> Outcome {
    finish(job, invocation: invocation, source: source, result: lowered.output, diagnostics: lowered.diagnostics)
}

/// Reports a job's diagnostics and writes (or compares) its result unless it has errors.
private func finish(_ job: Job, invocation: Invocation, source: [UInt8], result: [UInt8], diagnostics: [Diagnostic]) -> Outcome {
    let report = formatDiagnostics(diagnostics, source: source, path: job.displayName, verbosity: invocation.verbosity)
    if diagnostics.contains(where: { $0.severity == .error }) { return Outcome(succeeded: false, diagnostics: report) }

    if case .comparison(let comparison) = job.output {
        guard !sameBytes(result, source) else { return Outcome(succeeded: true, diagnostics: report) }
        let output =
            comparison.printsDiff
            ? unifiedDiff(source, result, oldName: job.displayName, newName: job.displayName)
            : Array("\(job.displayName)\n".utf8)
        return Outcome(succeeded: true, changed: true, diagnostics: report, output: output)
    }
    if case .inPlace = job.output {
        return Outcome(succeeded: true, diagnostics: report, replacement: sameBytes(result, source) ? nil : result)
    }
    do throws(FileError) {
        try write(result, for: job)
    } catch {
        return .failure(error, after: report)
    }
    return Outcome(succeeded: true, diagnostics: report)
}

/// Writes a job's in-place result to a temporary that `StagedWrites.commit` renames
/// once every job is done; failing that, the job fails.
private func stage(_ outcome: Outcome, of job: Job, index: Int, into staged: StagedWrites) -> Outcome {
    guard let replacement = outcome.replacement else { return outcome }
    do throws(FileError) {
        try staged.stage(replacement, replacing: job.input, job: index)
    } catch {
        return .failure(error, after: outcome.report.diagnostics)
    }
    return outcome
}

private func write(_ result: [UInt8], for job: Job) throws(FileError) {
    switch job.output {
    case .standardOutput:
        try writeStandardOutput(result)
    case .file(let path):
        try writeAtomically(result, to: path)
    case .inPlace:
        preconditionFailure("an in-place result is staged by stage(_:of:index:into:)")
    case .comparison:
        preconditionFailure("a comparison writes nothing")
    }
}

/// What the first pass over a module's jobs found, by job: the results that wait for the module's
/// `$x` names, each job's projections, and the jobs already done. (A struct, not a tuple: a tuple's
/// type is made at run time, on first use, which cost a build step more than reading its file.)
private struct FirstPass {
    var waiting: [LoweredFile?]
    var projections: [LoweringResult.Projections?]
    var done: [Bool]

    init(jobs: Int) {
        waiting = Array(repeating: nil, count: jobs)
        projections = Array(repeating: nil, count: jobs)
        done = Array(repeating: false, count: jobs)
    }
}

/// Keeps `values` from being freed: the process ends soon after, and the system takes its memory
/// back at once.
private func keepUntilExit(_ values: Any...) {
    final class Kept {
        let values: [Any]
        init(_ values: [Any]) { self.values = values }
    }
    _ = Unmanaged.passRetained(Kept(values))
}
