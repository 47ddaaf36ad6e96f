import DewrapSyntax
import Testing

/// One lexer table row: a source and its tokens as `offset kind text` lines.
struct LexCase: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String
    var expected: String
    init(_ name: String, _ source: String, _ expected: String) {
        self.name = name
        self.source = source
        self.expected = expected
    }
    var testDescription: String { name }
}

/// Every construct of the lexical grammar, with the offset, kind and text of
/// each token. Offsets are UTF-8 byte offsets.
let lexCases: [LexCase] = [
    LexCase(
        "identifiers, Unicode, escaped and raw", "a État `class` `a b` `$` x$y",
        ##"""
        0 identifier a
        2 identifier État
        8 identifier `class`
        16 identifier `a b`
        22 identifier `$`
        26 identifier x$y
        """##),
    LexCase(
        "dollar identifiers and wildcard", "$0 $12 $name $ _ _x",
        ##"""
        0 dollarIdentifier $0
        3 dollarIdentifier $12
        7 dollarIdentifier $name
        13 identifier $
        15 wildcard _
        17 identifier _x
        """##),
    LexCase(
        "lexer keywords and contextual keywords", "var get set some any self Self init willSet",
        ##"""
        0 keyword var
        4 identifier get
        8 identifier set
        12 identifier some
        17 identifier any
        21 keyword self
        26 keyword Self
        31 keyword init
        36 identifier willSet
        """##),
    LexCase(
        "postfix and prefix bang and question", "a! !a x?.y a?[0] b!.c",
        ##"""
        0 identifier a
        1 exclamationMark !
        3 prefixOperator !
        4 identifier a
        6 identifier x
        7 postfixQuestionMark ?
        8 period .
        9 identifier y
        11 identifier a
        12 postfixQuestionMark ?
        13 leftSquare [
        14 integerLiteral 0
        15 rightSquare ]
        17 identifier b
        18 exclamationMark !
        19 period .
        20 identifier c
        """##),
    LexCase(
        "operator boundness", "a+b a + b a+ b a +b -1 a ?? b",
        ##"""
        0 identifier a
        1 binaryOperator +
        2 identifier b
        4 identifier a
        6 binaryOperator +
        8 identifier b
        10 identifier a
        11 postfixOperator +
        13 identifier b
        15 identifier a
        17 prefixOperator +
        18 identifier b
        20 prefixOperator -
        21 integerLiteral 1
        23 identifier a
        25 binaryOperator ??
        28 identifier b
        """##),
    LexCase(
        "custom and dotted operators", "<*> ..< ... a...b .+. x.y",
        ##"""
        0 binaryOperator <*>
        4 binaryOperator ..<
        8 binaryOperator ...
        12 identifier a
        13 binaryOperator ...
        16 identifier b
        18 binaryOperator .+.
        22 identifier x
        23 period .
        24 identifier y
        """##),
    LexCase(
        "reserved punctuation operators", "-> &x f(&x) a = b c ? d : e T?",
        ##"""
        0 arrow ->
        3 prefixAmpersand &
        4 identifier x
        6 identifier f
        7 leftParen (
        8 prefixAmpersand &
        9 identifier x
        10 rightParen )
        12 identifier a
        14 equal =
        16 identifier b
        18 identifier c
        20 infixQuestionMark ?
        22 identifier d
        24 colon :
        26 identifier e
        28 identifier T
        29 postfixQuestionMark ?
        """##),
    LexCase(
        "Unicode operator", "a ∘ b",
        ##"""
        0 identifier a
        2 binaryOperator ∘
        6 identifier b
        """##),
    LexCase(
        "integer literals", "42 1_000 0x1F 0o17 0b1010 007",
        ##"""
        0 integerLiteral 42
        3 integerLiteral 1_000
        9 integerLiteral 0x1F
        14 integerLiteral 0o17
        19 integerLiteral 0b1010
        26 integerLiteral 007
        """##),
    LexCase(
        "float literals", "3.14 1e10 1.5e-3 2E+2 0x1p-3 0x1.8p1",
        ##"""
        0 floatLiteral 3.14
        5 floatLiteral 1e10
        10 floatLiteral 1.5e-3
        17 floatLiteral 2E+2
        22 floatLiteral 0x1p-3
        29 floatLiteral 0x1.8p1
        """##),
    LexCase(
        "tuple paths and member access on numbers", "x.0.1 1.foo 0xff.description",
        ##"""
        0 identifier x
        1 period .
        2 integerLiteral 0
        3 period .
        4 integerLiteral 1
        6 integerLiteral 1
        7 period .
        8 identifier foo
        12 integerLiteral 0xff
        16 period .
        17 identifier description
        """##),
    // Plain single-line literals are lexed whole where they start; these pin
    // their tokens to those of the general string path.
    LexCase(
        "plain string", "\"abc\" + x",
        ##"""
        0 stringStart "
        1 stringSegment abc
        4 stringEnd "
        6 binaryOperator +
        8 identifier x
        """##),
    LexCase(
        "empty string", "\"\"",
        ##"""
        0 stringStart "
        1 stringEnd "
        """##),
    LexCase(
        "plain string with an apostrophe", "\"it's\"",
        ##"""
        0 stringStart "
        1 stringSegment it's
        5 stringEnd "
        """##),
    LexCase(
        "plain string in an interpolation", "\"\\(\"a\")b\"",
        ##"""
        0 stringStart "
        1 interpolationStart \(
        3 stringStart "
        4 stringSegment a
        5 stringEnd "
        6 interpolationEnd )
        7 stringSegment b
        8 stringEnd "
        """##),
    LexCase(
        "string with escapes", "\"a\\\"b\\n\\u{1F600}\\\\\"",
        ##"""
        0 stringStart "
        1 stringSegment a\"b\n\u{1F600}\\
        18 stringEnd "
        """##),
    LexCase(
        "interpolation with nested parens", "\"\\(f(a, (b)))!\"",
        ##"""
        0 stringStart "
        1 interpolationStart \(
        3 identifier f
        4 leftParen (
        5 identifier a
        6 comma ,
        8 leftParen (
        9 identifier b
        10 rightParen )
        11 rightParen )
        12 interpolationEnd )
        13 stringSegment !
        14 stringEnd "
        """##),
    LexCase(
        "nested strings in interpolation", "\"x\\(\"y\\(z)\")\"",
        ##"""
        0 stringStart "
        1 stringSegment x
        2 interpolationStart \(
        4 stringStart "
        5 stringSegment y
        6 interpolationStart \(
        8 identifier z
        9 interpolationEnd )
        10 stringEnd "
        11 interpolationEnd )
        12 stringEnd "
        """##),
    LexCase(
        "closure inside interpolation", "\"\\({ $0 + 1 }(1))\"",
        ##"""
        0 stringStart "
        1 interpolationStart \(
        3 leftBrace {
        5 dollarIdentifier $0
        8 binaryOperator +
        10 integerLiteral 1
        12 rightBrace }
        13 leftParen (
        14 integerLiteral 1
        15 rightParen )
        16 interpolationEnd )
        17 stringEnd "
        """##),
    LexCase(
        "multi-line string", "\"\"\"\nline\\(x)\n\"\"\"",
        ##"""
        0 stringStart """
        3 stringSegment \nline
        8 interpolationStart \(
        10 identifier x
        11 interpolationEnd )
        12 stringSegment \n
        13 stringEnd """
        """##),
    LexCase(
        "raw strings", "#\"a\\(b)\\#(c)\"# ##\"a\"#b\"##",
        ##"""
        0 stringStart #"
        2 stringSegment a\(b)
        7 interpolationStart \#(
        10 identifier c
        11 interpolationEnd )
        12 stringEnd "#
        15 stringStart ##"
        18 stringSegment a"#b
        22 stringEnd "##
        """##),
    LexCase(
        "raw multi-line string", "#\"\"\"\na\"\"\"b\n\"\"\"#",
        ##"""
        0 stringStart #"""
        4 stringSegment \na"""b\n
        11 stringEnd """#
        """##),
    LexCase(
        "single-line raw string that looks multi-line", "#\"\"\"#",
        ##"""
        0 stringStart #"
        2 stringSegment "
        3 stringEnd "#
        """##),
    LexCase(
        "regex literals", "let r = /a+b/; let s = #/a/b/#",
        ##"""
        0 keyword let
        4 identifier r
        6 equal =
        8 regexLiteral /a+b/
        13 semicolon ;
        15 keyword let
        19 identifier s
        21 equal =
        23 regexLiteral #/a/b/#
        """##),
    LexCase(
        "division is not a regex", "x / y / z",
        ##"""
        0 identifier x
        2 binaryOperator /
        4 identifier y
        6 binaryOperator /
        8 identifier z
        """##),
    LexCase(
        "regex after try?", "let q = try? /x/",
        ##"""
        0 keyword let
        4 identifier q
        6 equal =
        8 keyword try
        11 postfixQuestionMark ?
        13 regexLiteral /x/
        """##),
    LexCase(
        "unapplied division operator", "f(/) reduce(0, /)",
        ##"""
        0 identifier f
        1 leftParen (
        2 binaryOperator /
        3 rightParen )
        5 identifier reduce
        11 leftParen (
        12 integerLiteral 0
        13 comma ,
        15 binaryOperator /
        16 rightParen )
        """##),
    LexCase(
        "prefix operator split from a regex", "x = !/a/",
        ##"""
        0 identifier x
        2 equal =
        4 prefixOperator !
        5 regexLiteral /a/
        """##),
    LexCase(
        "regex with spaces needs pounds", "let r = #/ a b /#",
        ##"""
        0 keyword let
        4 identifier r
        6 equal =
        8 regexLiteral #/ a b /#
        """##),
    LexCase(
        "multi-line extended regex", "let r = #/\n  a\n  /#",
        ##"""
        0 keyword let
        4 identifier r
        6 equal =
        8 regexLiteral #/\n  a\n  /#
        """##),
    LexCase(
        "comments", "// c\n/// d\n/* a /* b */ c */ /** e */ x",
        ##"""
        38 identifier x
        """##),
    LexCase(
        "operator then comment", "a+/* c */b",
        ##"""
        0 identifier a
        1 postfixOperator +
        9 identifier b
        """##),
    LexCase(
        "shebang", "#!/usr/bin/env swift\nx",
        ##"""
        0 shebang #!/usr/bin/env swift
        21 identifier x
        """##),
    LexCase(
        "pound keywords", "#if DEBUG\n#elseif os(Linux)\n#else\n#endif",
        ##"""
        0 poundKeyword #if
        4 identifier DEBUG
        10 poundKeyword #elseif
        18 identifier os
        20 leftParen (
        21 identifier Linux
        26 rightParen )
        28 poundKeyword #else
        34 poundKeyword #endif
        """##),
    LexCase(
        "sourceLocation", "#sourceLocation(file: \"a\", line: 1)",
        ##"""
        0 poundKeyword #sourceLocation
        15 leftParen (
        16 identifier file
        20 colon :
        22 stringStart "
        23 stringSegment a
        24 stringEnd "
        25 comma ,
        27 identifier line
        31 colon :
        33 integerLiteral 1
        34 rightParen )
        """##),
    LexCase(
        "macro expansions", "#warning(\"x\") #Preview { } #selector(f)",
        ##"""
        0 pound #
        1 identifier warning
        8 leftParen (
        9 stringStart "
        10 stringSegment x
        11 stringEnd "
        12 rightParen )
        14 pound #
        15 identifier Preview
        23 leftBrace {
        25 rightBrace }
        27 pound #
        28 identifier selector
        36 leftParen (
        37 identifier f
        38 rightParen )
        """##),
    LexCase(
        "availability", "if #available(iOS 15, *) {}",
        ##"""
        0 keyword if
        3 poundKeyword #available
        13 leftParen (
        14 identifier iOS
        18 integerLiteral 15
        20 comma ,
        22 binaryOperator *
        23 rightParen )
        25 leftBrace {
        26 rightBrace }
        """##),
    LexCase(
        "attributes", "@State var x\n@Environment(\\.dismiss) var d\n@AppStorage(\"k\") var k",
        ##"""
        0 atSign @
        1 identifier State
        7 keyword var
        11 identifier x
        13 atSign @
        14 identifier Environment
        25 leftParen (
        26 backslash \
        27 period .
        28 identifier dismiss
        35 rightParen )
        37 keyword var
        41 identifier d
        43 atSign @
        44 identifier AppStorage
        54 leftParen (
        55 stringStart "
        56 stringSegment k
        57 stringEnd "
        58 rightParen )
        60 keyword var
        64 identifier k
        """##),
    LexCase(
        "key path", "\\V.$x \\.count",
        ##"""
        0 backslash \
        1 identifier V
        2 period .
        3 dollarIdentifier $x
        6 backslash \
        7 period .
        8 identifier count
        """##),
    LexCase(
        "module selector", "Swift::print",
        ##"""
        0 identifier Swift
        5 colonColon ::
        7 identifier print
        """##),
    LexCase(
        "CRLF and lone CR", "a\r\nb\rc",
        ##"""
        0 identifier a
        3 identifier b
        5 identifier c
        """##),
    LexCase(
        "byte order mark", "\u{FEFF}x",
        ##"""
        3 identifier x
        """##),
    // Names longer than eight bytes, and non-ASCII inside them, cross the eight-bytes-at-a-time scan.
    LexCase(
        "long names and words",
        "averyLongIdentifierName_with$dollar9 x12345678 café_au_lait naïveNameNaïve abcdefgh. mutableAddressWithNativeOwner mutableAddressWithOwnerX Sendable SendableX",
        ##"""
        0 identifier averyLongIdentifierName_with$dollar9
        37 identifier x12345678
        47 identifier café_au_lait
        61 identifier naïveNameNaïve
        78 identifier abcdefgh
        86 period .
        88 identifier mutableAddressWithNativeOwner
        118 identifier mutableAddressWithOwnerX
        143 identifier Sendable
        152 identifier SendableX
        """##),
    // A `.` alone takes a short path; one followed by operator characters does not.
    LexCase(
        "periods alone and in operators", "a.b ..< x.?.y .. a.=b x.√ ",
        ##"""
        0 identifier a
        1 period .
        2 identifier b
        4 binaryOperator ..<
        8 identifier x
        9 binaryOperator .?.
        12 identifier y
        14 binaryOperator ..
        17 identifier a
        18 binaryOperator .=
        20 identifier b
        22 identifier x
        23 postfixOperator .√
        """##),
]

@Test(arguments: lexCases)
func lexesConstruct(_ row: LexCase) {
    #expect(renderTokens(row.source) == row.expected)
    #expect(Lexer.lex(Array(row.source.utf8)).diagnostics.isEmpty, "valid Swift gets no diagnostics")
}
