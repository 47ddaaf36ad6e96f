import DewrapLowering
import DewrapSyntax
import Foundation
import Testing
import DewrapTestSupport

/// Losslessness on real files and on arbitrary bytes: tokens and trivia cover
/// every byte once and join back to the input; the lexer never traps.
struct RoundTripTests {
    @Test func everyFixtureRoundTrips() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("fixtures")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count >= 4)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            #expect(Lexer.lex(bytes).losslessProblem(in: bytes) == nil, "\(file.lastPathComponent)")
            if file.deletingLastPathComponent().lastPathComponent == "lexer" {
                // No wrappers in these: lowering copies them byte for byte.
                #expect(lower(bytes, fileName: file.path).output == bytes, "\(file.lastPathComponent)")
            }
        }
    }

    /// Inputs with far more tokens per byte than real code, so that the lexer
    /// fills its first token storage and goes on in a larger one.
    @Test func denseInputsRoundTrip() {
        for piece in ["(", "a;", "\"\\(", "#", "\"\n"] {
            let bytes = Array(String(repeating: piece, count: 5_000).utf8)
            let lexed = Lexer.lex(bytes)
            #expect(lexed.losslessProblem(in: bytes) == nil, "\(piece)")
            #expect(lexed.tokens.last?.kind == .endOfFile, "\(piece)")
        }
    }

    /// Bytes drawn mostly from the ones that open and close literals, comments
    /// and interpolations, so that the rare paths are reached often, plus any
    /// byte at all (invalid UTF-8, NUL, lone CR).
    @Test func tenThousandRandomByteStringsRoundTrip() {
        let interesting = Array("\"\"\"#/\\()*{}[]\n\r\t `$@!?<>.=-+_0x1p9aZ".utf8) + [0, 0xEF, 0xBB, 0xBF, 0xC3, 0xA9, 0xF0, 0x9F, 0x80, 0xFF]
        var random = SplitMix64(seed: 0xDE_3A_AB)
        var failures = 0
        for _ in 0..<10_000 {
            let length = Int(random.next() % 48)
            var bytes: [UInt8] = []
            for _ in 0..<length {
                let roll = random.next()
                bytes.append(roll % 4 == 0 ? UInt8(truncatingIfNeeded: roll >> 8) : interesting[Int((roll >> 8) % UInt64(interesting.count))])
            }
            if let problem = Lexer.lex(bytes).losslessProblem(in: bytes) {
                failures += 1
                if failures <= 5 { Issue.record("\(bytes): \(problem)") }
            }
        }
        #expect(failures == 0)
    }
}

/// The round-trip check itself must be able to fail.
struct LosslessCheckTests {
    let bytes = Array("let x = \"s\" // c\n".utf8)

    @Test func acceptsTheLexersOwnSplit() {
        #expect(Lexer.lex(bytes).losslessProblem(in: bytes) == nil)
    }

    @Test func noticesALostToken() {
        var lexed = Lexer.lex(bytes)
        lexed.tokens.remove(at: 1)
        #expect(lexed.losslessProblem(in: bytes) == "bytes at 4 are neither a token nor trivia")
    }

    @Test func noticesOverlapAndADiagnosticOutside() {
        var lexed = Lexer.lex(bytes)
        lexed.tokens[1] = Token(kind: .identifier, start: lexed.tokens[1].start, end: lexed.tokens[2].end)
        #expect(lexed.losslessProblem(in: bytes) != nil)
        lexed = Lexer.lex(bytes)
        lexed.diagnostics.append(Diagnostic(.error, at: bytes.count + 1, "x"))
        #expect(lexed.losslessProblem(in: bytes) == "diagnostic outside the input at \(bytes.count + 1)")
    }
}

/// The parser on hostile input: it ends, reports, and never overflows the stack.
struct ParserRobustnessTests {
    @Test func deepNestingIsReportedNotFatal() {
        for opener in ["(", "[", "{", "a = { ", "if x { ", "f(g: ", "\"\\("] {
            let source = Array(String(repeating: opener, count: 5_000).utf8)
            let tree = Parser.parse(source)
            #expect(tree.diagnostics.contains { $0.message.hasPrefix("nesting is deeper than") }, "\(opener)")
        }
    }

    @Test func randomBytesParseWithoutTrapping() {
        var random = SplitMix64(seed: 0x5EED)
        let pieces = [
            "{", "}", "(", ")", "[", "]", "<", ">", "var", "let", "@State", "func", "struct", "if", "else",
            "case", "switch", "#if", "#endif", "$x", "\\.", "in", ",", ":", "=", "\n", " ", "\"", "\\(", "?", ".",
        ]
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 40) { text += pieces[Int(random.next() % UInt64(pieces.count))] + " " }
            let bytes = Array(text.utf8)
            let tree = Parser.parse(bytes)
            #expect(tree.diagnostics.allSatisfy { $0.offset >= 0 && $0.offset <= bytes.count })
        }
    }

    @Test func unbalancedInputResynchronises() {
        let source = Array("struct A {\n    ) stray\n    var kept = 1\n}\nstruct B {}\n".utf8)
        let tree = Parser.parse(source)
        #expect(tree.diagnostics.count == 1)
        var names: [String] = []
        tree.forEachItem { item in
            if case .type(let type) = item { names.append(tree.text(of: type.name.lower, in: source)) }
            if case .variable(let variable) = item { names.append(tree.text(of: variable.bindings[0].pattern.lower, in: source)) }
        }
        #expect(names == ["A", "kept", "B"])
    }
}

/// Scopes answer "what does this name mean here" for shadowing.
struct ScopeTests {
    @Test func visibleNamesFollowShadowing() {
        let source = Array(
            """
            struct S {
                var x = 0
                func f(x: Int) {
                    let y = x
                    [1].map { y in print(y, x) }
                }
            }
            """.utf8)
        let tree = Parser.parse(source)
        #expect(tree.diagnostics.isEmpty)
        func names(atLast word: String) -> [String] {
            let index = tree.tokens.indices.last { tree.text(of: $0, in: source) == word }!
            return tree.visibleNames(at: index).map { tree.text(of: $0.token, in: source) + ":" + $0.kind.rawValue }
        }
        // Inside the closure: its parameter y, then the local y, the parameter x, the member x.
        #expect(names(atLast: "print") == ["y:closureParameter", "y:variable", "x:parameter", "x:variable", "f:function", "S:type"])
        // A local is not visible in its own initializer.
        let firstX = tree.tokens.indices.first { tree.text(of: $0, in: source) == "x" && $0 > 12 && tree.text(of: $0 - 1, in: source) == "=" }!
        #expect(!tree.visibleNames(at: firstX).contains { tree.text(of: $0.token, in: source) == "y" })
    }
}
