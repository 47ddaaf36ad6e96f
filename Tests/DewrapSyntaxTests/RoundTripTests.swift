import DewrapLowering
import DewrapSyntax
import Foundation
import Testing

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
            #expect(lower(bytes, fileName: file.path).output == bytes, "\(file.lastPathComponent)")
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

/// A small seeded generator, so a failure can be reproduced.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
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
