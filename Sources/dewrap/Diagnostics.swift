import DewrapSyntax

/// Which diagnostics are printed (`-q`, `--quiet`: errors only).
enum Verbosity: Equatable {
    case all
    case errorsOnly
}

/// A message is printed this many times a file at most; the rest are counted
/// in one closing line. Repeats come from the lexer (a stray byte on every
/// line of a file that is not quite Swift); lowering's own messages name the
/// declaration, so they do not repeat.
let repeatedMessageLimit = 20

/// `path:line:column: severity: message` lines, the form compilers and
/// editors read. Lines and columns are 1-based; columns count UTF-8 bytes.
/// Each message is printed `repeatedMessageLimit` times at most; then one
/// line `path: SEVERITY: … and N more warnings` (or errors, or diagnostics
/// when both) stands for the rest, with the severity of the worst of them.
func formatDiagnostics(_ diagnostics: [Diagnostic], source: [UInt8], path: String, verbosity: Verbosity = .all) -> String {
    let shown = verbosity == .all ? diagnostics : diagnostics.filter { $0.severity == .error }
    guard !shown.isEmpty else { return "" }
    let lines = LineTable(source)
    var text = ""
    var timesSeen: [String: Int] = [:]
    var omitted: [Severity: Int] = [:]
    for diagnostic in shown {
        let seen = timesSeen[diagnostic.message, default: 0]
        timesSeen[diagnostic.message] = seen + 1
        if seen >= repeatedMessageLimit {
            omitted[diagnostic.severity, default: 0] += 1
            continue
        }
        let location = lines.location(of: diagnostic.offset)
        text += "\(path):\(location.line):\(location.column): \(diagnostic.severity.rawValue): \(diagnostic.message)\n"
    }
    if !omitted.isEmpty {
        let count = omitted.values.reduce(0, +)
        let worst: Severity = omitted[.error] != nil ? .error : omitted[.warning] != nil ? .warning : .note
        let kind = omitted.count > 1 ? "diagnostics" : worst == .error ? "errors" : worst == .warning ? "warnings" : "notes"
        let noun = count == 1 ? String(kind.dropLast()) : kind
        text += "\(path): \(worst.rawValue): … and \(count) more \(noun) (a message is shown \(repeatedMessageLimit) times a file at most)\n"
    }
    return text
}
