// Scans that run over long stretches of bytes (comments, indentation, whole
// files) look at eight bytes at a time: one unaligned 64-bit load, a few bit
// operations, and the position of the first hit from its lowest set bit.

/// The offset of the first byte at or after `start` for which `isHit` holds,
/// or the end. `hits` maps eight bytes (little-endian) to a word whose lowest
/// set bit lies in the first byte that is a hit (bits above it may be noise).
@inline(__always)
func scanBytes(
    _ text: UnsafeBufferPointer<UInt8>, from start: Int, hits: (UInt64) -> UInt64, isHit: (UInt8) -> Bool
) -> Int {
    var i = start
    if let base = text.baseAddress {
        while i + 8 <= text.count {
            let found = hits(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            if found != 0 { return i + found.trailingZeroBitCount / 8 }
            i += 8
        }
    }
    while i < text.count && !isHit(text[i]) { i += 1 }
    return i
}

/// The offset of the next `\n` or `\r` at or after `i`, or the end of the input.
func endOfLine(_ text: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
    scanBytes(text, from: i,
              hits: { zeroBytes($0 ^ 0x0A0A_0A0A_0A0A_0A0A) | zeroBytes($0 ^ 0x0D0D_0D0D_0D0D_0D0D) },
              isHit: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
}

/// The offset of the first byte that is not a space at or after `i`.
@inline(__always)
func endOfSpaces(_ text: UnsafeBufferPointer<UInt8>, from i: Int) -> Int {
    scanBytes(text, from: i, hits: { $0 ^ 0x2020_2020_2020_2020 }, isHit: { $0 != UInt8(ascii: " ") })
}

/// The offset of the first `byte` at or after `start`, or the end.
public func firstOffset(of byte: UInt8, in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
    return scanBytes(text, from: start, hits: { zeroBytes($0 ^ pattern) }, isHit: { $0 == byte })
}

/// The high bit set in each zero byte of `word` (and possibly in bytes above
/// the lowest zero one, which is the only one callers use); little-endian.
@inline(__always)
private func zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
}
