import DewrapLowering
import DewrapSyntax
import DewrapTestSupport
import Foundation
import Testing

/// Mutation fuzzing with a fixed seed (CI runs it): tokens of the fixtures
/// deleted, duplicated, swapped and inserted, every fixture truncated at
/// every token boundary, and random bytes. Every input must lower within a
/// time bound, keep every untouched byte, report diagnostics inside the
/// input, and lower its own output to itself.
struct MutationFuzzTests {
    static let sources: [[UInt8]] = {
        let folders = ["examples", "lowering", "errors", "syntax", "lexer"]
        return Fixtures.cases(in: folders).compactMap { try? Fixtures.read($0, ".swift") }
    }()

    @Test func tokenMutationsOfEveryFixture() {
        var random = SplitMix64(seed: 0xF0_22ED)
        var tried = 0
        for source in Self.sources {
            let tokens = Lexer.lex(source).tokens.dropLast()
            guard tokens.count > 2 else { continue }
            for _ in 0..<120 {
                guard let mutated = Fixtures.tokenMutation(of: source, tokens: tokens, random: &random) else { continue }
                check(mutated)
                tried += 1
            }
        }
        print("mutation fuzzing: \(tried) token mutations of \(Self.sources.count) fixtures")
        #expect(tried > 3_000)
    }

    @Test func everyTokenBoundaryTruncationOfSomeFixtures() {
        var tried = 0
        for name in ["examples/PlayerView", "lowering/Initializers", "lowering/Observers", "lowering/ConditionalState", "lowering/DollarShadowing"] {
            guard let source = try? Fixtures.read(name, ".swift") else { continue }
            for token in Lexer.lex(source).tokens {
                check(Array(source[..<token.start]))
                check(Array(source[..<token.end]))
                tried += 2
            }
        }
        print("mutation fuzzing: \(tried) truncations at token boundaries")
        #expect(tried > 1_000)
    }

    /// Inputs libFuzzer (bin/fuzz) found, kept as regression cases.
    @Test func fuzzFindings() throws {
        let folder = Fixtures.root.appendingPathComponent("fuzz")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            check([UInt8](try Data(contentsOf: folder.appendingPathComponent(file))))
        }
    }

    @Test func randomBytesWithWrapperWords() {
        var random = SplitMix64(seed: 0xB17E5)
        let pieces = [
            "@State ", "@Binding ", "var ", "let ", "struct S: View {", "}", "init() {", "$x", "x = 1\n", "#if A\n",
            "#endif\n", "\"", "\\(", "/*", "\n", "{", "(", ")", "\u{0}", "\u{FEFF}", "é", "self.", "_x", ":", "Int", "?",
        ]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 30) {
                if random.next() % 8 == 0 {
                    bytes.append(UInt8(truncatingIfNeeded: random.next()))
                } else {
                    bytes += pieces[Int(random.next() % UInt64(pieces.count))].utf8
                }
            }
            check(bytes)
        }
    }

    /// The properties every input must have.
    private func check(_ input: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = lower(input, fileName: "fuzz.swift")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        #expect(seconds < 2, "slow input: \(input.count) bytes", sourceLocation: sourceLocation)
        #expect(result.diagnostics.allSatisfy { $0.offset >= 0 && $0.offset <= input.count }, sourceLocation: sourceLocation)
        #expect(untouchedBytesKept(input, result), "\(String(decoding: input, as: UTF8.self))", sourceLocation: sourceLocation)
        if result.output != input {
            let again = lower(result.output, fileName: "fuzz.swift")
            #expect(again.output == result.output, "not idempotent: \(String(decoding: input, as: UTF8.self))", sourceLocation: sourceLocation)
        }
    }

    /// The input minus the changed ranges appears in the output in order.
    private func untouchedBytesKept(_ input: [UInt8], _ result: LoweringResult) -> Bool {
        guard result.output != input else { return true }
        var outputIndex = 0
        var position = 0
        for change in result.changes + [input.count..<input.count] {
            guard change.lowerBound >= position else { return false }
            let kept = input[position..<change.lowerBound]
            // Find the kept run at or after outputIndex (replacements sit between runs).
            guard let found = find(kept, in: result.output, from: outputIndex) else { return false }
            outputIndex = found + kept.count
            position = change.upperBound
        }
        return true
    }

    private func find(_ needle: ArraySlice<UInt8>, in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty else { return start }
        guard haystack.count >= needle.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
