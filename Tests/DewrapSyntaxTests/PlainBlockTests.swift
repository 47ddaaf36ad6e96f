import DewrapSyntax
import Testing

/// `BodyParsing.skippingPlain`: which bodies are stepped over, and that the
/// `$name` references recorded while stepping are those the full parse records.
struct PlainBlockTests {
    /// A function body, and whether the parser may step over it.
    static let bodies: [(body: String, skipped: Bool)] = [
        ("a.b()", true),
        ("let done = items.filter { $0.isDone }.count", true),
        ("a.$x", true),
        ("self.$x", true),
        ("a.self.$x", true),
        ("a?.$x", true),
        ("f()[0].$x", true),
        ("f($x)", true),
        ("f(a, $x)", true),
        ("Toggle(isOn: $x)", true),
        ("f(\n    $x)", true),
        ("f(c ? a : $x)", true),
        ("let s = \"v \\($x)\"", true),
        ("y = $x", true),
        ("return $x", true),
        ("g { $x }", true),
        ("if c { Button(\"b\") { x += 1 } }", true),
        // A label, a pattern, a type, after an operator or a keyword: the full parse decides.
        ("f($x: 1)", true),
        ("f(a, $x: $y)", true),
        ("[$x: 1]", false),
        ("[a: 1, $x: 1]", false),
        ("(\n    $x: 1)", false),
        ("let ($x, y) = t", false),
        ("var a.$x", false),
        ("let a: [$T] = []", false),
        ("c ? $a : $b", false),
        ("f(a + $x)", false),
        ("if $x.wrappedValue {}", false),
        ("(\n    $x\n)", false),
        // What lowering reads.
        ("\\.$x", false),
        ("@State var x = 0", false),
        ("items.map { x in x }", false),
        ("for x in xs {}", false),
        ("struct S {}", false),
        ("func g() {}", false),
        ("#if DEBUG\n#endif", false),
        ("#warning(\"w\")", false),
        // Badly nested: left to the parser's recovery.
        ("f(]", false),
    ]

    @Test(arguments: bodies.indices)
    func plainBodiesAreSteppedOverWithTheSameReferences(_ index: Int) {
        let (body, skipped) = Self.bodies[index]
        let source = Array("func f() {\n    \(body)\n}\n".utf8)
        let full = Parser.parse(source)
        let skipping = Parser.parse(source, bodies: .skippingPlain)
        #expect(Self.bodyItems(full) > 0, "\(body)")
        #expect((Self.bodyItems(skipping) == 0) == skipped, "\(body)")
        #expect(Self.references(skipping) == Self.references(full), "\(body)")
        #expect(skipping.census == full.census, "\(body)")
    }

    /// Sources and the blocks stepped over in them (tokens joined). Blocks that lowering
    /// reads whole are never stepped over, nor is anything inside them.
    static let steppedOver: [(source: String, blocks: [String])] = [
        ("func f() { a() }\nfunc g() { @W var x = 1 }\nfunc h() { b { c() } }\n", ["{a()}", "{b{c()}}"]),
        // An initializer's body: its assignments become storage initialization (N-1…N-4).
        ("struct S {\n    init() { if c { x = 1 } else { x = 2 } }\n    func f() { if c { x = 1 } }\n}\n", ["{ifc{x=1}}"]),
        // A body holding an attribute (a wrapped local first assigned in a branch).
        ("func f() {\n    @W var x: Int\n    if c { x = 1 } else { x = 2 }\n}\nfunc g() { if c { x = 1 } }\n", ["{ifc{x=1}}"]),
        // A function with a wrapped parameter: its statements are rewritten (P-1).
        ("func f(@W x: Int) -> Int { if c { x } else { 0 } }\nfunc g() { h() }\n", ["{h()}"]),
    ]

    @Test(arguments: steppedOver.indices)
    func steppedOverBlocksAreListed(_ index: Int) {
        let (text, blocks) = Self.steppedOver[index]
        let source = Array(text.utf8)
        let tree = Parser.parse(source, bodies: .skippingPlain)
        let texts = tree.steppedOver.map { span in
            tree.tokens[span.lower..<span.upper].map { String(decoding: source[$0.start..<$0.end], as: UTF8.self) }.joined()
        }
        #expect(texts == blocks)
        #expect(Parser.parse(source).steppedOver.isEmpty)
    }

    /// The locals declared in stepped-over blocks, which the tree does not hold: `let`/`var` starting an item only.
    @Test func variablesDeclaredInSteppedOverBlocks() {
        let source = Array("func g() {\n    let f = 1; var k: Int\n    if let h = x,\n       let j = y { weak var w = z }\n}\n".utf8)
        let tree = Parser.parse(source, bodies: .skippingPlain)
        let names = tree.variableNamesInSteppedOverBlocks.map { String(decoding: source[tree.tokens[$0].range], as: UTF8.self) }
        #expect(names == ["f", "k", "w"])
    }

    static func bodyItems(_ tree: SourceTree) -> Int {
        guard case .function(let function) = tree.items.first else { return -1 }
        return function.body?.items.count ?? -1
    }

    static func references(_ tree: SourceTree) -> [String] {
        tree.dollarReferences.map { "\($0.token) \($0.qualifier)" }
    }
}
