@testable import DewrapLowering
import DewrapTestSupport
import Testing

/// `ByteTable` hashes byte strings by hand, with open addressing and its own growth: as a set
/// (`NameSet`) it must answer exactly as a `Set<String>` of the same names would, and as a table
/// as a `Dictionary` would.
struct ByteTableTests {
    @Test func answersAsASetOfStringsAcrossGrowth() {
        var random = SplitMix64(seed: 11)
        let alphabet = Array("ab_Zé1$".unicodeScalars).map(String.init)
        func name() -> String {
            (0..<Int(random.next() % 6)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
        }
        // Room for one name only: every insertion past a few goes through growth.
        var names = NameSet(capacity: 1)
        var expected = Set<String>()
        for _ in 0..<500 {
            let inserted = name()
            names.insert(inserted)
            expected.insert(inserted)
            let asked = name()
            #expect(names.contains(asked) == expected.contains(asked), "\(asked)")
        }
        for member in expected {
            var bytes = member
            #expect(bytes.withUTF8 { names.contains($0) }, "\(member)")
        }
    }

    /// Each name keeps the index of its first insertion (0, 1, …), for the arrays kept beside a set.
    @Test func indicesFollowFirstInsertion() {
        var random = SplitMix64(seed: 12)
        let letters: [Character] = ["a", "b", "_", "é", "Z"]
        var names = NameSet(capacity: 1)
        var expected: [String: Int] = [:]
        for _ in 0..<300 {
            // Short and long names: the set reads eight bytes at a time.
            let name = String((0..<Int(random.next() % 20)).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
            let index = names.insert(name)
            #expect(index == expected[name, default: expected.count], "\(name)")
            expected[name] = index
            #expect(names.count == expected.count)
        }
        for (name, index) in expected {
            var bytes = name
            #expect(bytes.withUTF8 { names.index(of: $0) } == index, "\(name)")
        }
    }

    @Test func anEmptySetHoldsNothing() {
        let names = NameSet(capacity: 0)
        #expect(!names.contains(""))
        #expect(!names.contains("State"))
    }

    /// Values stay with their keys across growth; inserting a key again keeps its first value.
    @Test func answersAsADictionaryAcrossGrowth() {
        var random = SplitMix64(seed: 13)
        let letters: [Character] = ["a", "b", "_", "é", "Z", "<", ">"]
        var table = ByteTable<Int>(capacity: 1)
        var expected: [String: Int] = [:]
        for step in 0..<600 {
            let key = String((0..<Int(random.next() % 24)).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
            let (index, inserted) = table.insert(key, step)
            #expect(inserted == (expected[key] == nil), "\(key)")
            if step % 5 == 0 {
                table.setValue(-step, at: index)
                expected[key] = -step
            } else if inserted {
                expected[key] = step
            }
            let asked = String((0..<Int(random.next() % 24)).map { _ in letters[Int(random.next() % UInt64(letters.count))] })
            #expect(table.index(of: asked).map { table.value(at: $0) } == expected[asked], "\(asked)")
        }
        #expect(table.count == expected.count)
        for (key, value) in expected {
            #expect(table.index(of: key).map { table.value(at: $0) } == value, "\(key)")
        }
    }
}
