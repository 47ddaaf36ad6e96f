import DewrapLowering
import DewrapSyntax
import DewrapTestSupport
import Foundation
import Testing

/// Stepping over bodies that hold nothing lowering reads (`BodyParsing.skippingPlain`,
/// the default) lowers every fixture exactly as parsing every body does.
struct BodyParsingTests {
    static let cases = Fixtures.cases(in: ["examples", "lowering", "errors", "syntax", "lexer"])

    @Test func thereAreFixtures() {
        #expect(Self.cases.count > 50)
    }

    @Test(arguments: cases)
    func sameLoweringAsParsingEveryBody(_ name: String) throws {
        let input = try Fixtures.read(name, ".swift")
        // A syntax error inside a plain body is found by the full parse only; such inputs differ on purpose.
        guard Parser.parse(input).diagnostics.isEmpty else { return }
        for mode in [SwiftLanguageMode.swift6, .swift5] {
            let skipping = lower(input, fileName: name, options: LoweringOptions(swiftVersion: mode))
            let full = lower(input, fileName: name, options: LoweringOptions(swiftVersion: mode, bodies: .all))
            #expect(skipping.output == full.output, "\(name)")
            #expect(Fixtures.render(skipping.diagnostics, in: input) == Fixtures.render(full.diagnostics, in: input), "\(name)")
        }
    }

    /// The generated benchmark views: most of their bodies are stepped over.
    @Test func sameLoweringOfViewCode() throws {
        let view = try Fixtures.read("examples/PlayerView", ".swift")
        let skipping = lower(view, fileName: "PlayerView.swift")
        let full = lower(view, fileName: "PlayerView.swift", options: LoweringOptions(bodies: .all))
        #expect(skipping.output == full.output)
        #expect(skipping.output != view)
    }

    /// The price of skipping, on purpose: a syntax error inside a plain body is left to the compiler.
    @Test func aSyntaxErrorInAPlainBodyIsLeftToTheCompiler() {
        let input = Array(
            """
            struct V {
                @State var x = 1
                func f() { let = 2 }
            }

            """.utf8)
        let skipping = lower(input, fileName: "v.swift")
        let full = lower(input, fileName: "v.swift", options: LoweringOptions(bodies: .all))
        #expect(full.output == input)
        #expect(full.diagnostics.contains { $0.message.hasPrefix("cannot parse") })
        #expect(skipping.diagnostics.isEmpty)
        #expect(String(decoding: skipping.output, as: UTF8.self).contains("func f() { let = 2 }"))
        #expect(String(decoding: skipping.output, as: UTF8.self).contains("private var _x: State<Int>"))
    }
}

extension BodyParsingTests {
    /// A function with wrapped parameters is lowered only if no other declaration
    /// has its name, a local in a stepped-over body included.
    @Test func aLocalInASteppedOverBodyStillKeepsAWrappedParametersFunction() throws {
        let input = Array(
            """
            @propertyWrapper struct W { var wrappedValue: Int }
            func f(@W x: Int) -> Int { x }
            func g() -> Int {
                let f = 1
                return f
            }

            """.utf8)
        let skipping = lower(input, fileName: "f.swift")
        let full = lower(input, fileName: "f.swift", options: LoweringOptions(bodies: .all))
        #expect(skipping.output == input)
        #expect(skipping.output == full.output)
        #expect(Fixtures.render(skipping.diagnostics, in: input) == Fixtures.render(full.diagnostics, in: input))
        #expect(skipping.diagnostics.contains { $0.message.contains("another declaration in this file is named 'f'") })
    }
}

extension BodyParsingTests {
    /// Token mutations of every fixture (`Fixtures.tokenMutation`) that the full parse
    /// still accepts lower the same both ways: the `$name` references and declarations
    /// in odd places are where stepping over could go wrong.
    @Test func mutatedFixturesThatStillParseLowerTheSameBothWays() throws {
        var random = SplitMix64(seed: 0xB0D1E5)
        var compared = 0
        for name in Self.cases {
            let source = try Fixtures.read(name, ".swift")
            let tokens = Lexer.lex(source).tokens.dropLast()
            guard tokens.count > 2 else { continue }
            for _ in 0..<60 {
                guard let mutated = Fixtures.tokenMutation(of: source, tokens: tokens, random: &random),
                    Parser.parse(mutated).diagnostics.isEmpty
                else { continue }
                let skipping = lower(mutated, fileName: "m.swift")
                let full = lower(mutated, fileName: "m.swift", options: LoweringOptions(bodies: .all))
                #expect(skipping.output == full.output, "\(String(decoding: mutated, as: UTF8.self))")
                #expect(
                    Fixtures.render(skipping.diagnostics, in: mutated) == Fixtures.render(full.diagnostics, in: mutated),
                    "\(String(decoding: mutated, as: UTF8.self))")
                compared += 1
            }
        }
        #expect(compared > 1_000)
    }
}
