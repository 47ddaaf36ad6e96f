extension LexedSource {
    /// Why this is not a lossless split of `bytes`, or nil when it is: the
    /// tokens must be in order and not overlap, end with `endOfFile` at the
    /// end of the input, and together with the trivia pieces between them
    /// join back to exactly `bytes`; the gaps hold only trivia; every diagnostic must point inside.
    /// The round-trip tests and the corpus check share this one definition.
    public func losslessProblem(in bytes: [UInt8]) -> String? {
        guard let last = tokens.last, last.kind == .endOfFile, last.start == bytes.count, last.end == bytes.count else {
            return "token list does not end with endOfFile at the end of the input"
        }
        if let bad = diagnostics.first(where: { $0.offset < 0 || $0.offset > bytes.count }) {
            return "diagnostic outside the input at \(bad.offset)"
        }
        return bytes.withUnsafeBufferPointer { text -> String? in
            var joined: [UInt8] = []
            joined.reserveCapacity(bytes.count)
            var position = 0
            for token in tokens {
                guard token.start >= position, token.end >= token.start, token.end <= bytes.count else {
                    return "token \(token.kind.name) at \(token.start)..<\(token.end) overlaps or leaves the input"
                }
                // Scan the gap strictly: unlike `triviaPieces`, no fallback
                // for bytes that are not trivia, so a lost token shows.
                var piecePosition = position
                while piecePosition < token.start {
                    guard let piece = scanTriviaPiece(text, at: piecePosition, stopAtNewline: false),
                        piece.end > piecePosition, piece.end <= token.start
                    else {
                        return "bytes at \(piecePosition) are neither a token nor trivia"
                    }
                    joined += text[piecePosition..<piece.end]
                    piecePosition = piece.end
                }
                joined += text[token.start..<token.end]
                position = token.end
            }
            guard joined == bytes else {
                let at = zip(joined, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(joined.count, bytes.count)
                return "tokens and trivia do not join back to the input (first difference at byte \(at))"
            }
            return nil
        }
    }
}
