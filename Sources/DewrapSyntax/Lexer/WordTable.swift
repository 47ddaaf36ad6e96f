// MARK: - Looking words up

/// Looks words up by their bytes: an open-addressing hash table placed by a
/// name's length and its first and last bytes, and compared on the length and
/// the first eight bytes. A name that is no word (most of them) costs one probe
/// of an empty slot, found before its first eight bytes are read and masked.
/// The lexer looks every name up once and stores the word in its token.
/// Sendable by hand: its slots are written only by `init`.
struct WordTable: @unchecked Sendable {
    static let shared = WordTable()

    private static let slotCount = 1024
    /// A word's length and first eight bytes, so that a probe compares
    /// integers and only a word longer than eight bytes reads its spelling.
    private struct Slot {
        var head: UInt64 = 0
        var length: UInt8 = 0
        /// The word's raw value; 0 (`Word.none`) marks an empty slot.
        var word: UInt8 = 0
    }
    /// A plain pointer, not an array: an array's index is checked against its
    /// count on every probe. Allocated once for the shared table, never freed.
    private let slots: UnsafeMutablePointer<Slot>

    /// Reads each spelling in place (`Word.spellings`, by raw value), without
    /// an array of bytes per word: every process builds the table, and would
    /// pay for those allocations at start-up.
    private init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Slot(), count: Self.slotCount)
        for raw in 1..<Word.spellings.count {
            var spelling = Word.spellings[raw]
            spelling.withUTF8 { text in
                let head = Self.head(text, 0, text.count)
                var slot = Self.slot(text, 0, text.count)
                while slots[slot].word != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
                slots[slot] = Slot(head: head, length: UInt8(text.count), word: UInt8(raw))
            }
        }
    }

    /// Where the probe for the nonempty `text[start..<end]` begins: a
    /// multiplicative hash of its length, first and last byte, whose top bits
    /// depend on all three. Three bytes already at hand, rather than the
    /// masked head: a name that is no word then misses on an empty slot
    /// without reading its head, and most names in view code are no word.
    @inline(__always)
    private static func slot(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        let key = UInt32(text[start]) | UInt32(text[end - 1]) << 8 | UInt32(truncatingIfNeeded: end - start) << 16
        return Int(truncatingIfNeeded: (key &* 0x9E37_79B1) >> UInt32(32 - slotCount.trailingZeroBitCount))
    }

    /// The first eight bytes of `text[start..<end]` (fewer, zero-padded), little-endian.
    @inline(__always)
    private static func head(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        let length = end - start
        // `&+`: `start` is an offset into `text`, far from overflowing.
        if start &+ 8 <= text.count, let base = text.baseAddress {
            let word = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)
            return length >= 8 ? word : word & ((1 << (8 * UInt64(length))) - 1)
        }
        var value: UInt64 = 0
        var k = start + min(length, 8)
        while k > start {
            k -= 1
            value = value << 8 | UInt64(text[k])
        }
        return value
    }

    @inline(always)
    func word(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Word {
        guard end > start else { return .none }
        var slot = Self.slot(text, start, end)
        guard slots[slot].word != 0 else { return .none }
        let length = end - start
        let head = Self.head(text, start, end)
        while true {
            let entry = slots[slot]
            guard entry.word != 0 else { return .none }
            if entry.head == head && Int(entry.length) == length && (length <= 8 || tailMatches(entry.word, text, start, end)) {
                // `entry.word` was stored from a `Word`. The cast relies on the raw values
                // being the implicit ones, equal to the case order (WordTests finds every word).
                return unsafeBitCast(entry.word, to: Word.self)
            }
            slot = (slot + 1) & (Self.slotCount - 1)
        }
    }

    /// Whether `text[start..<end]`, whose first eight bytes and length are
    /// word `raw`'s, spells it (rare: a name that long and that close to a word).
    private func tailMatches(_ raw: UInt8, _ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        Word.spellings[Int(raw)].utf8.elementsEqual(text[start..<end])
    }
}
