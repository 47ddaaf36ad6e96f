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

    /// As given on the command line; `-` is standard input.
    var input: String
    var output: Output

    /// The name diagnostics use.
    var displayName: String { input == "-" ? "<stdin>" : input }
}

/// Turns an invocation into jobs, with the checks that need the file system:
/// the same file named twice, or an output that would overwrite an input.
func plan(_ invocation: Invocation) throws(UsageError) -> [Job] {
    var seen: [FileIdentity: String] = [:]
    for input in invocation.inputs where input != "-" {
        guard let identity = FileIdentity(path: input) else { continue }  // reported when read
        if let earlier = seen[identity] {
            throw UsageError(message: "'\(earlier)' and '\(input)' are the same file")
        }
        seen[identity] = input
    }

    switch invocation.destination {
    case .standardOutput:
        return invocation.inputs.map { Job(input: $0, output: .standardOutput) }
    case .inPlace:
        return invocation.inputs.map { Job(input: $0, output: .inPlace) }
    case .comparison(let comparison):
        return invocation.inputs.map { Job(input: $0, output: .comparison(comparison)) }
    case .path(let path):
        let intoFolder = writesIntoFolder(invocation)
        var jobs: [Job] = []
        for input in invocation.inputs {
            var target = path
            if intoFolder {
                if input == "-" {
                    throw UsageError(message: "standard input has no file name to write into the folder '\(path)'")
                }
                target = (path.hasSuffix("/") ? path : path + "/") + baseName(input)
            }
            if let identity = FileIdentity(path: target), let clash = seen[identity] {
                throw UsageError(message: "writing '\(target)' would overwrite the input '\(clash)'; use '--in-place' to rewrite it")
            }
            jobs.append(Job(input: input, output: .file(target)))
        }
        return jobs
    }
}

/// Whether `-o PATH` names a folder that receives each input under its own
/// name: with several inputs, or when PATH is a folder or ends in `/` (then
/// it is created if missing). Otherwise PATH names the output file, whose
/// folder must exist, as for a compiler's `-o`.
func writesIntoFolder(_ invocation: Invocation) -> Bool {
    guard case .path(let path) = invocation.destination else { return false }
    return invocation.inputs.count > 1 || path.hasSuffix("/") || isDirectory(path)
}
