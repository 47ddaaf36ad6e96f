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

/// The lexer-classified keywords, grouped by length for a fast lookup.
private let keywordsByLength: [[(packed: UInt64, tail: UInt64, role: KeywordRole)]] = {
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
    var groups = [[(packed: UInt64, tail: UInt64, role: KeywordRole)]](repeating: [], count: 17)
    for (word, role) in table {
        let bytes = Array(word.utf8)
        groups[bytes.count].append((pack(bytes, 0), pack(bytes, 8), role))
    }
    return groups
}()

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

/// The role of the keyword spelled by `text[start..<end]`, or nil for an identifier.
func keywordRole(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> KeywordRole? {
    let length = end - start
    guard length >= 2 && length <= 16 else { return nil }
    let candidates = keywordsByLength[length]
    if candidates.isEmpty { return nil }
    let head = pack(text, start, min(end, start + 8))
    let tail = length > 8 ? pack(text, start + 8, end) : 0
    for candidate in candidates where candidate.packed == head && candidate.tail == tail {
        return candidate.role
    }
    return nil
}
