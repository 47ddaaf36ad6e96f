import DewrapSyntax

/// The `--emit-tokens` form: `offset<TAB>kind<TAB>text` per token, without
/// the end-of-file token. Backslash, tab, LF and CR in the text are escaped
/// so each token stays on one line; other bytes are copied as they are.
func tokenDump(_ source: [UInt8], tokens: [Token]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(source.count * 3)
    for token in tokens where token.kind != .endOfFile {
        out += "\(token.start)\t\(token.kind.name)\t".utf8
        for byte in source[token.start..<token.end] {
            switch byte {
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\n"))
    }
    return out
}
