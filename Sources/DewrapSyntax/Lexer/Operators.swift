// MARK: - Operators

extension LexerState {
    /// An operator token; its kind (binary, prefix, postfix, or one of the
    /// reserved `=`, `->`, `.`, `&`, `?`) follows from the whitespace on each side.
    /// A `/` inside it may start a regex literal instead.
    mutating func lexOperator() {
        let start = i
        var j = text[i].isASCII ? i + 1 : nextOperatorCharacter(after: i, continuing: false) ?? i + 1
        while j < n {
            let b = text[j]
            // `.` continues an operator only if the operator began with `.` (`..<`, `...`).
            if b == UInt8(ascii: ".") && text[start] != UInt8(ascii: ".") { break }
            if b == UInt8(ascii: "<") && byte(j + 1) == UInt8(ascii: "#") && editorPlaceholderEnd(at: j) != nil { break }
            if b.isASCII {
                // The common case inline; `nextOperatorCharacter` decodes the rest.
                guard b.isASCIIOperatorCharacter else { break }
                j += 1
            } else {
                guard let next = nextOperatorCharacter(after: j, continuing: true) else { break }
                j = next
            }
        }
        var end = j

        // Only the first `/` in the operator is tried as the start of a regex literal.
        var slash = start
        while slash < end && text[slash] != UInt8(ascii: "/") { slash += 1 }
        if slash < end, let regex = regexLiteralInOperator(slashAt: slash, operatorStart: start, operatorEnd: end) {
            if slash > start {
                i = slash
                emitOperator(start, slash)
            }
            if let problem = regex.problem { diagnose(at: problem.offset, problem.message) }
            i = regex.end
            emit(.regexLiteral, slash, regex.end)
            return
        }

        // `//` or `/*` inside a longer operator starts a comment there.
        if end - start > 2 {
            var k = start + 1
            while k < end {
                if text[k] == UInt8(ascii: "/"), let after = byte(k + 1), after == UInt8(ascii: "/") || after == UInt8(ascii: "*") {
                    end = k
                    break
                }
                k += 1
            }
        }
        i = end
        emitOperator(start, end)
    }

    /// The offset after the operator character at `k`, or nil if there is none.
    private func nextOperatorCharacter(after k: Int, continuing: Bool) -> Int? {
        let b = text[k]
        if b.isASCII { return b.isASCIIOperatorCharacter ? k + 1 : nil }
        let (scalar, next) = decodeScalar(text, at: k)
        guard let c = scalar, continuing ? isOperatorContinue(c) : isOperatorStart(c) else { return nil }
        return next
    }

    /// Classifies and emits the operator `text[start..<end]`.
    @inline(__always)
    private mutating func emitOperator(_ start: Int, _ end: Int) {
        let leftBound = isLeftBound(operatorStart: start)
        let rightBound = isRightBound(operatorEnd: end, leftBound: leftBound)
        var kind: TokenKind = leftBound == rightBound ? .binaryOperator : leftBound ? .postfixOperator : .prefixOperator
        if end - start == 1 {
            switch text[start] {
            case UInt8(ascii: "="):
                if leftBound != rightBound {
                    diagnose(at: rightBound ? start + 1 : start, "'=' must have consistent whitespace on both sides")
                }
                kind = .equal
            case UInt8(ascii: "&") where !leftBound && rightBound:
                kind = .prefixAmpersand
            case UInt8(ascii: "."):
                kind = .period
            case UInt8(ascii: "?"):
                kind = leftBound ? .postfixQuestionMark : .infixQuestionMark
            default:
                break
            }
        } else if end - start == 2 && text[start] == UInt8(ascii: "-") && text[start + 1] == UInt8(ascii: ">") {
            kind = .arrow
        } else if containsCommentEnd(start, end) {
            diagnose(at: start, "unexpected end of block comment")
            kind = .unknown
        }
        emit(kind, start, end)
    }

    private func containsCommentEnd(_ start: Int, _ end: Int) -> Bool {
        var k = start
        while k + 1 < end {
            if text[k] == UInt8(ascii: "*") && text[k + 1] == UInt8(ascii: "/") { return true }
            k += 1
        }
        return false
    }

    // MARK: Boundness

    /// Whether the operator starting at `k` touches an expression on its left.
    @inline(__always)
    func isLeftBound(operatorStart k: Int) -> Bool {
        guard k > 0 else { return false }
        let before = text[k - 1]
        if before.isBoundnessBreaker || before == UInt8(ascii: "(") || before == UInt8(ascii: "[") || before == UInt8(ascii: "{") {
            return false
        }
        // The end of a `/* */` comment or of a U+00A0 counts as whitespace.
        if before == UInt8(ascii: "/") { return !(k >= 2 && text[k - 2] == UInt8(ascii: "*")) }
        if before == 0xA0 { return !(k >= 2 && text[k - 2] == 0xC2) }
        return true
    }

    /// Whether the operator ending at `k` touches an expression on its right.
    @inline(__always)
    func isRightBound(operatorEnd k: Int, leftBound: Bool) -> Bool {
        guard k < n else { return false }
        let after = text[k]
        if after.isBoundnessBreaker || after == UInt8(ascii: ")") || after == UInt8(ascii: "]") || after == UInt8(ascii: "}") {
            return false
        }
        switch after {
        case UInt8(ascii: "."):
            // `x^.y` is postfix `^`, `^.y` is prefix.
            return !leftBound
        case UInt8(ascii: "/"):
            // A following comment counts as whitespace.
            guard let next = byte(k + 1) else { return true }
            return next != UInt8(ascii: "/") && next != UInt8(ascii: "*")
        case 0xC2:
            return byte(k + 1) != 0xA0
        default:
            return true
        }
    }
}
