// The module index, for build systems (the build plugin). A build step that lowers one file reads
// the module sources and wrapper sources too; declaring all of them as its inputs would lower every
// file again whenever one of them is touched, and reading them all costs each step more than
// lowering its file. Instead one step, `--write-module-index FILE`, reads them once and writes FILE,
// rewriting it only when its contents change: a digest of what lowering reads from each file, and
// what the lowering steps would otherwise read every file for. The lowering steps name FILE as their
// input, not the sources, and read it with `--module-index FILE` (README, "As a build step").
import DewrapLowering
import DewrapSyntax
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the index holds about one module source.
struct ModuleIndexEntry {
    /// The file spells `@propertyWrapper`, or `extension Name` for a wrapper another module source
    /// declares: a run reads it for the wrappers it declares and their extensions.
    var readForWrappers: Bool
    /// The member properties it declares with a wrapper (it keeps them wrapped).
    var wrapped: IndexNames
    /// The `$name`s it uses that are not its own properties' or locals' (a file lowering does not
    /// read: every `$name` it spells).
    var uses: IndexNames
    /// Its types whose `T(…)` is not a `T` for certain (`uncertainConstructionNames`).
    var constructions: UncertainConstructions
}

/// A field of comma-separated names in the index's bytes (`-` for none), read in place: a build
/// step asks which of them its own file lowers, and a String made for every name of every module
/// source cost it more than lowering its file.
struct IndexNames {
    let index: [UInt8]
    let field: Range<Int>

    /// Calls `body` with the bytes of each name, in order.
    func forEach(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        _ = contains { name in
            body(name)
            return false
        }
    }

    /// Whether `isMatch` holds for the bytes of one of the names (each asked in order until one does).
    func contains(where isMatch: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        index.withUnsafeBufferPointer { bytes in
            guard field.count != 1 || bytes[field.lowerBound] != UInt8(ascii: "-") else { return false }
            var start = field.lowerBound
            for position in field where bytes[position] == UInt8(ascii: ",") {
                if position > start && isMatch(UnsafeBufferPointer(rebasing: bytes[start..<position])) { return true }
                start = position + 1
            }
            return field.upperBound > start && isMatch(UnsafeBufferPointer(rebasing: bytes[start..<field.upperBound]))
        }
    }
}

/// The index's text: a header, then a line per file. For a module source, `module`, the digest of
/// what lowering reads from it (`readDigest`) in hexadecimal, `wrapper` (it spells `@propertyWrapper`),
/// `extension` (it spells `extension Name` for a wrapper of another module source) or `-`,
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
    var text = "// dewrap module index, format 4, dewrap \(version): what lowering reads from these files\n"
    // The module's own wrappers apart (a run reads their extensions in any module source), then
    // over the wrapper sources', as `readModule` merges them.
    var moduleWrappers = WrapperShapes()
    var options = LoweringOptions()
    var declaringInputs: Set<String>? // no inputs here
    options.module = readModule([], moduleSources: moduleSources, wrapperShapes: &moduleWrappers, declaringInputs: &declaringInputs)
    var shapes = try readWrapperSources(wrapperSources)
    shapes.merge(moduleWrappers)
    options.wrapperShapes = shapes
    for file in moduleSources {
        let source = try readInput(file)
        let wrapperField =
            bytes(source, contain: "@propertyWrapper") ? "wrapper" : moduleWrappers.mayBeExtended(in: source) ? "extension" : "-"
        var wrapped: [String] = []
        var uses: [String] = []
        if notSwiftSource(source) == nil {
            let projections = lower(source, fileName: file, options: options).projections
            wrapped = Set(projections.lowered + projections.left).sorted()
            uses = (projections.unread ? dollarNames(in: source) : Set(projections.unresolved)).sorted()
        }
        func list(_ names: [String]) -> String { names.isEmpty ? "-" : names.joined(separator: ",") }
        text +=
            "// module \(hex(readDigest(source))) \(wrapperField) \(list(wrapped)) "
            + "\(list(uses)) \(uncertainConstructionNames(in: source).encoded) \(escaped(file))\n"
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

/// Reads an index written by `--write-module-index` for `moduleSources` (`--module-index FILE`): an
/// entry for each, in their order. It must list exactly those files: it is trusted to describe them
/// as they are, which a build system ensures by writing it again whenever one of them changes (as
/// the build plugin's commands do). A file it lists may also be one of the run's `inputs` (one file
/// of a folder given as `--module-sources` lowered): it is then not a module source of the run, and
/// its entry is passed over.
func readModuleIndex(_ path: String, moduleSources: [String], inputs: [String] = []) throws(FileError) -> [ModuleIndexEntry] {
    // On the bytes: Strings split by Characters cost a build step's lowering more than its file.
    let bytes = try readInput(path)
    let stale = FileError(message: "'\(path)' is not a module index of these module sources (format 4); write it again with '--write-module-index'")
    let header = Array("// dewrap module index, format 4,".utf8)
    guard bytes.starts(with: header) else { throw stale }
    let module = Array("// module ".utf8)
    let wrapper = Array("wrapper".utf8)
    let extensionWord = Array("extension".utf8)
    var entries = [ModuleIndexEntry?](repeating: nil, count: moduleSources.count)
    // The index lists the files in the order they were named when it was written, which is
    // nearly always the order they are named now: each line's path is compared with the next
    // module source's, and only looked up by path when they differ.
    var positions: [String: Int]?
    var inputIdentities: Set<FileIdentity>?
    var next = 0
    try bytes.withUnsafeBufferPointer { (raw) throws(FileError) in
        guard let base = raw.baseAddress else { return }
        /// The offset of the first `byte` in `from..<to`, or `to` (`memchr`: a line is read in a
        /// few calls rather than a byte at a time).
        func find(_ byte: UInt8, _ from: Int, _ to: Int) -> Int {
            guard from < to, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        var lineStart = 0
        while lineStart < raw.count {
            let lineEnd = find(UInt8(ascii: "\n"), lineStart, raw.count)
            defer { lineStart = lineEnd + 1 }
            guard lineEnd - lineStart >= module.count, memcmp(base + lineStart, module, module.count) == 0 else { continue }
            // Six fields after `// module `, separated by one space each; the path is the rest. Their
            // bounds only: an array of slices a line, and Strings split from them, cost a build step
            // more than lowering its file.
            var ends = (0, 0, 0, 0, 0)
            var fieldStart = lineStart + module.count
            for field in 0..<5 {
                let end = find(UInt8(ascii: " "), fieldStart, lineEnd)
                guard end < lineEnd else { throw stale }
                switch field {
                case 0: ends.0 = end
                case 1: ends.1 = end
                case 2: ends.2 = end
                case 3: ends.3 = end
                default: ends.4 = end
                }
                fieldStart = end + 1
            }
            guard fieldStart < lineEnd, let constructions = UncertainConstructions(encoded: bytes[(ends.3 + 1)..<ends.4])
            else { throw stale }
            let pathField = UnsafeBufferPointer(rebasing: raw[fieldStart..<lineEnd])
            var position: Int?
            if next < moduleSources.count && find(UInt8(ascii: "\\"), fieldStart, lineEnd) == lineEnd
                && spells(moduleSources[next], pathField)
            {
                position = next
            } else {
                if positions == nil {
                    positions = Dictionary(moduleSources.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
                }
                let listed = unescaped(bytes[fieldStart..<lineEnd])
                position = positions?[listed]
                // Looked up by identity: the input may be spelled otherwise than the index has it. The
                // inputs' identities are found once (`-i` over the indexed folder lists every file).
                if position == nil, let identity = FileIdentity(path: listed) {
                    if inputIdentities == nil { inputIdentities = Set(inputs.compactMap { $0 == "-" ? nil : FileIdentity(path: $0) }) }
                    if inputIdentities?.contains(identity) == true { continue }
                }
            }
            guard let position, entries[position] == nil else { throw stale }
            entries[position] = ModuleIndexEntry(
                readForWrappers: ends.1 - ends.0 - 1 == wrapper.count && memcmp(base + ends.0 + 1, wrapper, wrapper.count) == 0
                    || ends.1 - ends.0 - 1 == extensionWord.count && memcmp(base + ends.0 + 1, extensionWord, extensionWord.count) == 0,
                wrapped: IndexNames(index: bytes, field: (ends.1 + 1)..<ends.2),
                uses: IndexNames(index: bytes, field: (ends.2 + 1)..<ends.3), constructions: constructions)
            next = position + 1
        }
    }
    let read = entries.compactMap { $0 }
    guard read.count == moduleSources.count else { throw stale }
    return read
}

/// Whether `path` is spelled by `bytes`.
private func spells(_ path: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var path = path
    return path.withUTF8 { path in
        path.count == bytes.count && (path.isEmpty || memcmp(path.baseAddress!, bytes.baseAddress!, path.count) == 0)
    }
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
