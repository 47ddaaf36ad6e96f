import DewrapSyntax

/// Which files of a module may declare a name, read off their tokens: every word that stands
/// where a declaration's name can (after `let`, `var`, `func` or `case`; after a `,` at the
/// bracket depth of a `let`, `var` or `case` before it, which may start the next binding or case;
/// and every word of a type's name, from `struct`, `class`, `enum`, `protocol`, `actor`,
/// `extension`, `typealias` or `associatedtype` to the `{`, `:`, `=`, `;`, `where` or line break
/// after it). More words stand there than are declared, never fewer: a file that declares a name
/// the module's declarations hold has it listed here. So the declarations are
/// parsed from the files that list the word asked (`ModuleSources`), not from all of them.
struct DeclaringFiles {
    /// The words listed, each with the last file that listed it.
    private var words: ByteTable<Int32>

    /// Room for the words of `files` files without growing: some sixteen a file in the apps
    /// measured, forty in the densest (growing rehashes every word listed so far).
    init(files: Int = 0) {
        words = ByteTable(capacity: max(1024, 24 * files))
    }
    /// Each word a file lists, once a file, in the order listed: word indices and files.
    private var listedWords: [Int32] = []
    private var listedFiles: [Int32] = []
    /// Made by `finish()`: the files of word `w` are `files[starts[w]..<starts[w + 1]]`.
    private var starts: [Int] = []
    private var files: [Int32] = []

    /// Lists the words of file `position` (positions given in increasing order), lexed as `tokens`.
    mutating func add(_ source: [UInt8], tokens: [Token], position: Int) {
        let file = Int32(truncatingIfNeeded: position)
        source.withUnsafeBufferPointer { bytes in
            tokens.withUnsafeBufferPointer { tokens in
                // Whether the words from here to the end of a type's name are listed.
                var naming = false
                // Whether the next word is listed: it follows `let`, `var`, `func`, `case`, a type's
                // keyword, or a `,` of a binding list.
                var listsNext = false
                // By bracket depth: whether a `let`, `var` or `case` stood at that depth (a `,` there
                // may start another binding or case; one inside brackets opened since, an argument's,
                // may not). One bit a depth, in a word; deeper than the word holds, every depth counts
                // as one that had a binding: a `,` there lists the word after it (more words, never fewer).
                var depth = 0
                var bindingLists: UInt64 = 0
                for token in tokens {
                    if naming && Self.endsTypeName(token) { naming = false }
                    switch token.kind {
                    case .leftParen, .leftSquare, .leftBrace, .interpolationStart:
                        depth &+= 1
                        if depth < 64 { bindingLists &= ~(1 << UInt64(depth)) }
                        listsNext = false
                        continue
                    case .rightParen, .rightSquare, .rightBrace, .interpolationEnd:
                        if depth > 0 { depth &-= 1 }
                        listsNext = false
                        continue
                    case .comma:
                        listsNext = depth >= 64 || bindingLists & (1 << UInt64(depth)) != 0
                        continue
                    case .identifier, .keyword:
                        break
                    default:
                        listsNext = false
                        continue
                    }
                    if naming || listsNext { list(Self.name(token, in: bytes), in: file) }
                    let word = token.word
                    listsNext = Self.precedesName(word)
                    switch word {
                    case .let, .var, .case:
                        if depth < 64 { bindingLists |= 1 << UInt64(depth) }
                    case let word where Self.startsTypeName(word):
                        // From the next token on: the keyword may itself start a line.
                        naming = true
                    default: break
                    }
                }
            }
        }
    }

    /// Groups the files by word, once every file is added.
    mutating func finish() {
        starts = [Int](repeating: 0, count: words.count + 1)
        for word in listedWords { starts[Int(word) + 1] += 1 }
        for word in 0..<words.count { starts[word + 1] += starts[word] }
        var next = starts
        files = [Int32](repeating: 0, count: listedFiles.count)
        for (word, file) in zip(listedWords, listedFiles) {
            files[next[Int(word)]] = file
            next[Int(word)] += 1
        }
        listedWords = []
        listedFiles = []
    }

    /// The files that may declare every one of `names` (after `finish()`), in increasing order:
    /// those that list each name's word (`word(declaring:)`); nil when no name has a word, for then
    /// any file may.
    func files(declaring names: [String]) -> [Int]? {
        var both: [Int]?
        for name in names {
            guard let word = Self.word(declaring: name) else { continue }
            let listing = word.withUnsafeBufferPointer { word in
                words.index(of: word).map { files[starts[$0]..<starts[$0 + 1]].map { Int($0) } } ?? []
            }
            both = both.map { Self.intersection($0, listing) } ?? listing
        }
        return both
    }

    /// The word a declaration of `name` is listed by: its last name (`Outer.Inner` is declared
    /// where `Inner` is), without the backticks of `` `default` `` or of a raw identifier
    /// (`` `a b` ``, SE-0451), whole; nil for an operator, or a name of non-ASCII letters only,
    /// which `add` does not list.
    static func word(declaring name: String) -> [UInt8]? {
        let bytes = Array(name.utf8)
        let backtick = UInt8(ascii: "`")
        if bytes.count > 2, bytes.last == backtick, let open = bytes.dropLast().lastIndex(of: backtick), open < bytes.count - 2 {
            return Array(bytes[(open + 1)..<(bytes.count - 1)])
        }
        guard bytes.contains(where: isASCIINameByte), let end = bytes.lastIndex(where: isNameByte) else { return nil }
        let start = bytes[..<end].lastIndex(where: { !isNameByte($0) }).map { $0 + 1 } ?? 0
        return Array(bytes[start...end])
    }

    /// The positions in both increasing lists.
    private static func intersection(_ a: [Int], _ b: [Int]) -> [Int] {
        var both: [Int] = []
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i] < b[j] {
                i += 1
            } else if a[i] > b[j] {
                j += 1
            } else {
                both.append(a[i])
                i += 1
                j += 1
            }
        }
        return both
    }

    private mutating func list(_ word: UnsafeBufferPointer<UInt8>, in file: Int32) {
        let (index, inserted) = words.insert(word, file)
        if !inserted {
            guard words.value(at: index) != file else { return }
            words.setValue(file, at: index)
        }
        listedWords.append(Int32(truncatingIfNeeded: index))
        listedFiles.append(file)
    }

    /// A token's bytes without the backticks of `` `default` ``.
    private static func name(_ token: Token, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var range = token.range
        if range.count > 2 && bytes[range.lowerBound] == UInt8(ascii: "`") && bytes[range.upperBound - 1] == UInt8(ascii: "`") {
            range = (range.lowerBound + 1)..<(range.upperBound - 1)
        }
        return UnsafeBufferPointer(rebasing: bytes[range])
    }

    /// `{`, `:`, `=`, `;`, `where` or a new line.
    @inline(__always)
    private static func endsTypeName(_ token: Token) -> Bool {
        switch token.kind {
        case .leftBrace, .colon, .equal, .semicolon, .endOfFile: return true
        default: return token.word == .where || token.flags.contains(.atStartOfLine)
        }
    }

    @inline(__always)
    private static func precedesName(_ word: Word) -> Bool {
        switch word {
        case .let, .var, .func, .case: return true
        default: return startsTypeName(word)
        }
    }

    @inline(__always)
    private static func startsTypeName(_ word: Word) -> Bool {
        switch word {
        case .struct, .class, .enum, .protocol, .actor, .extension, .typealias, .associatedtype: return true
        default: return false
        }
    }
}
