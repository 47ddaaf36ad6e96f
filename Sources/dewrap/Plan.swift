/// One input and where its result goes, decided before anything is read.
struct Job {
    enum Output {
        case standardOutput
        case file(String)
        /// Rewrite the input itself, only when the result differs.
        case inPlace
        /// Write nothing; report whether (or how) the result differs.
        case comparison(Invocation.Comparison)
    }

    /// As given on the command line (or found in a folder given); `-` is standard input.
    var input: String
    var output: Output

    /// The name diagnostics use.
    var displayName: String { input == "-" ? "<stdin>" : input }
}

/// Turns an invocation into jobs, with the checks that need the file system:
/// the same file named twice (or found in two folders given), two results for one output
/// file, or an output that would overwrite an input.
func plan(_ invocation: Invocation, inputs: Inputs) throws(UsageError) -> [Job] {
    var seen: [FileIdentity: String] = [:]
    for input in inputs.files where input.path != "-" {
        guard let identity = input.identity ?? FileIdentity(path: input.path) else { continue } // reported when read
        if let earlier = seen[identity] {
            throw UsageError(
                message: earlier == input.path
                    ? "'\(earlier)' is given twice: two of the folders given hold it"
                    : "'\(earlier)' and '\(input.path)' are the same file")
        }
        seen[identity] = input.path
    }

    switch invocation.destination {
    case .standardOutput:
        return inputs.files.map { Job(input: $0.path, output: .standardOutput) }
    case .inPlace:
        return inputs.files.map { Job(input: $0.path, output: .inPlace) }
    case .comparison(let comparison):
        return inputs.files.map { Job(input: $0.path, output: .comparison(comparison)) }
    case .path(let path):
        let intoFolder = writesIntoFolder(invocation, inputs: inputs)
        var jobs: [Job] = []
        var targets: [String: String] = [:]
        for input in inputs.files {
            var target = path
            if intoFolder {
                if input.path == "-" {
                    throw UsageError(message: "standard input has no file name to write into the folder '\(path)'")
                }
                target = joined(path, input.outputName)
                if let earlier = targets[target] {
                    throw UsageError(message: "'\(earlier)' and '\(input.path)' would both be written to '\(target)'")
                }
                targets[target] = input.path
            }
            if let identity = FileIdentity(path: target), let clash = seen[identity] {
                throw UsageError(message: "writing '\(target)' would overwrite the input '\(clash)'; use '--in-place' to rewrite it")
            }
            jobs.append(Job(input: input.path, output: .file(target)))
        }
        return jobs
    }
}

/// Whether `-o PATH` names a folder that receives each input under its own
/// name (or, for a file found in a folder input, its path under that folder): with
/// several inputs, a folder input, or when PATH is a folder or ends in `/` (then
/// it is created if missing). Otherwise PATH names the output file, whose
/// folder must exist, as for a compiler's `-o`.
func writesIntoFolder(_ invocation: Invocation, inputs: Inputs) -> Bool {
    guard case .path(let path) = invocation.destination else { return false }
    return inputs.files.count > 1 || inputs.hasFolder || path.hasSuffix("/") || isDirectory(path)
}
