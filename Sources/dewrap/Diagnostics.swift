import DewrapSyntax

/// `path:line:column: severity: message` lines, the form compilers and
/// editors read. Lines and columns are 1-based; columns count UTF-8 bytes.
func formatDiagnostics(_ diagnostics: [Diagnostic], source: [UInt8], path: String) -> String {
    guard !diagnostics.isEmpty else { return "" }
    let lines = LineTable(source)
    var text = ""
    for diagnostic in diagnostics {
        let location = lines.location(of: diagnostic.offset)
        text += "\(path):\(location.line):\(location.column): \(diagnostic.severity.rawValue): \(diagnostic.message)\n"
    }
    return text
}
