// MARK: - `#`

extension LexerState {
    /// A shebang, a raw string, a `#/regex/#`, a pound keyword, or a lone `#` before a macro name.
    mutating func lexPound() {
        let start = i
        if start == 0 && byte(1) == UInt8(ascii: "!") {
            i = endOfLine(text, from: 2)
            emit(.shebang, start, i)
            return
        }
        var afterPounds = i
        while afterPounds < n && text[afterPounds] == UInt8(ascii: "#") { afterPounds += 1 }
        if byte(afterPounds) == UInt8(ascii: "\"") {
            lexStringStart(pounds: afterPounds - start)
            return
        }
        if byte(afterPounds) == UInt8(ascii: "/"), let regex = scanRegexLiteral(at: start, mustBeRegex: true) {
            if let problem = regex.problem { diagnose(at: problem.offset, problem.message) }
            i = regex.end
            emit(.regexLiteral, start, regex.end)
            return
        }
        var wordEnd = i + 1
        while wordEnd < n && text[wordEnd].isASCIIIdentifierStart { wordEnd += 1 }
        if poundKeywordAllowsRegexAfter(start + 1, wordEnd) != nil {
            i = wordEnd
            emit(.poundKeyword, start, wordEnd)
        } else {
            punctuation(.pound)
        }
    }

    /// For a pound keyword's name, whether an expression (so a regex) may follow it; nil for other names.
    /// Bytes compared in place: no `String` made and switched over for every `#`.
    func poundKeywordAllowsRegexAfter(_ start: Int, _ end: Int) -> Bool? {
        func isName(_ name: StaticString) -> Bool { spells(start, end, name) }
        if isName("if") || isName("elseif") || isName("else") || isName("endif") { return true }
        if isName("sourceLocation") || isName("available") || isName("unavailable") { return false }
        return nil
    }

    /// Whether `text[start..<end]` is `spelling`.
    func spells(_ start: Int, _ end: Int, _ spelling: StaticString) -> Bool {
        guard end - start == spelling.utf8CodeUnitCount else { return false }
        let bytes = spelling.utf8Start
        for k in 0..<spelling.utf8CodeUnitCount where text[start + k] != bytes[k] { return false }
        return true
    }
}
