// Character classes of the Swift lexical grammar, on bytes and Unicode scalars.
// The ranges are those of "Identifiers" and "Operators" in The Swift
// Programming Language's lexical structure, as swiftc and swift-syntax apply them.

// MARK: - ASCII

// Computed, not looked up: a global table costs a lazy-initialization check per access.
extension UInt8 {
    @inlinable var isASCII: Bool { self < 0x80 }
    var isDigit: Bool { self &- UInt8(ascii: "0") < 10 }
    var isHexDigit: Bool { isDigit || (self | 0x20) &- UInt8(ascii: "a") < 6 }
    var isASCIILetter: Bool { (self | 0x20) &- UInt8(ascii: "a") < 26 }
    /// A letter or `_` (public: lowering's type text uses the same test).
    @inlinable public var isASCIIIdentifierStart: Bool {
        (self | 0x20) &- UInt8(ascii: "a") < 26 || self == UInt8(ascii: "_")
    }
    /// Letters, digits, `_` and `$` (`a$b` is one identifier). A bit set in two
    /// constant words: this test runs for every byte of every name.
    var isASCIIIdentifierContinue: Bool {
        let low: UInt64 = 0x03FF_0010_0000_0000 // `$` and `0`–`9`
        let high: UInt64 = 0x07FF_FFFE_87FF_FFFE // `A`–`Z`, `_`, `a`–`z`
        return self < 64 ? (low >> self) & 1 != 0 : self < 128 && (high >> (self & 63)) & 1 != 0
    }
    /// `/ = - + * % < > ! & | ^ ~ . ?`, as bits in two constant words like the test above.
    @inline(__always)
    var isASCIIOperatorCharacter: Bool {
        let low: UInt64 = 0xF000_EC62_0000_0000 // `! % & * + - . / < = > ?`
        let high: UInt64 = 0x5000_0000_4000_0000 // `^ | ~`
        return self < 64 ? (low >> self) & 1 != 0 : self < 128 && (high >> (self & 63)) & 1 != 0
    }
    /// White space, NUL and the separators that end an operator's binding on either side.
    var isBoundnessBreaker: Bool {
        switch self {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0,
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }
    /// Printable ASCII: space through `~`.
    var isPrintableASCII: Bool { self >= 0x20 && self < 0x7F }
    /// A byte that can begin a UTF-8 sequence (RFC 3629: not 80–BF, C0, C1, F5–FF).
    var isUTF8Start: Bool { self < 0x80 || (self >= 0xC2 && self < 0xF5) }
}

// MARK: - Unicode

/// Identifier characters beyond ASCII (C99/N1518 annex X.1 ranges).
func isIdentifierContinue(_ c: UInt32) -> Bool {
    if c < 0x80 { return UInt8(c).isASCIIIdentifierContinue }
    return inRanges(c, identifierContinueRanges)
}

func isIdentifierStart(_ c: UInt32) -> Bool {
    if c < 0x80 { return UInt8(c).isASCIIIdentifierStart }
    guard isIdentifierContinue(c) else { return false }
    // Combining marks may not begin an identifier (N1518 annex X.2).
    return !inRanges(c, combiningMarkRanges)
}

func isOperatorStart(_ c: UInt32) -> Bool {
    if c < 0x80 { return UInt8(c).isASCIIOperatorCharacter }
    return inRanges(c, operatorStartRanges)
}

func isOperatorContinue(_ c: UInt32) -> Bool {
    isOperatorStart(c) || inRanges(c, operatorContinueExtraRanges)
}

private func inRanges(_ c: UInt32, _ ranges: [ClosedRange<UInt32>]) -> Bool {
    // The tables are sorted and disjoint: binary search for the last range starting <= c.
    var low = 0, high = ranges.count
    while low < high {
        let mid = (low + high) / 2
        if ranges[mid].lowerBound <= c { low = mid + 1 } else { high = mid }
    }
    return low > 0 && ranges[low - 1].contains(c)
}

private let identifierContinueRanges: [ClosedRange<UInt32>] = [
    0x00A8...0x00A8, 0x00AA...0x00AA, 0x00AD...0x00AD, 0x00AF...0x00AF,
    0x00B2...0x00B5, 0x00B7...0x00BA, 0x00BC...0x00BE, 0x00C0...0x00D6,
    0x00D8...0x00F6, 0x00F8...0x00FF, 0x0100...0x167F, 0x1681...0x180D,
    0x180F...0x1FFF, 0x200B...0x200D, 0x202A...0x202E, 0x203F...0x2040,
    0x2054...0x2054, 0x2060...0x206F, 0x2070...0x218F, 0x2460...0x24FF,
    0x2776...0x2793, 0x2C00...0x2DFF, 0x2E80...0x2FFF, 0x3004...0x3007,
    0x3021...0x302F, 0x3031...0x303F, 0x3040...0xD7FF, 0xF900...0xFD3D,
    0xFD40...0xFDCF, 0xFDF0...0xFE44, 0xFE47...0xFFF8,
    0x10000...0x1FFFD, 0x20000...0x2FFFD, 0x30000...0x3FFFD, 0x40000...0x4FFFD,
    0x50000...0x5FFFD, 0x60000...0x6FFFD, 0x70000...0x7FFFD, 0x80000...0x8FFFD,
    0x90000...0x9FFFD, 0xA0000...0xAFFFD, 0xB0000...0xBFFFD, 0xC0000...0xCFFFD,
    0xD0000...0xDFFFD, 0xE0000...0xEFFFD,
]

private let combiningMarkRanges: [ClosedRange<UInt32>] = [
    0x0300...0x036F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,
]

private let operatorStartRanges: [ClosedRange<UInt32>] = [
    0x00A1...0x00A7, 0x00A9...0x00A9, 0x00AB...0x00AC, 0x00AE...0x00AE,
    0x00B0...0x00B1, 0x00B6...0x00B6, 0x00BB...0x00BB, 0x00BF...0x00BF,
    0x00D7...0x00D7, 0x00F7...0x00F7, 0x2016...0x2017, 0x2020...0x2027,
    0x2030...0x203E, 0x2041...0x2053, 0x2055...0x205E, 0x2190...0x23FF,
    0x2500...0x2775, 0x2794...0x2BFF, 0x2E00...0x2E7F, 0x3001...0x3003,
    0x3008...0x3030,
]

private let operatorContinueExtraRanges: [ClosedRange<UInt32>] = [
    0x0300...0x036F, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE00...0xFE0F,
    0xFE20...0xFE2F, 0xE0100...0xE01EF,
]

// MARK: - Raw identifiers

/// White space a raw identifier (`` `a b` ``) may not contain: all of Unicode's
/// `White_Space` except U+0020 and the direction marks.
func isForbiddenRawIdentifierWhitespace(_ c: UInt32) -> Bool {
    (0x09...0x0D).contains(c) || c == 0x85 || c == 0xA0 || c == 0x1680
        || (0x2000...0x200A).contains(c) || c == 0x2028 || c == 0x2029
        || c == 0x202F || c == 0x205F || c == 0x3000
}

func isPermittedRawIdentifierWhitespace(_ c: UInt32) -> Bool {
    c == 0x20 || c == 0x200E || c == 0x200F
}

// MARK: - UTF-8 decoding

/// Decodes the scalar at `i`. Returns the scalar (nil when the bytes are not
/// valid, minimal UTF-8 for a scalar) and the offset after what was consumed.
/// Invalid bytes are consumed up to the next byte that can start a sequence,
/// so the caller always advances.
@inline(__always)
func decodeScalar(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> (scalar: UInt32?, next: Int) {
    let first = text[i]
    if first < 0x80 { return (UInt32(first), i + 1) }
    var j = i + 1
    guard first.isUTF8Start else {
        while j < text.count && !text[j].isUTF8Start { j += 1 }
        return (nil, j)
    }
    let length = (~first).leadingZeroBitCount // 2...4
    var value = UInt32(first & (0x7F >> length))
    for _ in 1..<length {
        guard j < text.count, text[j] & 0xC0 == 0x80 else { return (nil, j) }
        value = value << 6 | UInt32(text[j] & 0x3F)
        j += 1
    }
    // Reject overlong forms, surrogates and values past U+10FFFF.
    let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
    if value < minimum || (0xD800...0xDFFF).contains(value) || value > 0x10FFFF { return (nil, j) }
    return (value, j)
}
