// The keywords the lexer always classifies as keywords. Contextual keywords
// (`get`, `set`, `some`, `willSet`, `mutating`, …) stay identifiers here; the
// parser reads them by their text where the grammar gives them meaning.

/// What a keyword tells the lexer about what may follow it.
enum KeywordRole: UInt8 {
    /// `try`: a following `?`/`!` is postfix and then a `/` prefers a regex.
    case `try`
    /// `func`, `operator`: the next token is an operator name, never a regex.
    case operatorName
    /// `true`, `false`, `nil`, `self`, `Self`, `super`, `Any`: an expression, so a `/` after it divides.
    case expression
    /// Any other keyword: a regex literal may follow.
    case other
}

/// The lexer-classified keywords, grouped by length for a fast lookup. The
/// lexer holds one copy per run, so the global is touched once, not per word.
struct KeywordTable {
    static let shared = KeywordTable()

    /// All entries, sorted by length; `firstByLength[k]..<firstByLength[k + 1]` are those of length k.
    private let entries: [Entry]
    private let firstByLength: [Int]

    private struct Entry {
        var head: UInt64
        var tail: UInt64
        var role: KeywordRole
    }

    private init() {
        let table: [(String, KeywordRole)] = [
            ("Any", .expression), ("as", .other), ("associatedtype", .other), ("break", .other),
            ("case", .other), ("catch", .other), ("class", .other), ("continue", .other),
            ("default", .other), ("defer", .other), ("deinit", .other), ("do", .other),
            ("else", .other), ("enum", .other), ("extension", .other), ("fallthrough", .other),
            ("false", .expression), ("fileprivate", .other), ("for", .other), ("func", .operatorName),
            ("guard", .other), ("if", .other), ("import", .other), ("in", .other), ("init", .other),
            ("inout", .other), ("internal", .other), ("is", .other), ("let", .other),
            ("nil", .expression), ("operator", .operatorName), ("precedencegroup", .other),
            ("private", .other), ("protocol", .other), ("public", .other), ("repeat", .other),
            ("rethrows", .other), ("return", .other), ("self", .expression), ("Self", .expression),
            ("static", .other), ("struct", .other), ("subscript", .other), ("super", .expression),
            ("switch", .other), ("throw", .other), ("throws", .other), ("true", .expression),
            ("try", .try), ("typealias", .other), ("var", .other), ("where", .other), ("while", .other),
        ]
        let words = table.map { (bytes: Array($0.0.utf8), role: $0.1) }.sorted { $0.bytes.count < $1.bytes.count }
        entries = words.map { Entry(head: pack($0.bytes, 0), tail: pack($0.bytes, 8), role: $0.role) }
        firstByLength = (0...17).map { length in words.firstIndex { $0.bytes.count >= length } ?? words.count }
    }

    /// The role of the keyword spelled by `text[start..<end]`, or nil for an identifier.
    func role(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> KeywordRole? {
        let length = end - start
        // Most words are not keywords; names of types (capitalized) rarely are.
        guard length >= 2 && length <= 16, text[start] >= UInt8(ascii: "a") || text[start] == UInt8(ascii: "A") || text[start] == UInt8(ascii: "S") else {
            return nil
        }
        let head = pack(text, start, min(end, start + 8))
        let tail = length > 8 ? pack(text, start + 8, end) : 0
        var k = firstByLength[length]
        let stop = firstByLength[length + 1]
        while k < stop {
            if entries[k].head == head && entries[k].tail == tail { return entries[k].role }
            k += 1
        }
        return nil
    }
}

/// Up to 8 bytes from `offset`, little-endian, zero-padded.
private func pack(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
    var value: UInt64 = 0
    var k = min(bytes.count, offset + 8)
    while k > offset {
        k -= 1
        value = value << 8 | UInt64(bytes[k])
    }
    return value
}

@inline(__always)
private func pack(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
    var value: UInt64 = 0
    var k = end
    while k > start {
        k -= 1
        value = value << 8 | UInt64(text[k])
    }
    return value
}
