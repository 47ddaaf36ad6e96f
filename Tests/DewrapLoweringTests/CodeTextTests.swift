@testable import DewrapLowering
import DewrapTestSupport
import Testing

/// `CodeText` keeps room ahead of its text and grows it by hand: whatever the
/// pieces, its bytes must be exactly the pieces joined.
struct CodeTextTests {
    @Test func manyPiecesAcrossGrowthAreTheJoinedText() {
        var random = SplitMix64(seed: 8)
        let alphabet = Array("abc xyz_é€\n{}".unicodeScalars).map(String.init)
        for capacity in [0, 1, 5, 64] {
            var text = CodeText(capacity: capacity)
            var expected = ""
            for _ in 0..<300 {
                var piece = ""
                for _ in 0..<Int(random.next() % 90) { piece += alphabet[Int(random.next() % UInt64(alphabet.count))] }
                text += piece
                expected += piece
            }
            #expect(text.count == expected.utf8.count)
            #expect(Array(text.slice) == Array(expected.utf8))
        }
    }

    @Test func truncateAndRangesAppendWhatTheySay() {
        var text = CodeText()
        text.write("var x", " = ")
        let mark = text.count
        text += "W(wrappedValue: 1)"
        var other = CodeText()
        other.append(text, mark..<text.count)
        text.truncate(to: mark - 3)
        text += ";"
        #expect(String(decoding: text.slice, as: UTF8.self) == "var x;")
        #expect(String(decoding: other.slice, as: UTF8.self) == "W(wrappedValue: 1)")
        var empty = CodeText()
        empty += ""
        empty.truncate(to: 10)
        #expect(empty.isEmpty && empty.slice.isEmpty)
    }

    /// Literals, source bytes and copies of the text's own earlier bytes, across growth
    /// (a copy that makes the buffer grow reads what it copies from the old one).
    @Test func literalsSourceBytesAndRepeatsAreTheJoinedText() {
        let source = Array("let name = 1".utf8)
        for capacity in [0, 3, 64] {
            var text = CodeText(capacity: capacity)
            text.write(literal: "_")
            text.write(source, 4..<8)
            let name = 0..<text.count
            text.write(literal: ".é ")
            for _ in 0..<40 { text.repeatText(name) }
            text.repeatText(0..<text.count)
            text.write(literal: "")
            text.write(source, 3..<3)
            let once = "_name.é " + String(repeating: "_name", count: 40)
            #expect(String(decoding: text.slice, as: UTF8.self) == once + once)
        }
    }

    /// `copyBytes` copies each size of piece exactly (it has a path for each range of
    /// sizes), into a `CodeText` and a `ScratchText` alike; a scratch text that runs out
    /// of room says so.
    @Test func piecesOfEverySizeAreCopiedExactly() {
        let source = Array((0..<64).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        var expected: [UInt8] = []
        var text = CodeText()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            var scratch = ScratchText(buffer)
            for size in 0...40 {
                for start in [0, 1, 7] {
                    text.write(source, start..<start + size)
                    scratch.write(source, start..<start + size)
                    expected += source[start..<start + size]
                }
            }
            #expect(Array(text.slice) == expected)
            #expect(Array(scratch.bytes) == expected)
            #expect(!scratch.overflowed)
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { buffer in
            var scratch = ScratchText(buffer)
            scratch.write(literal: "var x")
            scratch.write(literal: ": Int")
            #expect(!scratch.overflowed && scratch.count == 10)
            scratch.write(literal: "!")
            #expect(scratch.overflowed)
        }
    }
}
