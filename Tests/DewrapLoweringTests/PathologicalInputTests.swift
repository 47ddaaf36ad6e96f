import DewrapLowering
import DewrapSyntax
import Foundation
import Testing

/// Inputs built to hurt: deep nesting, huge tokens, odd bytes. Each must
/// finish quickly, keep every byte it does not rewrite, and say what it found.
struct PathologicalInputTests {
    static let inputs: [(name: String, bytes: [UInt8])] = [
        ("100k nested parentheses", Array(("let x = " + String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000)).utf8)),
        ("100k nested brackets", Array(("let x = " + String(repeating: "[", count: 100_000)).utf8)),
        ("100k nested braces", Array(("func f() " + String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000)).utf8)),
        (
            "100k nested #if",
            Array(
                (String(repeating: "#if A\n", count: 100_000) + "struct S { @State var x = 0 }\n" + String(repeating: "#endif\n", count: 100_000))
                    .utf8)
        ),
        ("100k nested postfix #if", Array(("let v = Text(\"\")\n" + String(repeating: "#if A\n.a()\n", count: 100_000)).utf8)),
        ("10 MB one-line string", Array(("let s = \"" + String(repeating: "a", count: 10_000_000) + "\"\n").utf8)),
        ("1 MB identifier", Array(("struct S { @State var " + String(repeating: "x", count: 1_000_000) + " = 0 }\n").utf8)),
        ("dollars only", Array(String(repeating: "$", count: 100_000).utf8)),
        ("NUL bytes", [UInt8](repeating: 0, count: 10_000) + Array("struct S { @State var x = 0 }".utf8)),
        (
            "invalid UTF-8 in a string and an identifier",
            Array("struct S { @State var a\u{0}".utf8) + [0xFF, 0xC3] + Array(" = \"".utf8) + [0xFE, 0x80] + Array("\" }\n".utf8)
        ),
        ("unterminated multi-line string", Array("struct S { @State var x = 0 }\nlet s = \"\"\"\n  open".utf8)),
        ("unterminated comment", Array("struct S { @State var x = 0 } /* /* open".utf8)),
        ("lone CR line endings", Array("struct S: View {\r    @State var x = 0\r    var body: some View { Text(\"\\(x)\") }\r}\r".utf8)),
        ("BOM", [0xEF, 0xBB, 0xBF] + Array("struct S { @State var x = 0 }\n".utf8)),
        ("100k-character line of members", Array(("struct S { " + String(repeating: "@State var x = 0; ", count: 5_000) + "}").utf8)),
    ]

    @Test(arguments: inputs.indices)
    func finishesQuicklyAndKeepsItsBytes(_ index: Int) {
        let (name, input) = Self.inputs[index]
        let start = DispatchTime.now().uptimeNanoseconds
        let result = lower(input, fileName: "pathological.swift")
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        #expect(seconds < 10, "\(name) took \(seconds) s")
        #expect(result.diagnostics.allSatisfy { $0.offset >= 0 && $0.offset <= input.count }, "\(name)")
        var position = 0
        for change in result.changes {
            #expect(change.lowerBound >= position, "\(name): overlapping changes")
            position = change.upperBound
        }
        if result.diagnostics.contains(where: { $0.severity == .error }) {
            #expect(result.output == input, "\(name): output written despite errors")
        }
    }

    @Test func deepNestingIsReportedNotFatal() {
        let result = lower(Self.inputs[3].bytes, fileName: "ifs.swift")
        #expect(result.diagnostics.contains { $0.message.contains("nesting is deeper than") })
        #expect(result.output == Self.inputs[3].bytes)
    }

    @Test func loneCarriageReturnsAreKeptAsTheLineEnding() {
        let result = lower(Self.inputs[12].bytes, fileName: "cr.swift")
        let text = String(decoding: result.output, as: UTF8.self)
        #expect(text.contains("private var _x: State<Int>\r    var x: Int {\r"))
        #expect(!text.contains("\n"))
    }

    @Test func byteOrderMarkStaysFirst() {
        let result = lower(Self.inputs[13].bytes, fileName: "bom.swift")
        #expect(result.output.starts(with: [0xEF, 0xBB, 0xBF, UInt8(ascii: "s")]))
        #expect(result.output != Self.inputs[13].bytes)
    }
}
