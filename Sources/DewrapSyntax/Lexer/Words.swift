/// The words the parser gives meaning to: keywords and contextual keywords.
/// Each word token is looked up once, when parsing starts, so the grammar
/// compares small integers instead of bytes.
public enum Word: UInt8, Sendable, CaseIterable {
    case none
    // Keywords.
    case `as`, `associatedtype`, `break`, `case`, `catch`, `class`, `continue`, `default`, `defer`
    case `deinit`, `do`, `else`, `enum`, `extension`, `fallthrough`, `false`, `fileprivate`, `for`
    case `func`, `guard`, `if`, `import`, `in`, `init`, `inout`, `internal`, `is`, `let`, `nil`
    case `operator`, `precedencegroup`, `private`, `protocol`, `public`, `repeat`, `rethrows`
    case `return`, `self`, `Self`, `static`, `struct`, `subscript`, `super`, `switch`, `throw`
    case `throws`, `true`, `try`, `typealias`, `var`, `where`, `while`, `Any`
    // Contextual keywords.
    case actor, macro, open, package, final, override, mutating, nonmutating, lazy, weak, unowned
    case optional, required, convenience, dynamic, indirect, prefix, postfix, infix, nonisolated
    case distributed, __consuming, consuming, borrowing, __owned, __shared, _const, isolated, sending
    case __setter_access, async, await, reasync, some, any, each, of, unknown, unsafe, consume, copy
    case get, set, willSet, didSet, _modify, _read, modify, read, unsafeAddress, unsafeMutableAddress
    case addressWithOwner, addressWithNativeOwner, mutableAddressWithOwner, mutableAddressWithNativeOwner
    case borrow, mutate, yield, discard, then
    // Type attributes that never take arguments: a `(` after them opens a function type.
    case autoclosure, escaping, Sendable, noescape

    /// How the word is written. A literal table, in case order: asking the
    /// runtime for a case's name costs about 15,000 instructions a word, which
    /// every process would pay at start-up (WordTests checks the table).
    public var spelling: String { Word.spellings[Int(rawValue)] }

    static let spellings: [String] = [
        "", "as", "associatedtype", "break", "case", "catch", "class", "continue", "default", "defer",
        "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func",
        "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil", "operator",
        "precedencegroup", "private", "protocol", "public", "repeat", "rethrows", "return", "self", "Self",
        "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try", "typealias",
        "var", "where", "while", "Any", "actor", "macro", "open", "package", "final", "override", "mutating",
        "nonmutating", "lazy", "weak", "unowned", "optional", "required", "convenience", "dynamic",
        "indirect", "prefix", "postfix", "infix", "nonisolated", "distributed", "__consuming", "consuming",
        "borrowing", "__owned", "__shared", "_const", "isolated", "sending", "__setter_access", "async",
        "await", "reasync", "some", "any", "each", "of", "unknown", "unsafe", "consume", "copy", "get",
        "set", "willSet", "didSet", "_modify", "_read", "modify", "read", "unsafeAddress",
        "unsafeMutableAddress", "addressWithOwner", "addressWithNativeOwner", "mutableAddressWithOwner",
        "mutableAddressWithNativeOwner", "borrow", "mutate", "yield", "discard", "then", "autoclosure",
        "escaping", "Sendable", "noescape",
    ]
}

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
    /// an array of bytes per word: every process builds the table, and those
    /// allocations cost it about 40,000 instructions, measured.
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
    /// without reading its head (about 15 instructions less a name, measured
    /// on view code, where three names in four are no word).
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

extension Word {
    /// The keywords the lexer always classifies as keywords: the first group of cases.
    @inline(__always)
    var isKeyword: Bool { self != .none && rawValue <= Word.Any.rawValue }

    /// For the keywords the lexer always classifies as keywords (the first
    /// group of cases), what they tell it about the next token; nil for every
    /// other word, which stays an identifier.
    var keywordRole: KeywordRole? {
        switch self {
        case .none: return nil
        case .true, .false, .nil, .self, .Self, .super, .Any: return .expression
        case .try: return .try
        case .func, .operator: return .operatorName
        default: return rawValue <= Word.Any.rawValue ? .other : nil
        }
    }

    /// Modifiers that may stand before a declaration keyword.
    var isDeclarationModifier: Bool {
        switch self {
        case .public, .private, .fileprivate, .internal, .open, .package, .static, .class, .final, .override,
             .mutating, .nonmutating, .lazy, .weak, .unowned, .optional, .required, .convenience, .dynamic,
             .indirect, .prefix, .postfix, .infix, .nonisolated, .distributed, .__consuming, .consuming,
             .borrowing, .__owned, .__shared, ._const, .__setter_access, .async, .isolated:
            return true
        default:
            return false
        }
    }

    /// `get`, `set`, `willSet`, … : words that open an accessor.
    var isAccessorKind: Bool {
        switch self {
        case .get, .set, .willSet, .didSet, ._modify, ._read, .modify, .read, .unsafeAddress, .unsafeMutableAddress,
             .addressWithOwner, .addressWithNativeOwner, .mutableAddressWithOwner, .mutableAddressWithNativeOwner,
             .`init`, .borrow, .mutate:
            return true
        default:
            return false
        }
    }

    /// Words allowed before an accessor keyword.
    var isAccessorModifier: Bool {
        self == .mutating || self == .nonmutating || self == .__consuming || self == .consuming || self == .borrowing
    }

    /// Words that may precede a type: specifiers and `some`/`any`/`each`.
    var isTypeSpecifier: Bool {
        switch self {
        case .inout, .borrowing, .consuming, .__owned, .__shared, .sending, .isolated, ._const, .some, .any,
             .each, .repeat, .nonisolated:
            return true
        default:
            return false
        }
    }
}
