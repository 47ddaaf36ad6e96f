import DewrapSyntax
import Foundation
// TEMPORARY until the CLI has --emit-tokens.
func printTokens(_ path: String) {
    let bytes = readBytes(path)
    var out: [UInt8] = []
    for t in Lexer.lex(bytes).tokens where t.kind != .endOfFile {
        out += Array("\(t.start)\t\(t.kind.name)\t".utf8)
        for b in bytes[t.start..<t.end] {
            switch b {
            case UInt8(ascii: "\\"): out += [92, 92]
            case 9: out += [92, UInt8(ascii: "t")]
            case 10: out += [92, UInt8(ascii: "n")]
            case 13: out += [92, UInt8(ascii: "r")]
            default: out.append(b)
            }
        }
        out.append(10)
    }
    FileHandle.standardOutput.write(Data(out))
}
