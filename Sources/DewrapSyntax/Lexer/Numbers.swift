// MARK: - Number literals

extension LexerState {
    /// Integer and float literals: decimal, `0x` (with hex floats `0x1p-3`),
    /// `0o`, `0b`, `_` separators and exponents. Trailing identifier characters
    /// stay in the token with a diagnostic (`1abc`), as in the compiler.
    mutating func lexNumber() {
        let start = i
        let kind: TokenKind
        if text[i] == UInt8(ascii: "0"), let radixMark = byte(i + 1),
            radixMark == UInt8(ascii: "x") || radixMark == UInt8(ascii: "o") || radixMark == UInt8(ascii: "b")
        {
            kind = radixMark == UInt8(ascii: "x") ? lexHexNumber() : lexRadixInteger(octal: radixMark == UInt8(ascii: "o"))
        } else {
            kind = lexDecimalNumber()
        }
        emit(kind, start, i)
    }

    /// Skips identifier characters that make a literal invalid, diagnosing them.
    /// The message is made only when needed: a `String` argument would be made
    /// for every literal, diagnosed or not.
    mutating func absorbInvalidDigits(_ message: @autoclosure () -> String) {
        // Nearly every literal ends at a byte that continues no name: no scan.
        guard let b = byte(i), b.isASCIIIdentifierContinue || !b.isASCII else { return }
        let errorStart = i
        skipIdentifierContinuation()
        if i > errorStart { diagnose(at: errorStart, message()) }
    }

    private mutating func skipDigits(_ isDigit: (UInt8) -> Bool) {
        while i < n && (isDigit(text[i]) || text[i] == UInt8(ascii: "_")) { i += 1 }
    }

    private mutating func lexRadixInteger(octal: Bool) -> TokenKind {
        let name = octal ? "octal" : "binary"
        let isDigit: (UInt8) -> Bool =
            octal
            ? { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "7") }
            : { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") }
        i += 2
        if let b = byte(i), !isDigit(b) {
            absorbInvalidDigits("'\(Character(Unicode.Scalar(b)))' is not a valid \(name) digit in integer literal")
            return .integerLiteral
        }
        skipDigits(isDigit)
        absorbInvalidDigits("invalid digit in \(name) integer literal")
        return .integerLiteral
    }

    private mutating func lexDecimalNumber() -> TokenKind {
        skipDigits { $0.isDigit }
        let next = byte(i)
        if next == UInt8(ascii: ".") {
            // `1.foo` is a member access, `x.0.1` a tuple path: both leave the integer alone.
            guard let afterDot = byte(i + 1), afterDot.isDigit, previousToken?.kind != .period else { return .integerLiteral }
        } else if next != UInt8(ascii: "e") && next != UInt8(ascii: "E") {
            absorbInvalidDigits("invalid digit in integer literal")
            return .integerLiteral
        }
        if byte(i) == UInt8(ascii: ".") {
            i += 1
            skipDigits { $0.isDigit }
        }
        if let e = byte(i), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            i += 1
            lexExponent()
        }
        return .floatLiteral
    }

    /// `[+-]?[0-9][0-9_]*` after `e` or `p`.
    private mutating func lexExponent() {
        if let sign = byte(i), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { i += 1 }
        guard let first = byte(i), first.isDigit else {
            let errorStart = i
            skipIdentifierContinuation()
            diagnose(at: errorStart, i > errorStart ? "invalid character in floating point exponent" : "expected a digit in floating point exponent")
            return
        }
        skipDigits { $0.isDigit }
        absorbInvalidDigits("invalid character in floating point exponent")
    }

    private mutating func lexHexNumber() -> TokenKind {
        i += 2
        guard let first = byte(i), first.isHexDigit else {
            let errorStart = i
            skipIdentifierContinuation()
            diagnose(
                at: errorStart,
                i > errorStart ? "invalid digit in hexadecimal integer literal" : "expected hexadecimal digit (0-9, A-F) in integer literal")
            return .integerLiteral
        }
        skipDigits { $0.isHexDigit }
        let next = byte(i)
        guard next == UInt8(ascii: ".") || next == UInt8(ascii: "p") || next == UInt8(ascii: "P") else {
            absorbInvalidDigits("invalid digit in hexadecimal integer literal")
            return .integerLiteral
        }
        var dot: Int? = nil
        if next == UInt8(ascii: ".") {
            // `0xff.description` is a member access.
            guard let afterDot = byte(i + 1), afterDot.isHexDigit else { return .integerLiteral }
            dot = i
            i += 1
            skipDigits { $0.isHexDigit }
            guard let p = byte(i), p == UInt8(ascii: "p") || p == UInt8(ascii: "P") else {
                if let after = byte(i + 1), !after.isDigit {
                    // `0xff.fe` followed by a non-digit: an integer, then a member access.
                    i = dot!
                    return .integerLiteral
                }
                diagnose(at: i, "hexadecimal floating point literal must end with an exponent")
                return .integerLiteral
            }
        }
        i += 1 // the `p`
        var signed = false
        if let sign = byte(i), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            i += 1
            signed = true
        }
        if let b = byte(i), !b.isDigit {
            if let dot, let afterDot = byte(dot + 1), !afterDot.isDigit, !signed {
                // `0xff.fp` is a member access too.
                i = dot
                return .integerLiteral
            }
            let errorStart = i
            skipIdentifierContinuation()
            diagnose(at: errorStart, i > errorStart ? "invalid character in floating point exponent" : "expected a digit in floating point exponent")
            return .floatLiteral
        }
        skipDigits { $0.isDigit }
        absorbInvalidDigits("invalid character in floating point exponent")
        return .floatLiteral
    }
}
