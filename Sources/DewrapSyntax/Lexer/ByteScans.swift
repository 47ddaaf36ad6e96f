// Scans that run over long stretches of bytes (comments, indentation, whole
// files) look at eight bytes at a time: one unaligned 64-bit load, a few bit
// operations, and the position of the first hit from its lowest set bit.

/// The offset of the first byte at or after `start` for which `isHit` holds,
/// or the end. `hits` maps eight bytes (little-endian) to a word whose lowest
/// set bit lies in the first byte that is a hit (bits above it may be noise).
@inlinable @inline(__always)
func scanBytes(
    _ text: UnsafeBufferPointer<UInt8>, from start: Int, hits: (UInt64) -> UInt64, isHit: (UInt8) -> Bool
) -> Int {
    var i = start
    if let base = text.baseAddress {
        // `&+`: `i` is an offset into `text`, far from overflowing.
        while i &+ 8 <= text.count {
            let found = hits(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            if found != 0 { return i &+ found.trailingZeroBitCount / 8 }
            i &+= 8
        }
    }
    while i < text.count && !isHit(text[i]) { i += 1 }
    return i
}

/// The offset of the next `\n` or `\r` at or after `i`, or the end of the input.
/// Inlinable: lowering reads the indentation of every line with it.
@inlinable
public func endOfLine(_ text: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
    scanBytes(
        text, from: i,
        hits: { zeroBytes($0 ^ 0x0A0A_0A0A_0A0A_0A0A) | zeroBytes($0 ^ 0x0D0D_0D0D_0D0D_0D0D) },
        isHit: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
}

/// The offset of the first byte that is not a space at or after `i`.
@inline(__always)
func endOfSpaces(_ text: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
    scanBytes(text, from: i, hits: { $0 ^ 0x2020_2020_2020_2020 }, isHit: { $0 != UInt8(ascii: " ") })
}

/// The offset of the first byte at or after `i` that is not an ASCII letter
/// or digit: the bulk of a name. The caller looks at the byte it stops on,
/// which may still continue the name (`_`, `$`, `é`).
@inline(__always)
func endOfASCIIAlphanumerics(_ text: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
    scanBytes(text, from: i, hits: nonAlphanumericBytes, isHit: { !($0.isASCIILetter || $0.isDigit) })
}

/// The offset of the first byte at or after `i` that a string literal's text
/// must look at: `\`, `"`, `'`, a control character, DEL or a non-ASCII byte.
@inline(__always)
func endOfPlainStringText(_ text: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
    scanBytes(
        text, from: i, hits: notPlainStringBytes,
        isHit: {
            !$0.isPrintableASCII || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'")
        })
}

/// The high bit set in each zero byte of `word` (and possibly in bytes above
/// the lowest zero one, which is the only one callers use); little-endian.
/// Zero exactly when `word` holds no zero byte.
@inlinable @inline(__always)
public func zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
}

/// The high bit set in each byte of `word` that is not `[A-Za-z0-9]`,
/// non-ASCII bytes included; exact up to and including the lowest such byte.
@inline(__always)
private func nonAlphanumericBytes(_ word: UInt64) -> UInt64 {
    // No `& 0x7F` first (as `bytesInRange` asks): only a non-ASCII byte's sum
    // can carry, into the bytes above it, and `| word` makes it a hit itself.
    // `| 0x20` folds `A`–`Z` onto `a`–`z` and moves no other byte into that range.
    let letters = bytesInRange(word | 0x2020_2020_2020_2020, UInt8(ascii: "a"), UInt8(ascii: "z"))
    let digits = bytesInRange(word, UInt8(ascii: "0"), UInt8(ascii: "9"))
    return (~(letters | digits) | word) & 0x8080_8080_8080_8080
}

/// The high bit set in each byte of `word` that `endOfPlainStringText` stops
/// on; exact in every byte.
@inline(__always)
private func notPlainStringBytes(_ word: UInt64) -> UInt64 {
    let ascii = word & 0x7F7F_7F7F_7F7F_7F7F
    let printable = bytesInRange(ascii, 0x20, 0x7E)
    let backslash = bytesInRange(ascii, UInt8(ascii: "\\"), UInt8(ascii: "\\"))
    let quotes = bytesInRange(ascii, UInt8(ascii: "\""), UInt8(ascii: "\"")) | bytesInRange(ascii, UInt8(ascii: "'"), UInt8(ascii: "'"))
    return (~printable | backslash | quotes | word) & 0x8080_8080_8080_8080
}

/// The high bit set in each byte of `ascii` (all bytes below 0x80) that lies
/// in `low...high`; other bits are noise. No byte's sum carries into the next.
@inline(__always)
private func bytesInRange(_ ascii: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let atLeastLow = ascii &+ ones &* UInt64(0x80 - low)
    let aboveHigh = ascii &+ ones &* UInt64(0x7F - high)
    return atLeastLow & ~aboveHigh
}
