// MARK: - Error tokens
//
// Text the compiler rejects that stands where a token does: an editor
// placeholder `<#name#>` (an identifier), a version-control conflict region
// (one token through its closing marker's line), a curly-quoted string.

extension LexerState {
    /// `<#text#>` on one line, from the `<` at `k`.
    func editorPlaceholderEnd(at k: Int) -> Int? {
        var j = k + 2
        while j < n {
            let b = text[j]
            j += 1
            if b == UInt8(ascii: "\n") { return nil }
            if b == UInt8(ascii: "<") && byte(j) == UInt8(ascii: "#") { return nil }
            if b == UInt8(ascii: "#") && byte(j) == UInt8(ascii: ">") { return j + 1 }
        }
        return nil
    }

    /// `<<<<<<< ` … `>>>>>>> ` (git) or `>>>> ` … `<<<<` (Perforce) at the start
    /// of a line, through the end of the terminator's line: one error token.
    mutating func lexConflictMarker() -> Bool {
        let start = i
        guard start == 0 || text[start - 1] == UInt8(ascii: "\n") || text[start - 1] == UInt8(ascii: "\r") else { return false }
        let git = (open: Array("<<<<<<< ".utf8), close: Array(">>>>>>> ".utf8))
        let perforce = (open: Array(">>>> ".utf8), close: Array("<<<<\n".utf8))
        let marker: (open: [UInt8], close: [UInt8])
        if hasPrefix(git.open, at: start) {
            marker = git
        } else if hasPrefix(perforce.open, at: start) {
            marker = perforce
        } else {
            return false
        }
        var j = start + marker.open.count
        while j < n {
            if hasPrefix(marker.close, at: j) && (text[j - 1] == UInt8(ascii: "\n") || text[j - 1] == UInt8(ascii: "\r")) {
                i = endOfLine(text, from: j + marker.close.count)
                diagnose(at: start, "source control conflict marker in source file")
                // Trivia to the compiler: the previous token's context carries over.
                tokens.append(Token(kind: .conflictMarker, flags: pendingFlags, start: start, end: i))
                pendingFlags = []
                return true
            }
            j += 1
        }
        return false
    }

    func hasPrefix(_ bytes: [UInt8], at k: Int) -> Bool {
        guard k + bytes.count <= n else { return false }
        for (offset, b) in bytes.enumerated() where text[k + offset] != b { return false }
        return true
    }

    /// After a `“`: through the closing `”` or `"` on the same line, if any.
    func endOfCurlyQuotedString(from k: Int) -> Int? {
        var j = k
        while j < n {
            let b = text[j]
            if b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") { return nil }
            if b == UInt8(ascii: "\\") && byte(j + 1) == UInt8(ascii: "(") { return nil }
            if b == UInt8(ascii: "\"") { return j + 1 }
            let (scalar, next) = decodeScalar(text, at: j)
            guard let c = scalar else { return nil }
            if c == 0x201D { return next }
            if b == UInt8(ascii: "\\") { j = min(j + 2, n); continue }
            j = next
        }
        return nil
    }
}
