// `--module-index FILE`: for build systems (the build plugin). A build step that lowers one file
// reads the module sources and wrapper sources too; declaring all of them as its inputs would
// lower every file again whenever one of them is touched. Instead one step writes FILE, a digest
// of what lowering reads from them, and rewrites it only when that digest changes; the lowering
// steps name FILE as their input, not the sources (README, "As a build step").
import DewrapSyntax

/// The index's text: a header, then a line per file, `module` or `wrapper`, the digest of what
/// lowering reads from it (`readDigest`) in hexadecimal, and its path (adding, removing or renaming
/// a file changes the index too). Every line is a Swift comment: SwiftPM compiles a build
/// command's `.swift` outputs and makes any other output a resource of the target (a resource
/// bundle and its accessor), so the build plugin names its index `….swift`, an empty file to swiftc.
func moduleIndex(moduleSources: [String], wrapperSources: [String]) throws(FileError) -> [UInt8] {
    var text = "// dewrap module index, format 1, dewrap \(version): what lowering reads from these files\n"
    for (role, files) in [("module", moduleSources), ("wrapper", wrapperSources)] {
        for file in files {
            let digest = readDigest(try readInput(file))
            let hex = String(digest, radix: 16)
            // A line break in a path would end the comment: written as `\n`, as is a backslash as `\\`.
            var path = ""
            for character in file.unicodeScalars {
                switch character {
                case "\\": path += "\\\\"
                case "\n": path += "\\n"
                case "\r": path += "\\r"
                default: path.unicodeScalars.append(character)
                }
            }
            text += "// \(role) \(String(repeating: "0", count: 16 - hex.count) + hex) \(path)\n"
        }
    }
    return Array(text.utf8)
}

/// Writes the index to `path` unless it already holds the same bytes, so that its modification
/// time changes only with its contents.
func writeModuleIndex(_ path: String, moduleSources: [String], wrapperSources: [String]) throws(FileError) {
    let index = try moduleIndex(moduleSources: moduleSources, wrapperSources: wrapperSources)
    if let existing = try? readInput(path), existing == index { return }
    try writeAtomically(index, to: path, durable: false)
}

/// A 64-bit FNV-1a hash of what lowering may read in a file: every token (not comments or white
/// space) outside function, initializer and deinitializer bodies, and the `$name`s inside them.
/// Declarations, initial values, accessors and wrappers are outside such bodies; what a body
/// holds is that file's own business, except its `$x` uses (notes name them). Editing a comment,
/// the layout, or a function's body other than its `$name`s leaves the digest as it was.
/// (Notes about a module source's `$x` keep the line they had at the last lowering until
/// something else lowers the file again.)
func readDigest(_ source: [UInt8]) -> UInt64 {
    let tokens = Lexer.lex(source).tokens
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ token: Token) {
        for byte in source[token.start..<token.end] {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        hash = (hash ^ 0x20) &* 0x100_0000_01b3  // a separator: `a b` is not `ab`
    }
    var index = 0
    while index < tokens.count {
        let token = tokens[index]
        add(token)
        index += 1
        guard token.kind == .keyword, isBodyOwner(token, previous: index >= 2 ? tokens[index - 2] : nil, in: source),
              let open = bodyStart(after: index, tokens, source) else { continue }
        // The signature as it is; of the body, only its `$name`s.
        while index <= open {
            add(tokens[index])
            index += 1
        }
        var depth = 1
        while index < tokens.count && depth > 0 {
            let inner = tokens[index]
            switch inner.kind {
            case .leftBrace: depth += 1
            case .rightBrace: depth -= 1
            case .dollarIdentifier: add(inner)
            default: break
            }
            index += 1
        }
    }
    return hash
}

/// `func`, `init` or `deinit` that declares one (not `.init(` or `self.init`).
private func isBodyOwner(_ token: Token, previous: Token?, in source: [UInt8]) -> Bool {
    if previous?.kind == .period { return false }
    let text = source[token.start..<token.end]
    return text.elementsEqual("func".utf8) || text.elementsEqual("init".utf8) || text.elementsEqual("deinit".utf8)
}

/// The index of the `{` that opens the body of the declaration whose signature starts at `from`:
/// the first `{` outside parentheses and brackets. None when the declaration ends first (a
/// protocol requirement): at a `}` or `;` outside them, or at a line that starts another declaration.
private func bodyStart(after from: Int, _ tokens: [Token], _ source: [UInt8]) -> Int? {
    var depth = 0
    var index = from
    while index < tokens.count {
        let token = tokens[index]
        switch token.kind {
        case .leftParen, .leftSquare: depth += 1
        case .rightParen, .rightSquare: depth = max(0, depth - 1)
        case .leftBrace where depth == 0: return index
        case .rightBrace where depth == 0, .semicolon where depth == 0, .endOfFile: return nil
        case .atSign where depth == 0 && token.flags.contains(.atStartOfLine): return nil
        case .keyword, .identifier:
            if depth == 0 && token.flags.contains(.atStartOfLine)
                && declarationWords.contains(String(decoding: source[token.start..<token.end], as: UTF8.self)) {
                return nil
            }
        default: break
        }
        index += 1
    }
    return nil
}

private let declarationWords: Set<String> = [
    "func", "var", "let", "init", "deinit", "subscript", "case", "struct", "class", "enum", "protocol", "actor",
    "extension", "typealias", "associatedtype", "import", "static", "private", "public", "internal", "fileprivate",
    "open", "package", "mutating", "nonmutating", "override", "final", "convenience", "required", "lazy", "weak",
    "dynamic", "nonisolated", "indirect", "operator", "precedencegroup", "macro",
]
