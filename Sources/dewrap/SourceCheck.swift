// Whether an input can be Swift source at all, before it is lexed: a binary
// file (an executable, an image) given by mistake would otherwise be copied
// with a warning for each stray byte (1.5 million for dewrap's own executable).
//
// The rule: a NUL byte anywhere, or bytes that are not UTF-8 anywhere (in
// comments and string literals too), and the file is not Swift source.
// - swiftc rejects invalid UTF-8 anywhere in a file, comments included
//   ("error: invalid UTF-8 found in source file"), so such a file can never
//   compile, lowered or not.
// - swiftc only warns about a NUL ("nul character embedded in middle of
//   file"), but no one writes one in source, and every binary file holds one;
//   git, diff and grep judge a file binary by the same sign.
import DewrapSyntax

/// What makes `bytes` not Swift source, as an error at the first offending
/// byte; nil when every byte is UTF-8 and none is NUL.
func notSwiftSource(_ bytes: [UInt8]) -> Diagnostic? {
    bytes.withUnsafeBufferPointer { buffer -> Diagnostic? in
        let count = buffer.count
        var index = 0
        while index < count {
            // Thirty-two ASCII bytes, none of them NUL, at a time: nearly all of a source file.
            // (Eight at a time, the loop's own steps were most of the cost.)
            if index + 32 <= count {
                let words = UnsafeRawPointer(buffer.baseAddress! + index)
                let a = words.loadUnaligned(as: UInt64.self)
                let b = words.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                let c = words.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                let d = words.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                if (a | b | c | d) & highBits == 0 && zeroBytes(a) | zeroBytes(b) | zeroBytes(c) | zeroBytes(d) == 0 {
                    index += 32
                    continue
                }
            }
            if index + 8 <= count {
                let word = UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self)
                if word & highBits == 0 && zeroBytes(word) == 0 {
                    index += 8
                    continue
                }
            }
            let byte = buffer[index]
            if byte == 0 {
                return Diagnostic(.error, at: index, "not Swift source: it contains a NUL byte")
            }
            if byte < 0x80 {
                index += 1
                continue
            }
            let length = utf8SequenceLength(buffer, at: index)
            guard length > 0 else {
                return Diagnostic(.error, at: index, "not Swift source: it is not UTF-8 (byte 0x\(hex(byte)))")
            }
            index += length
        }
        return nil
    }
}

private let highBits: UInt64 = 0x8080_8080_8080_8080

/// The length of the well-formed UTF-8 sequence starting at `index` (a byte
/// of 0x80 or more), or 0 when it is not one (Unicode's table 3-7: no
/// overlong forms, no surrogates, nothing above U+10FFFF, nothing cut short).
private func utf8SequenceLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
    let lead = buffer[index]
    let length: Int
    var secondLow: UInt8 = 0x80, secondHigh: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; secondLow = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; secondHigh = 0x9F
    case 0xF0: length = 4; secondLow = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; secondHigh = 0x8F
    default: return 0
    }
    guard index + length <= buffer.count else { return 0 }
    guard (secondLow...secondHigh).contains(buffer[index + 1]) else { return 0 }
    for offset in 2..<length where !(0x80...0xBF).contains(buffer[index + offset]) { return 0 }
    return length
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
}
