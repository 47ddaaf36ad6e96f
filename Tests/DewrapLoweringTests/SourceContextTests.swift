@testable import DewrapLowering
import DewrapSyntax
import DewrapTestSupport
import Testing

/// `SourceContext` reads the indentation unit eight bytes at a time and finds a
/// declaration's indentation by stepping back from it: both must answer as a
/// plain byte-by-byte reading of the lines does.
struct SourceContextTests {
    /// Random files of lines made of spaces, tabs, line breaks (`\n`, `\r\n`, `\r`) and code.
    private func randomFiles() -> [[UInt8]] {
        var random = SplitMix64(seed: 21)
        let pieces: [String] = [" ", " ", " ", "    ", "\t", "\n", "\r\n", "\r", "var x = 1", "}", "a"]
        return (0..<400).map { _ in
            let count = Int(random.next() % 40)
            return Array((0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined().utf8)
        }
    }

    @Test func indentUnitIsTheSmallestIndentationOrATab() {
        // Also files without `\r`, whose lines are found another way (`memchr` for `\n`).
        let withoutReturns = randomFiles().map { $0.filter { $0 != 13 } }
        for bytes in randomFiles() + withoutReturns {
            let context = SourceContext(bytes: bytes, tree: Parser.parse(bytes))
            #expect(context.indentUnit == referenceIndentUnit(bytes), "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }

    @Test func indentationIsTheBlanksThatStartTheLine() {
        for bytes in randomFiles() {
            let context = SourceContext(bytes: bytes, tree: Parser.parse(bytes))
            for (index, token) in context.tree.tokens.enumerated() where token.end > token.start {
                var start = token.start
                while start > 0 && bytes[start - 1] != 10 && bytes[start - 1] != 13 { start -= 1 }
                var end = start
                while end < bytes.count && (bytes[end] == 32 || bytes[end] == 9) { end += 1 }
                #expect(context.indentation(of: index) == String(decoding: bytes[start..<end], as: UTF8.self))
            }
        }
    }

    /// The rule read a line at a time: a tab at the start of any line gives a tab; otherwise the
    /// fewest leading spaces of a line with something after them, if 2 to 8, else four.
    private func referenceIndentUnit(_ bytes: [UInt8]) -> String {
        var smallest = Int.max
        for start in LineTable(bytes).lineStarts {
            if start < bytes.count && bytes[start] == 9 { return "\t" }
            var end = start
            while end < bytes.count && bytes[end] == 32 { end += 1 }
            if end > start && end < bytes.count && bytes[end] != 10 && bytes[end] != 13 { smallest = min(smallest, end - start) }
        }
        return (2...8).contains(smallest) ? String(repeating: " ", count: smallest) : "    "
    }

    /// `DerivedTypes` hashes by hand, with open addressing and its own growth: it must
    /// answer as a dictionary of the same pairs does, absent pairs and stored nils included.
    @Test func derivedTypesAnswerAsADictionaryAcrossGrowth() {
        let shapes = ["State", "Binding", "Published"].compactMap { WrapperShapes.builtIn.byName[$0] }
        #expect(shapes.count == 3)
        let table = DerivedTypes()
        var expected: [String: DerivedTypes.Entry?] = [:]
        var random = SplitMix64(seed: 5)
        for step in 0..<900 {
            let wrapper = Int(random.next() % 3)
            // Short and long value types; long ones that agree in their first and last eight bytes
            // and length (the key's words) are told apart by their whole text.
            let valueType =
                ["T", "Item", "é", "", "Dictionary<A, Array<", "Dictionary<B, Array<"][Int(random.next() % 6)]
                + "\(random.next() % 150)"
            let key = "\(wrapper) \(valueType)"
            if expected[key] == nil && step % 2 == 0 {
                let entry = step % 3 == 0 ? nil : DerivedTypes.Entry(storageType: "S\(step)", projectedType: nil)
                table.store(entry, wrapper: shapes[wrapper], valueType: valueType)
                expected[key] = .some(entry)
            }
            let found = table.entry(wrapper: shapes[wrapper], valueType: valueType)
            #expect((found == nil) == (expected[key] == nil), "\(key)")
            #expect(found??.storageType == expected[key]??.storageType, "\(key)")
            // Asked by the bytes, it finds the same pair, and gives back the value type as stored.
            let handle = Array(valueType.utf8).withUnsafeBufferPointer { table.handle(of: shapes[wrapper], spelled: $0) }
            #expect((handle == nil) == (expected[key] == nil), "\(key)")
            #expect(handle.map { table.valueType(at: $0) } ?? valueType == valueType, "\(key)")
            #expect(handle.flatMap { table.entry(at: $0) }?.storageType == expected[key]??.storageType, "\(key)")
        }
    }

    /// The file name of a `#sourceLocation` is a string literal: backslash and `"` escaped, every other
    /// character as it is, a combining mark after a quote included.
    @Test func sourceLocationEscapesTheFileName() {
        #expect(sourceLocation("App/View.swift", line: 3) == #"#sourceLocation(file: "App/View.swift", line: 3)"#)
        #expect(sourceLocation(#"a\b"c é.swift"#, line: 12) == #"#sourceLocation(file: "a\\b\"c é.swift", line: 12)"#)
        #expect(sourceLocation("\"\u{301}.swift", line: 1) == "#sourceLocation(file: \"\\\"\u{301}.swift\", line: 1)")
    }
}
