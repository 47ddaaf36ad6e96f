/// What the command line asks for, before any file is touched.
struct Invocation: Equatable {
    enum Action: Equatable {
        case lower
        case emitTokens
        case emitTree
        case help
        case version
        /// `--write-module-index FILE`: write the index of the module and wrapper sources
        /// (ModuleIndex.swift); lower nothing.
        case writeModuleIndex(String)
    }

    enum Destination: Equatable {
        /// Standard output; only for a single input.
        case standardOutput
        /// `-o PATH`: a file for one input, a folder for several.
        case path(String)
        /// `--in-place`: each input file is rewritten.
        case inPlace
        /// `--check`, `--diff`: each input is compared with its lowering; nothing is written.
        case comparison(Comparison)
    }

    /// What `--check` and `--diff` print on standard output, and whether a
    /// change fails the run.
    enum Comparison: Equatable {
        /// `--check`: the inputs whose lowering differs from them, one a line; exit status 1 if any.
        case list
        /// `--diff`: a unified diff of each input against its lowering; exit status 0.
        case diff
        /// Both: the diffs, and exit status 1 if there is any.
        case checkedDiff

        var printsDiff: Bool { self != .list }
        var failsOnChange: Bool { self != .diff }
    }

    var action: Action = .lower
    /// Paths as given; `-` is standard input. Never empty after parsing.
    var inputs: [String] = []
    var destination: Destination = .standardOutput
    /// `--strict`: warnings are errors.
    var strict = false
    /// `--line-directives`: `#sourceLocation` lines map the output to the input.
    var lineDirectives = false
    /// `--source-name NAME`: the file name those directives mention.
    var sourceName: String?
    /// `-j N`, `--jobs N`: inputs lowered at once; nil for one per core.
    var jobs: Int?
    /// `--wrapper-sources PATH` (repeatable): files or folders with wrapper declarations.
    var wrapperSources: [String] = []
    /// `--module-sources PATH` (repeatable): files or folders of the same module, read, never written.
    var moduleSources: [String] = []
    /// `--module-index FILE`: what `--write-module-index` wrote for the module sources, read
    /// instead of most of them.
    var moduleIndex: String?
    /// `--file-by-file`: each input is lowered alone, as the only file of its module.
    var fileByFile = false
    /// `--swift-version 5|6`: the language mode the output is compiled in; nil
    /// when not given (6, unless the configuration file says otherwise).
    var swiftVersion: Int?
    /// `--config FILE`: settings read from a JSON file (Configuration.swift).
    var configuration: String?
    /// `-q`, `--quiet`: only errors are printed.
    var verbosity = Verbosity.all
}

extension Invocation.Action {
    /// The option that selects a dump instead of lowering.
    var flag: String? {
        switch self {
        case .emitTokens: return "--emit-tokens"
        case .emitTree: return "--emit-tree"
        default: return nil
        }
    }
}

/// A mistake in the command line itself (exit status 64).
struct UsageError: Error, Equatable {
    var message: String
}

let usageText = """
    OVERVIEW: Lower Swift property wrappers (@State, @Published, your own; $x) into the
    explicit Swift the compiler synthesizes. Code that is not rewritten is copied byte
    for byte.
    A property that cannot be lowered for certain is left as written, with a warning.

    USAGE: dewrap [options] [FILE|FOLDER...]

      With no FILE, or FILE '-', reads standard input. One input is written to
      standard output unless -o or --in-place says otherwise. A FOLDER stands for
      its .swift files, found recursively (entries starting with '.' skipped).
      All inputs of one run are one module: each file sees the declarations,
      wrappers and lowered properties of the others.

    OPTIONS:
      -o, --output PATH   Write the result to PATH, whose folder must exist; with
                          several inputs, a FOLDER input, or a PATH that is a
                          folder or ends in '/', PATH is a folder (created if
                          missing) that receives each file under its own name,
                          or a file found in a FOLDER under its path there.
      -i, --in-place      Rewrite each input file atomically. A file whose result
                          is unchanged is left untouched.
      --check             Write nothing; list the inputs whose lowering differs from
                          them, one a line, and exit with status 1 if there is any
                          (for CI, like 'gofmt -l').
      --diff              Write nothing; print a unified diff of each input against
                          its lowering ('--- a/PATH', '+++ b/PATH'; 'patch -p1'
                          applies it). With --check: the diffs instead of the list,
                          and status 1 if there is any.
      -q, --quiet         Print errors only, no warnings or notes.
      --strict            Treat warnings as errors: an input with a property that
                          cannot be lowered is then not written.
      --line-directives   Start the output with a "generated" header and add
                          #sourceLocation lines, so that compiler messages about the
                          output point at the input's lines (for build steps).
      --source-name NAME  The file name those directives mention (default: the input
                          path as given).
      -j, --jobs N        Lower up to N inputs at once (default: one per core).
                          Diagnostics are printed in the order of the inputs.
      --wrapper-sources PATH
                          Read the @propertyWrapper declarations in PATH (a Swift
                          file, or a folder searched for .swift files; repeatable)
                          so that properties using those wrappers are lowered.
                          These files are not lowered or written.
      --module-sources PATH
                          Files of the same module as the inputs (a Swift file,
                          or a folder searched for .swift files; repeatable):
                          their declarations, wrappers and wrapped properties
                          are read as the inputs' are, but they are never
                          lowered or written. A note lists their uses of a
                          property the run lowers ('$x') that would need
                          rewriting.
      --write-module-index FILE
                          Lower nothing: write FILE, an index of the
                          --module-sources and --wrapper-sources files (a digest
                          of what lowering reads from each: not comments, layout
                          or function bodies; their wrappers, wrapped properties
                          and $x uses), only when it changes. A build step that
                          lowers a file can depend on FILE instead of on all of
                          those files (the build plugin does).
      --file-by-file      Lower each input alone, as the only file of its module:
                          no declarations, wrappers or $x of the other inputs
                          (for inputs of several modules at once).
      --module-index FILE Read the index FILE that --write-module-index wrote
                          for the same --module-sources, instead of reading
                          each of them for what it holds. It must be current.
      --swift-version 5|6 The language mode the output is compiled in (default 6).
                          In 5, a type that Swift 5 infers @MainActor from a
                          wrapped property (@ObservedObject, @StateObject, ...)
                          gets '@preconcurrency @MainActor' written on it.
      --config FILE       Read settings from FILE, a JSON object with the keys
                          "strict" (true or false), "swiftVersion" (5 or 6),
                          "wrapperSources" and "moduleSources" (paths relative
                          to FILE's folder); the build plugin passes its
                          .dewrap.json. --swift-version wins over the file's;
                          --strict, --wrapper-sources and --module-sources add
                          to it.
      --emit-tokens       Print the tokens of one input instead of lowering it:
                          one line per token, 'OFFSET<TAB>KIND<TAB>TEXT', with \\, tab,
                          LF and CR in TEXT escaped as \\\\, \\t, \\n, \\r.
      --emit-tree         Print the parsed structure of one input instead of lowering
                          it: declarations, statements, closures, scopes and $
                          references, one line each. Parse errors are reported
                          and give exit status 1; the tree is printed anyway.
      -h, --help          Show this help.
      --version           Show the version.
      --                  Treat every later argument as a FILE.

    Diagnostics go to standard error as 'PATH:LINE:COLUMN: SEVERITY: MESSAGE'.
    Nothing is written for an input that has errors. A file with a NUL byte, or
    bytes that are not UTF-8, is not Swift source: an error.

    EXIT STATUS: 0 success (warnings allowed), 1 an input had errors or could not be
    read or written (or, with --check, would change), 64 the command line is wrong.

    """

/// Reads `arguments` (without the program name) into an `Invocation`.
/// Checks everything that can be checked without touching the file system.
func parseArguments(_ arguments: [String]) throws(UsageError) -> Invocation {
    var invocation = Invocation()
    var outputPath: String?
    var inPlace = false
    /// `--check` and `--diff`, as given: the first names the pair in messages.
    var comparisonFlags: [String] = []
    var emitFlags: [String] = []
    var index = 0
    var optionsEnded = false

    func value(for option: String, _ what: String = "a path") throws(UsageError) -> String {
        index += 1
        guard index < arguments.count, !arguments[index].isEmpty else {
            throw UsageError(message: "option '\(option)' needs \(what)")
        }
        return arguments[index]
    }

    func jobCount(_ text: String, option: String) throws(UsageError) -> Int {
        guard let count = Int(text), count >= 1 else {
            throw UsageError(message: "option '\(option)' needs a number of jobs of at least 1, not '\(text)'")
        }
        return count
    }

    func swiftVersion(_ text: String) throws(UsageError) -> Int {
        guard text == "5" || text == "6" else {
            throw UsageError(message: "option '--swift-version' needs 5 or 6, not '\(text)'")
        }
        return Int(text)!
    }

    while index < arguments.count {
        let argument = arguments[index]
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
            guard !argument.isEmpty else { throw UsageError(message: "an empty string is not a file name") }
            invocation.inputs.append(argument)
        } else {
            // Cases are compared in order: `--module-sources`, which the build plugin passes once for
            // every file of the module, comes first.
            switch argument {
            case "--module-sources":
                invocation.moduleSources.append(try value(for: argument))
            case "--":
                optionsEnded = true
            case "-h", "--help":
                invocation.action = .help
            case "--version":
                invocation.action = .version
            case "-i", "--in-place":
                inPlace = true
            case "--strict":
                invocation.strict = true
            case "--line-directives":
                invocation.lineDirectives = true
            case "--source-name":
                invocation.sourceName = try value(for: argument)
            case "--wrapper-sources":
                invocation.wrapperSources.append(try value(for: argument))
            case "--write-module-index":
                invocation.action = .writeModuleIndex(try value(for: argument))
            case "--file-by-file":
                invocation.fileByFile = true
            case "--module-index":
                guard invocation.moduleIndex == nil else { throw UsageError(message: "option '--module-index' is given more than once") }
                invocation.moduleIndex = try value(for: argument)
            case "--swift-version":
                invocation.swiftVersion = try swiftVersion(value(for: argument, "5 or 6"))
            case "--emit-tokens":
                invocation.action = .emitTokens
                emitFlags.append(argument)
            case "--emit-tree":
                invocation.action = .emitTree
                emitFlags.append(argument)
            case "--check", "--diff":
                comparisonFlags.append(argument)
            case "-q", "--quiet":
                invocation.verbosity = .errorsOnly
            case "--config":
                guard invocation.configuration == nil else { throw UsageError(message: "option '--config' is given more than once") }
                invocation.configuration = try value(for: argument)
            case "-j", "--jobs":
                invocation.jobs = try jobCount(value(for: argument, "a number"), option: argument)
            case "-o", "--output":
                guard outputPath == nil else { throw UsageError(message: "option '-o' is given more than once") }
                outputPath = try value(for: argument)
            default:
                if argument.hasPrefix("--swift-version=") {
                    invocation.swiftVersion = try swiftVersion(String(argument.dropFirst("--swift-version=".count)))
                } else if argument.hasPrefix("--jobs=") {
                    invocation.jobs = try jobCount(String(argument.dropFirst("--jobs=".count)), option: "--jobs")
                } else if argument.hasPrefix("--wrapper-sources=") {
                    let path = String(argument.dropFirst("--wrapper-sources=".count))
                    guard !path.isEmpty else { throw UsageError(message: "option '--wrapper-sources' needs a path") }
                    invocation.wrapperSources.append(path)
                } else if argument.hasPrefix("--module-sources=") {
                    let path = String(argument.dropFirst("--module-sources=".count))
                    guard !path.isEmpty else { throw UsageError(message: "option '--module-sources' needs a path") }
                    invocation.moduleSources.append(path)
                } else if argument.hasPrefix("--config=") {
                    guard invocation.configuration == nil else { throw UsageError(message: "option '--config' is given more than once") }
                    invocation.configuration = String(argument.dropFirst("--config=".count))
                    guard !invocation.configuration!.isEmpty else { throw UsageError(message: "option '--config' needs a path") }
                } else if argument.hasPrefix("--output=") {
                    guard outputPath == nil else { throw UsageError(message: "option '-o' is given more than once") }
                    outputPath = String(argument.dropFirst("--output=".count))
                    guard !outputPath!.isEmpty else { throw UsageError(message: "option '--output' needs a path") }
                } else {
                    throw UsageError(message: "unknown option '\(argument)'")
                }
            }
        }
        index += 1
    }

    // --help and --version win over everything else, as in most tools.
    if invocation.action == .help || invocation.action == .version { return invocation }

    if case .writeModuleIndex = invocation.action {
        if let input = invocation.inputs.first {
            throw UsageError(message: "'--write-module-index' writes only the index; it lowers no input ('\(input)')")
        }
        if outputPath != nil || inPlace || !comparisonFlags.isEmpty || !emitFlags.isEmpty || invocation.lineDirectives
            || invocation.moduleIndex != nil
        {
            throw UsageError(
                message:
                    "'--write-module-index' writes only the index; it takes no '-o', '--in-place', '--check', '--diff', '--emit-…', '--line-directives' or '--module-index'"
            )
        }
        return invocation
    }
    if invocation.fileByFile && (!invocation.moduleSources.isEmpty || invocation.moduleIndex != nil) {
        throw UsageError(message: "'--file-by-file' lowers each input alone; it cannot be used with '--module-sources' or '--module-index'")
    }
    if invocation.moduleIndex != nil && invocation.moduleSources.isEmpty && invocation.configuration == nil {
        throw UsageError(message: "'--module-index' describes module sources; give them with '--module-sources'")
    }

    if invocation.inputs.isEmpty { invocation.inputs = ["-"] }
    if invocation.inputs.filter({ $0 == "-" }).count > 1 {
        throw UsageError(message: "standard input ('-') can be read only once")
    }
    if let duplicate = firstDuplicate(invocation.inputs) {
        throw UsageError(message: "'\(duplicate)' is given more than once")
    }

    if let first = emitFlags.first, let other = emitFlags.first(where: { $0 != first }) {
        throw UsageError(message: "'\(first)' and '\(other)' cannot be used together")
    }
    if let flag = comparisonFlags.first {
        if outputPath != nil { throw UsageError(message: "'\(flag)' writes nothing; it cannot be used with '-o'") }
        if inPlace { throw UsageError(message: "'\(flag)' writes nothing; it cannot be used with '--in-place'") }
        if let emit = invocation.action.flag { throw UsageError(message: "'\(emit)' and '\(flag)' cannot be used together") }
        if invocation.lineDirectives {
            throw UsageError(message: "'--line-directives' output is generated code; '\(flag)' does not compare it with the input")
        }
        let check = comparisonFlags.contains("--check"), diff = comparisonFlags.contains("--diff")
        invocation.destination = .comparison(check && diff ? .checkedDiff : check ? .list : .diff)
    }

    switch (outputPath, inPlace) {
    case (.some, true):
        throw UsageError(message: "'-o' and '--in-place' cannot be used together")
    case (nil, true):
        if let flag = invocation.action.flag {
            throw UsageError(message: "'\(flag)' cannot be used with '--in-place'")
        }
        if invocation.inputs.contains("-") {
            throw UsageError(message: "'--in-place' needs files, not standard input")
        }
        invocation.destination = .inPlace
    case (let path?, false):
        invocation.destination = .path(path)
    case (nil, false):
        if case .comparison = invocation.destination { break }
        invocation.destination = .standardOutput
    }

    if let flag = invocation.action.flag, invocation.inputs.count > 1 {
        throw UsageError(message: "'\(flag)' takes one input")
    }
    if invocation.lineDirectives && invocation.destination == .inPlace {
        throw UsageError(message: "'--line-directives' output is generated code; it cannot replace the input ('--in-place')")
    }
    if invocation.sourceName != nil && !invocation.lineDirectives {
        throw UsageError(message: "'--source-name' needs '--line-directives'")
    }
    if invocation.sourceName != nil && invocation.inputs.count > 1 {
        throw UsageError(message: "'--source-name' names one input")
    }
    if invocation.inputs.count > 1 {
        if invocation.destination == .standardOutput {
            throw UsageError(message: "several inputs need '-o FOLDER', '--in-place', '--check' or '--diff'")
        }
        if case .path = invocation.destination {
            if invocation.inputs.contains("-") {
                throw UsageError(message: "standard input has no file name to write into a folder; give it alone")
            }
        }
    }
    return invocation
}

/// The last path component, as the output folder names it (`a/b/` gives `b`,
/// `/` itself). Found on the UTF-8 bytes, where `/` is always a whole
/// character: counting and splitting Characters cost more than reading the file.
func baseName(_ path: String) -> String {
    let bytes = Array(path.utf8)
    let slash = UInt8(ascii: "/")
    var end = bytes.count
    while end > 1 && bytes[end - 1] == slash { end -= 1 }
    var start = end
    while start > 0 && bytes[start - 1] != slash { start -= 1 }
    // Nothing but slashes is left: the root, as given.
    if start == end { start = 0 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
}

private func firstDuplicate(_ items: [String]) -> String? {
    var seen = Set<String>()
    for item in items where !seen.insert(item).inserted { return item }
    return nil
}
