@testable import DewrapSyntax
import Testing

/// The literal spelling table must stay in step with the `Word` cases, and
/// every word must be found by its spelling.
struct WordTests {
    @Test func spellingsFollowTheCases() {
        #expect(Word.spellings.count == Word.allCases.count)
        for word in Word.allCases where word != .none {
            #expect(word.spelling == String(describing: word))
        }
        #expect(Word.none.spelling == "")
    }

    @Test func everyWordIsFoundAndOtherNamesAreNot() {
        for word in Word.allCases where word != .none {
            let bytes = Array(word.spelling.utf8)
            #expect(bytes.withUnsafeBufferPointer { WordTable.shared.word($0, 0, $0.count) } == word)
            // Inside a longer buffer too: the head is then read eight bytes at a time.
            let padded = bytes + Array(" padding".utf8)
            #expect(padded.withUnsafeBufferPointer { WordTable.shared.word($0, 0, bytes.count) } == word)
        }
        for name in ["As", "vars", "x", "", "lets", "initializer", "Sendables", "préfix"] {
            let bytes = Array(name.utf8)
            #expect(bytes.withUnsafeBufferPointer { WordTable.shared.word($0, 0, $0.count) } == .none, "\(name)")
        }
    }
}
