import DewrapSyntax

/// Renders tokens as `offset kind text` lines (no endOfFile), the form the
/// lexer tables below are written in. Text is shown as UTF-8 with `\n`, `\r`
/// and `\t` spelled out so a table stays one line per token.
func renderTokens(_ source: String) -> String {
    renderTokens(Array(source.utf8))
}

func renderTokens(_ bytes: [UInt8]) -> String {
    Lexer.lex(bytes).tokens.filter { $0.kind != .endOfFile }.map { token in
        let text = spelledOut(String(decoding: bytes[token.start..<token.end], as: UTF8.self))
        return text.isEmpty ? "\(token.start) \(token.kind.name)" : "\(token.start) \(token.kind.name) \(text)"
    }.joined(separator: "\n")
}

/// Diagnostics as `offset message` lines.
func renderDiagnostics(_ bytes: [UInt8]) -> String {
    Lexer.lex(bytes).diagnostics.map { "\($0.offset) \($0.message)" }.joined(separator: "\n")
}

/// `\n`, `\r` and `\t` written as escapes (by scalar: `"\r\n"` is one Character).
func spelledOut(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result
}
