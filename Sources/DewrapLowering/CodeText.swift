import DewrapSyntax

/// Generated Swift code as UTF-8 bytes, written piece by piece: what an
/// `Edit` holds, without a String made and joined for every piece.
struct CodeText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    static func += (text: inout CodeText, piece: String) {
        // Native and small Strings have contiguous UTF-8: one copy, no per-byte loop.
        if piece.utf8.withContiguousStorageIfAvailable({ text.bytes.append(contentsOf: $0) }) == nil {
            text.bytes.append(contentsOf: piece.utf8)
        }
    }

    /// Appends the pieces in order (`a + b + …` would make a String for each `+`).
    mutating func write(_ a: String, _ b: String, _ c: String = "", _ d: String = "", _ e: String = "", _ f: String = "") {
        self += a
        self += b
        if !c.isEmpty { self += c }
        if !d.isEmpty { self += d }
        if !e.isEmpty { self += e }
        if !f.isEmpty { self += f }
    }

    static func += (text: inout CodeText, piece: CodeText) {
        text.bytes.append(contentsOf: piece.bytes)
    }

    /// The source text of tokens `span` (with the trivia between them), `$x` rewrites applied.
    mutating func append(_ span: TokenSpan, from context: SourceContext) {
        guard !span.isEmpty else { return }
        let tokens = context.tree.tokens
        context.appendText(bytes: tokens[span.lower].start..<tokens[span.upper - 1].end, to: &bytes)
    }
}
