import DewrapSyntax
import Testing

/// A malformed input: it still lexes to the end, with diagnostics at byte offsets.
struct BadCase: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var tokens: String
    var diagnostics: String
    init(_ name: String, _ source: String, tokens: String, diagnostics: String) {
        self.init(name, Array(source.utf8), tokens: tokens, diagnostics: diagnostics)
    }
    init(_ name: String, _ bytes: [UInt8], tokens: String, diagnostics: String) {
        self.name = name
        self.bytes = bytes
        self.tokens = tokens
        self.diagnostics = diagnostics
    }
    var testDescription: String { name }
}

let badCases: [BadCase] = [
    BadCase(
        "unterminated string ends at the line break", "let s = \"abc\nx",
        tokens: ##"""
            0 keyword let
            4 identifier s
            6 equal =
            8 stringStart "
            9 stringSegment abc
            12 stringEnd
            13 identifier x
            """##, diagnostics: "8 unterminated string literal"),
    BadCase(
        "unterminated interpolation ends with its string", "\"\\(a\nx",
        tokens: ##"""
            0 stringStart "
            1 interpolationStart \(
            3 identifier a
            4 interpolationEnd
            4 stringEnd
            5 identifier x
            """##, diagnostics: "0 unterminated string literal"),
    BadCase(
        "unterminated multi-line string runs to the end", "\"\"\"\nabc",
        tokens: ##"""
            0 stringStart """
            3 stringSegment \nabc
            7 stringEnd
            """##, diagnostics: "0 unterminated string literal"),
    BadCase(
        "unterminated block comment runs to the end", "a /* b", tokens: "0 identifier a",
        diagnostics: "2 unterminated '/*' comment"),
    BadCase(
        "NUL and invalid UTF-8 are trivia", [0x61, 0x00, 0x62, 0x20, 0xFF, 0x20, 0x63],
        tokens: """
            0 identifier a
            2 identifier b
            6 identifier c
            """,
        diagnostics: """
            1 nul character embedded in source
            4 invalid UTF-8 found in source file
            """),
    BadCase(
        "invalid UTF-8 inside an identifier ends it", [0x61, 0xC3, 0x28, 0x62],
        tokens: """
            0 identifier a
            2 leftParen (
            3 identifier b
            """, diagnostics: "1 invalid UTF-8 found in source file"),
    BadCase(
        "invalid digits stay in the literal", "0b102 0xG 1abc",
        tokens: """
            0 integerLiteral 0b102
            6 integerLiteral 0xG
            10 integerLiteral 1abc
            """,
        diagnostics: """
            4 invalid digit in binary integer literal
            8 invalid digit in hexadecimal integer literal
            11 invalid digit in integer literal
            """),
    BadCase(
        "stray end of block comment", "a */ b",
        tokens: """
            0 identifier a
            2 unknown */
            5 identifier b
            """, diagnostics: "2 unexpected end of block comment"),
    BadCase(
        "invalid escape", "\"\\q\"",
        tokens: ##"""
            0 stringStart "
            1 stringSegment \q
            3 stringEnd "
            """##, diagnostics: "2 invalid escape sequence in literal"),
    BadCase(
        "conflict marker is one error token", "a\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> b\nc",
        tokens: ##"""
            0 identifier a
            2 conflictMarker <<<<<<< HEAD\nx\n=======\ny\n>>>>>>> b
            37 identifier c
            """##, diagnostics: "2 source control conflict marker in source file"),
    BadCase(
        "unterminated regex literal with pounds", "x = #/abc\ny",
        tokens: ##"""
            0 identifier x
            2 equal =
            4 regexLiteral #/abc
            10 identifier y
            """##, diagnostics: "4 unterminated regex literal"),
    BadCase(
        "editor placeholder stands as an identifier", "f(<#value#>)",
        tokens: """
            0 identifier f
            1 leftParen (
            2 identifier <#value#>
            11 rightParen )
            """, diagnostics: "2 editor placeholder in source file"),
    BadCase(
        "lone backtick", "` x",
        tokens: """
            0 backtick `
            2 identifier x
            """, diagnostics: ""),
    BadCase(
        "assignment with lopsided spaces", "a =b",
        tokens: """
            0 identifier a
            2 equal =
            3 identifier b
            """, diagnostics: "3 '=' must have consistent whitespace on both sides"),
]

@Test(arguments: badCases)
func lexesMalformedInput(_ row: BadCase) {
    #expect(renderTokens(row.bytes) == row.tokens)
    #expect(renderDiagnostics(row.bytes) == row.diagnostics)
}

@Test func firstTokenAndTokensAfterLineBreaksAreAtStartOfLine() {
    let tokens = Lexer.lex(Array("a b\r\nc /*\n*/ d\re".utf8)).tokens
    let starts = tokens.filter { $0.flags.contains(.atStartOfLine) }.map(\.start)
    #expect(starts == [0, 5, 13, 15])
}

@Test func lineTableCountsCRLFAndLoneCROnce() {
    let table = LineTable(Array("a\r\nb\rc\nd".utf8))
    #expect(table.location(of: 0) == SourceLocation(line: 1, column: 1))
    #expect(table.location(of: 3) == SourceLocation(line: 2, column: 1))
    #expect(table.location(of: 5) == SourceLocation(line: 3, column: 1))
    #expect(table.location(of: 7) == SourceLocation(line: 4, column: 1))
    #expect(table.location(of: 8) == SourceLocation(line: 4, column: 2))
}
