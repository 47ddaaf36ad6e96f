// The module index, for build systems (the build plugin). A build step that lowers one file reads
// the module sources and wrapper sources too; declaring all of them as its inputs would lower every
// file again whenever one of them is touched, and reading them all costs each step more than
// lowering its file. Instead one step, `--write-module-index FILE`, reads them once and writes FILE,
// rewriting it only when its contents change: a digest of what lowering reads from each file, and
// what the lowering steps would otherwise read every file for. The lowering steps name FILE as their
// input, not the sources, and read it with `--module-index FILE` (README, "As a build step").
import DewrapLowering
import DewrapSyntax

/// What the index holds about one module source.
struct ModuleIndexEntry: Equatable {
    /// The file spells `@propertyWrapper`: a run reads it for the wrappers it declares.
    var declaresWrapper = false
    /// The member properties it declares with a wrapper (it keeps them wrapped).
    var wrapped: [String] = []
    /// The `$name`s it uses that are not its own properties' or locals' (a file lowering does not
    /// read: every `$name` it spells).
    var uses: [String] = []
    /// Its types whose `T(…)` is not a `T` for certain (`uncertainConstructionNames`).
    var constructions = UncertainConstructions()
}

/// The index's text: a header, then a line per file. For a module source, `module`, the digest of
/// what lowering reads from it (`readDigest`) in hexadecimal, `wrapper` or `-` (`declaresWrapper`),
/// its wrapped names and its uses (comma-separated, `-` for none), its uncertain constructions
/// (`UncertainConstructions.encoded`), and its path; for a wrapper
/// source, `wrapper`, the digest and the path. Adding, removing or renaming a file changes it too.
/// Every line is a Swift comment: SwiftPM compiles a build command's `.swift` outputs and makes any
/// other output a resource of the target (a resource bundle and its accessor), so the build plugin
/// names its index `….swift`, an empty file to swiftc.
///
/// The module sources are lowered in memory (with the wrappers and declarations of all of them)
/// for their wrapped names and uses; everything the index says follows from their tokens outside
/// function bodies and their `$name`s, which the digests cover, so an index written again with the
/// same digests is the same.
func moduleIndex(moduleSources: [String], wrapperSources: [String]) throws(FileError) -> [UInt8] {
    var text = "// dewrap module index, format 3, dewrap \(version): what lowering reads from these files\n"
    var shapes = try readWrapperSources(wrapperSources)
    var options = LoweringOptions()
    var declaringInputs: Set<String>? // no inputs here
    options.module = readModule([], moduleSources: moduleSources, wrapperShapes: &shapes, declaringInputs: &declaringInputs)
    options.wrapperShapes = shapes
    for file in moduleSources {
        let source = try readInput(file)
        var entry = ModuleIndexEntry(declaresWrapper: bytes(source, contain: "@propertyWrapper"))
        entry.constructions = uncertainConstructionNames(in: source)
        if notSwiftSource(source) == nil {
            let projections = lower(source, fileName: file, options: options).projections
            entry.wrapped = Set(projections.lowered + projections.left).sorted()
            entry.uses = (projections.unread ? dollarNames(in: source) : Set(projections.unresolved)).sorted()
        }
        func list(_ names: [String]) -> String { names.isEmpty ? "-" : names.joined(separator: ",") }
        text +=
            "// module \(hex(readDigest(source))) \(entry.declaresWrapper ? "wrapper" : "-") \(list(entry.wrapped)) "
            + "\(list(entry.uses)) \(entry.constructions.encoded) \(escaped(file))\n"
    }
    for file in wrapperSources {
        text += "// wrapper \(hex(readDigest(try readInput(file)))) \(escaped(file))\n"
    }
    return Array(text.utf8)
}

/// Writes the index to `path` unless it already holds the same bytes, so that its modification
/// time changes only with its contents.
func writeModuleIndex(_ path: String, moduleSources: [String], wrapperSources: [String]) throws(FileError) {
    let index = try moduleIndex(moduleSources: moduleSources, wrapperSources: wrapperSources)
    if let existing = try? readInput(path), existing == index { return }
    try writeAtomically(index, to: path)
}

/// Reads an index written by `--write-module-index` for `moduleSources` (`--module-index FILE`). It
/// must list exactly those files: it is trusted to describe them as they are, which a build system
/// ensures by writing it again whenever one of them changes (as the build plugin's commands do).
func readModuleIndex(_ path: String, moduleSources: [String]) throws(FileError) -> [String: ModuleIndexEntry] {
    // On the bytes: Strings split by Characters cost a build step's lowering more than its file.
    let bytes = try readInput(path)
    let stale = FileError(message: "'\(path)' is not a module index of these module sources (format 3); write it again with '--write-module-index'")
    let header = Array("// dewrap module index, format 3,".utf8)
    guard bytes.starts(with: header) else { throw stale }
    let module = Array("// module ".utf8)
    let wrapper = Array("wrapper".utf8)
    var entries: [String: ModuleIndexEntry] = [:]
    entries.reserveCapacity(moduleSources.count)
    var lineStart = 0
    while lineStart < bytes.count {
        var lineEnd = lineStart
        while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        defer { lineStart = lineEnd + 1 }
        guard bytes[lineStart..<lineEnd].starts(with: module) else { continue }
        // Six fields after `// module `, separated by one space each; the path is the rest. Their
        // bounds only: an array of slices a line, and Strings split from them, cost a build step
        // more than lowering its file.
        var ends = (0, 0, 0, 0, 0)
        var found = 0
        var fieldStart = lineStart + module.count
        var index = fieldStart
        while found < 5 && index < lineEnd {
            if bytes[index] == UInt8(ascii: " ") {
                switch found {
                case 0: ends.0 = index
                case 1: ends.1 = index
                case 2: ends.2 = index
                case 3: ends.3 = index
                default: ends.4 = index
                }
                found += 1
                fieldStart = index + 1
            }
            index += 1
        }
        guard found == 5, fieldStart < lineEnd, let constructions = UncertainConstructions(encoded: bytes[(ends.3 + 1)..<ends.4])
        else { throw stale }
        entries[unescaped(bytes[fieldStart..<lineEnd])] = ModuleIndexEntry(
            declaresWrapper: bytes[(ends.0 + 1)..<ends.1].elementsEqual(wrapper), wrapped: names(bytes, (ends.1 + 1)..<ends.2),
            uses: names(bytes, (ends.2 + 1)..<ends.3), constructions: constructions)
    }
    guard entries.count == moduleSources.count, moduleSources.allSatisfy({ entries[$0] != nil }) else { throw stale }
    return entries
}

/// The comma-separated names of an index field; `-` for none.
private func names(_ bytes: [UInt8], _ field: Range<Int>) -> [String] {
    guard field.count != 1 || bytes[field.lowerBound] != UInt8(ascii: "-") else { return [] }
    var names: [String] = []
    // Room for all of them at once: an array grown name by name is allocated again at each doubling.
    var commas = 0
    for index in field where bytes[index] == UInt8(ascii: ",") { commas += 1 }
    names.reserveCapacity(commas + 1)
    var start = field.lowerBound
    for index in field where bytes[index] == UInt8(ascii: ",") {
        if index > start { names.append(String(decoding: bytes[start..<index], as: UTF8.self)) }
        start = index + 1
    }
    if field.upperBound > start { names.append(String(decoding: bytes[start..<field.upperBound], as: UTF8.self)) }
    return names
}

private func hex(_ digest: UInt64) -> String {
    let digits = String(digest, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

/// A line break in a path would end the comment: written as `\n` (`\r`), a backslash as `\\`.
private func escaped(_ path: String) -> String {
    var result = ""
    for character in path.unicodeScalars {
        switch character {
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        default: result.unicodeScalars.append(character)
        }
    }
    return result
}

private func unescaped(_ bytes: ArraySlice<UInt8>) -> String {
    guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
    var result: [UInt8] = []
    var escaping = false
    for byte in bytes {
        if escaping {
            result.append(byte == UInt8(ascii: "n") ? 10 : byte == UInt8(ascii: "r") ? 13 : byte)
            escaping = false
        } else if byte == UInt8(ascii: "\\") {
            escaping = true
        } else {
            result.append(byte)
        }
    }
    return String(decoding: result, as: UTF8.self)
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
        hash = (hash ^ 0x20) &* 0x100_0000_01b3 // a separator: `a b` is not `ab`
    }
    var index = 0
    while index < tokens.count {
        let token = tokens[index]
        add(token)
        index += 1
        guard token.kind == .keyword, isBodyOwner(token, previous: index >= 2 ? tokens[index - 2] : nil, in: source),
            let open = bodyStart(after: index, tokens, source)
        else { continue }
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
                && declarationWords.contains(String(decoding: source[token.start..<token.end], as: UTF8.self))
            {
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
