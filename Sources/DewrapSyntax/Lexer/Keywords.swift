// The keywords the lexer always classifies as keywords are the first group of
// `Word` (Words.swift). Contextual keywords (`get`, `set`, `some`, `willSet`,
// `mutating`, …) stay identifiers; the parser reads them by their word where
// the grammar gives them meaning.

/// What a keyword tells the lexer about what may follow it.
enum KeywordRole: UInt8 {
    /// `try`: a following `?`/`!` is postfix and then a `/` prefers a regex.
    case `try`
    /// `func`, `operator`: the next token is an operator name, never a regex.
    case operatorName
    /// `true`, `false`, `nil`, `self`, `Self`, `super`, `Any`: an expression, so a `/` after it divides.
    case expression
    /// Any other keyword: a regex literal may follow.
    case other
}
