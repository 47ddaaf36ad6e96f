import DewrapSyntax

/// Which files of a module may declare a name, read off their tokens: every word that stands
/// where a declaration's name can (after `let`, `var`, `func`, `case` or a `,`, and every word of
/// a type's name, from `struct`, `class`, `enum`, `protocol`, `actor`, `extension`, `typealias`
/// or `associatedtype` to the `{`, `:`, `=`, `;`, `where` or line break after it). Many more
/// words stand there than are declared (every argument after a comma), never fewer: a file that
/// declares a name the module's declarations hold has it listed here. So the declarations are
/// parsed from the files that list the word asked (`ModuleSources`), not from all of them.
struct DeclaringFiles {
    private var words = NameSet(capacity: 4096)
    /// By word index: the files that list it, in increasing order.
    private var files: [[Int32]] = []

    /// Lists the words of file `position` (positions given in increasing order), lexed as `tokens`.
    mutating func add(_ source: [UInt8], tokens: [Token], position: Int) {
        let file = Int32(truncatingIfNeeded: position)
        source.withUnsafeBufferPointer { bytes in
            var naming = false
            var namingFrom = 0
            for (index, token) in tokens.enumerated() {
                if naming && index > namingFrom
                    && (token.flags.contains(.atStartOfLine) || token.word == .where
                        || [.leftBrace, .colon, .equal, .semicolon, .endOfFile].contains(token.kind))
                {
                    naming = false
                }
                guard token.kind == .identifier || token.kind == .keyword else { continue }
                let previous = index > 0 ? tokens[index - 1] : nil
                if naming || previous?.kind == .comma || previous.map({ Self.precedesName($0.word) }) == true {
                    list(Self.name(token, in: bytes), in: file)
                }
                if Self.startsTypeName(token.word) {
                    naming = true
                    namingFrom = index
                }
            }
        }
    }

    /// The files that list `word`, in increasing order.
    func files(listing word: UnsafeBufferPointer<UInt8>) -> [Int32] {
        words.index(of: word).map { files[$0] } ?? []
    }

    private mutating func list(_ word: UnsafeBufferPointer<UInt8>, in file: Int32) {
        let (index, inserted) = words.insert(word, ())
        if inserted { files.append([]) }
        if files[index].last != file { files[index].append(file) }
    }

    /// A token's bytes without the backticks of `` `default` ``.
    private static func name(_ token: Token, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var range = token.range
        if range.count > 2 && bytes[range.lowerBound] == UInt8(ascii: "`") && bytes[range.upperBound - 1] == UInt8(ascii: "`") {
            range = (range.lowerBound + 1)..<(range.upperBound - 1)
        }
        return UnsafeBufferPointer(rebasing: bytes[range])
    }

    private static func precedesName(_ word: Word) -> Bool {
        switch word {
        case .let, .var, .func, .case: return true
        default: return startsTypeName(word)
        }
    }

    private static func startsTypeName(_ word: Word) -> Bool {
        switch word {
        case .struct, .class, .enum, .protocol, .actor, .extension, .typealias, .associatedtype: return true
        default: return false
        }
    }
}
