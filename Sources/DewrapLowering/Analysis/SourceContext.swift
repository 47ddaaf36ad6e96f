import DewrapSyntax
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The parsed input and what new code needs to fit in: its line ending and
/// indentation unit, and the `$x` rewrites to carry into copied text.
struct SourceContext {
    let bytes: [UInt8]
    let tree: SourceTree
    /// `\r\n` when the file's first line break is one, else `\n`.
    let lineEnding: String
    /// A tab, or the smallest indentation step of the file's lines (default four spaces). Made on
    /// first use, and shared by the copies of this context: a pass over every line, which a file
    /// read for the module's declarations, or lowered to no change, does not need.
    var indentUnit: String { madeIndentUnit.value { detectIndentUnit(bytes) } }
    private let madeIndentUnit = MadeOnFirstUse<String>()
    /// Rewrites of `$x` tokens, sorted; applied inside any text copied from the source.
    var tokenEdits: [Edit] = []
    /// With `#sourceLocation` directives naming this file, generated code is
    /// written one declaration per line, each line mapped to its origin.
    let lineDirectives: String?
    /// Made on first use, and shared by the copies of this context: most files need no
    /// line numbers (directive mode, observers and a few rewrites do), and making the
    /// table is a pass over the file and an array of every line's start.
    var lines: LineTable { madeLines.value { LineTable(bytes) } }
    private let madeLines = MadeOnFirstUse<LineTable>()
    /// The file's declarations that initial values can name (Decision 5, revised), made on first use.
    var declarationIndex: DeclarationIndex { declarations.index(of: self) }
    private let declarations = LazyDeclarationIndex()
    /// The module's files (`LoweringOptions.module`), when dewrap has them: their declarations
    /// are asked of it.
    let moduleSources: ModuleSources?
    /// The types of this file whose `T(…)` is not a `T` for certain, made on first use (the module's:
    /// `moduleSources.uncertainConstructions`).
    var uncertainConstructions: UncertainConstructions { declarations.uncertainConstructions(of: self) }
    /// The file's typealiases (M-4 `@escaping` through one), made on first use.
    var typealiasIndex: TypealiasIndex { declarations.aliases(of: self) }
    /// The wrappers lowering knows: the catalog, `--wrapper-sources`, and those declared in this file.
    var shapes: WrapperShapes {
        didSet { wrappersByName = WrappersByName() }
    }
    /// The language mode the output is compiled in (SE-0434's `@Sendable` in memberwise parameters).
    var swiftVersion: SwiftLanguageMode = .swift6
    /// The wrappers that names in the file name (nil: none), as found so far in `shapes`.
    private var wrappersByName = WrappersByName()
    /// Storage and projection types derived so far, shared by the copies of this context.
    let derivedTypes = DerivedTypes()

    init(
        bytes: [UInt8], tree: SourceTree, lineDirectives: String? = nil, shapes: WrapperShapes = WrapperShapes(),
        module: ModuleSources? = nil
    ) {
        self.bytes = bytes
        self.moduleSources = module
        self.tree = tree
        self.lineDirectives = lineDirectives
        self.shapes = shapes
        var ending = "\n"
        if let newline = bytes.firstIndex(where: { $0 == 10 || $0 == 13 }), bytes[newline] == 13 {
            ending = newline + 1 < bytes.count && bytes[newline + 1] == 10 ? "\r\n" : "\r"
        }
        lineEnding = ending
    }

    /// The wrapper that `attribute` names, if lowering knows it.
    func wrapper(of attribute: Attribute) -> WrapperShape? {
        // An `@` with no name after it (`f(@` at the end of a file) names none; the token after its
        // name, looked at below, would be past the last.
        guard !attribute.name.isEmpty else { return nil }
        // A one-token name (nearly all): looked up by its bytes among the few names the file uses.
        guard
            attribute.name.upper == attribute.name.lower + 1
                || token(attribute.name.lower + 1, hasPrefix: "<")
                    && attributeGenericArguments(attribute, context: self)?.upper == attribute.name.upper
        else {
            return shapes.shape(named: attributeTypeName(attribute, context: self))
        }
        let range = tree.tokens[attribute.name.lower].range
        let known = bytes.withUnsafeBufferPointer { wrappersByName.known(UnsafeBufferPointer(rebasing: $0[range])) }
        if let known { return known }
        let wrapper = shapes.shape(named: text(attribute.name.lower))
        return bytes.withUnsafeBufferPointer { wrappersByName.add(UnsafeBufferPointer(rebasing: $0[range]), wrapper) }
    }

    /// The wrapper named by the bytes `name` (`State`, `SwiftUI.State`), if lowering knows it.
    /// Asked with bytes: a name asked about before (most of the Sendable oracle's
    /// questions) is found without making a String.
    func wrapper(named name: UnsafeBufferPointer<UInt8>) -> WrapperShape? {
        if let known = wrappersByName.known(name) { return known }
        return wrappersByName.add(name, shapes.shape(named: String(decoding: name, as: UTF8.self)))
    }

    /// The access level written on a declaration (`public`, `private`, …), not a setter's `private(set)`.
    func declaredAccess(_ prefix: DeclarationPrefix) -> String? {
        declaredAccessWord(prefix)?.spelling
    }

    /// `declaredAccess` as a word, to compare without a String.
    func declaredAccessWord(_ prefix: DeclarationPrefix) -> Word? {
        for modifier in prefix.modifiers where modifier.detail == nil {
            switch word(modifier.keyword) {
            case .public, .private, .fileprivate, .internal, .open, .package: return word(modifier.keyword)
            default: continue
            }
        }
        return nil
    }

    /// The keyword or contextual keyword that token `token` is (`.none` for
    /// any other token): keyword checks compare words, not Strings.
    func word(_ token: Int) -> Word {
        tree.tokens[token].word
    }

    /// Whether `prefix` has the modifier `word` (`static`, `lazy`, `private`, …).
    func hasModifier(_ word: Word, in prefix: DeclarationPrefix) -> Bool {
        prefix.modifiers.contains { tree.tokens[$0.keyword].word == word }
    }

    /// A type's member, not an instance's: declared `static` or `class`.
    func isStatic(_ prefix: DeclarationPrefix) -> Bool {
        hasModifier(.static, in: prefix) || hasModifier(.class, in: prefix)
    }

    /// Whether a declaration states its own isolation: a global actor
    /// attribute (`@MainActor`, `@SomeActor`) or `nonisolated` (I-1, I-2).
    func statesOwnIsolation(_ prefix: DeclarationPrefix) -> Bool {
        prefix.attributes.contains { token($0.name.upper - 1, hasSuffix: "Actor") } || hasModifier(.nonisolated, in: prefix)
    }

    /// Whether token `token` is spelled `spelling`, without making a String.
    func token(_ token: Int, isSpelled spelling: [UInt8]) -> Bool {
        self.token(token, isSpelled: spelling[...])
    }

    func token(_ token: Int, isSpelled spelling: ArraySlice<UInt8>) -> Bool {
        spelling.withUnsafeBufferPointer { isSpelled(tree.tokens[token].range, $0) }
    }

    /// Whether token `token` is spelled `spelling`, without making a String.
    func token(_ token: Int, isSpelled spelling: StaticString) -> Bool {
        isSpelled(tree.tokens[token].range, spelling)
    }

    /// Whether the tokens `span` (with any trivia between them) are spelled `spelling`.
    func span(_ span: TokenSpan, isSpelled spelling: StaticString) -> Bool {
        guard !span.isEmpty else { return spelling.utf8CodeUnitCount == 0 }
        return isSpelled(tree.tokens[span.lower].start..<tree.tokens[span.upper - 1].end, spelling)
    }

    /// Whether the bytes of tokens `span` (with the trivia between them) contain `text`, without
    /// making a String (String.contains(String) also sets up a substring searcher on its first use).
    func span(_ span: TokenSpan, contains text: StaticString) -> Bool {
        guard !span.isEmpty else { return text.utf8CodeUnitCount == 0 }
        let range = tree.tokens[span.lower].start..<tree.tokens[span.upper - 1].end
        return text.withUTF8Buffer { text in
            guard let head = text.first else { return true }
            return bytes.withUnsafeBufferPointer { all in
                var start = range.lowerBound
                while start + text.count <= range.upperBound {
                    if all[start] == head && sameBytes(UnsafeBufferPointer(rebasing: all[start..<start + text.count]), text) { return true }
                    start += 1
                }
                return false
            }
        }
    }

    private func isSpelled(_ range: Range<Int>, _ spelling: StaticString) -> Bool {
        spelling.withUTF8Buffer { isSpelled(range, $0) }
    }

    private func isSpelled(_ range: Range<Int>, _ spelling: UnsafeBufferPointer<UInt8>) -> Bool {
        range.count == spelling.count && bytes.withUnsafeBufferPointer { sameBytes(UnsafeBufferPointer(rebasing: $0[range]), spelling) }
    }

    /// Whether token `token` starts with `prefix` (`<` in `<`, `<<`).
    func token(_ token: Int, hasPrefix prefix: StaticString) -> Bool {
        let range = tree.tokens[token].range
        guard range.count >= prefix.utf8CodeUnitCount else { return false }
        return isSpelled(range.lowerBound..<range.lowerBound + prefix.utf8CodeUnitCount, prefix)
    }

    /// Whether token `token` ends with `suffix` (`Actor` in `MainActor`).
    func token(_ token: Int, hasSuffix suffix: StaticString) -> Bool {
        let range = tree.tokens[token].range
        guard range.count >= suffix.utf8CodeUnitCount else { return false }
        return isSpelled(range.upperBound - suffix.utf8CodeUnitCount..<range.upperBound, suffix)
    }

    func text(_ token: Int) -> String {
        string(fromBytes: tree.tokens[token].range)
    }

    /// The name a declaration's or a member reference's identifier token gives, without the
    /// backticks of an escaped word: `` static let `default` `` is named by `PickedColor.default`.
    /// A raw identifier (`` `a b` ``, SE-0451) keeps them: it is named only so.
    func declaredName(_ token: Int) -> String {
        let range = tree.tokens[token].range
        guard range.count > 2, bytes[range.lowerBound] == UInt8(ascii: "`"), bytes[range.upperBound - 1] == UInt8(ascii: "`"),
            bytes[range.lowerBound + 1..<range.upperBound - 1].allSatisfy(isNameByte)
        else { return string(fromBytes: range) }
        return string(fromBytes: range.lowerBound + 1..<range.upperBound - 1)
    }

    /// The source bytes `range` as a String. A short one (a name, a type; most of them) is
    /// copied into a small String's storage, which costs less than decoding an array
    /// slice; a longer one decodes faster (both repair invalid UTF-8 alike).
    private func string(fromBytes range: Range<Int>) -> String {
        guard range.count <= 15 else { return String(decoding: bytes[range], as: UTF8.self) }
        return bytes.withUnsafeBufferPointer { bytes in
            String(unsafeUninitializedCapacity: range.count) { target in
                if let source = bytes.baseAddress, !range.isEmpty { target.baseAddress!.update(from: source + range.lowerBound, count: range.count) }
                return range.count
            }
        }
    }

    /// The source bytes of tokens `span` (with the trivia between them), `$x` rewrites applied.
    func text(_ span: TokenSpan) -> String {
        guard !span.isEmpty else { return "" }
        return text(bytes: tree.tokens[span.lower].start..<tree.tokens[span.upper - 1].end)
    }

    func text(bytes range: Range<Int>) -> String {
        // Most copied text holds no rewrite: one String straight from the bytes.
        guard let first = firstTokenEdit(in: range) else { return string(fromBytes: range) }
        var result = CodeText(capacity: range.count + 16)
        appendText(bytes: range, firstEdit: first, to: &result)
        return String(decoding: result.slice, as: UTF8.self)
    }

    /// Appends the source bytes `range` to `output`, `$x` rewrites applied.
    func appendText<Output: CodeOutput>(bytes range: Range<Int>, to output: inout Output) {
        guard let first = firstTokenEdit(in: range) else { return output.write(bytes, range) }
        appendText(bytes: range, firstEdit: first, to: &output)
    }

    private func appendText<Output: CodeOutput>(bytes range: Range<Int>, firstEdit: Int, to output: inout Output) {
        var position = range.lowerBound
        for edit in tokenEdits[firstEdit...] {
            guard edit.end <= range.upperBound else { break }
            output.write(bytes, position..<edit.start)
            edit.text.withUnsafeBufferPointer { output.write($0) }
            position = edit.end
        }
        output.write(bytes, position..<range.upperBound)
    }

    /// The end of a `//` comment that follows `offset` on its line (after spaces or tabs only), or `offset`.
    func endOfTrailingLineComment(after offset: Int) -> Int {
        var index = offset
        while index < bytes.count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) { index += 1 }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") else { return offset }
        while index < bytes.count && bytes[index] != UInt8(ascii: "\n") && bytes[index] != UInt8(ascii: "\r") { index += 1 }
        return index
    }

    /// Whether byte `offset` lies strictly inside a rewrite (a call site's can span several
    /// tokens): copied text is not cut there, or the rewrite would be lost.
    func isInsideTokenEdit(_ offset: Int) -> Bool {
        tokenEdits.contains { $0.start < offset && offset < $0.end }
    }

    /// The index of the first `$x` rewrite inside `range`, if there is one.
    private func firstTokenEdit(in range: Range<Int>) -> Int? {
        // Binary search: there may be many. Through a buffer pointer: asked for every piece of source copied.
        tokenEdits.withUnsafeBufferPointer { edits in
            var low = 0
            var high = edits.count
            while low < high {
                let middle = (low + high) / 2
                if edits[middle].start < range.lowerBound { low = middle + 1 } else { high = middle }
            }
            return low < edits.count && edits[low].end <= range.upperBound ? low : nil
        }
    }

    /// The 1-based line of `token`.
    func line(of token: Int) -> Int {
        lines.location(of: tree.tokens[token].start).line
    }

    /// What separates two generated lines: a line break, and in directive
    /// mode a `#sourceLocation` saying the next line comes from `line`.
    func lineBreak(mappedTo line: Int) -> String {
        guard let lineDirectives else { return lineEnding }
        return lineEnding + sourceLocation(lineDirectives, line: line) + lineEnding
    }

    // MARK: - The user's expressions at their own column (directive mode)

    /// Directive mode: the line of the user's expression `span` when generated code copies it so
    /// that the compiler reports a problem in it at its own line and column, not the generated
    /// code's: the generated statement then starts on a line mapped to the line before
    /// (`statementStart(at:mappedTo:)` or `lineBreak(mappedTo:)` with this line minus one), and
    /// `writeAlignment(of:to:)` puts the expression on a line of its own, after blanks up to its
    /// column. `#sourceLocation` may stand only between declarations and statements, and the
    /// generated text before the expression (`private var _x: W<T> = W(wrappedValue: `) is always
    /// longer than the original's (`@W private var x: T = `), so the expression cannot share
    /// that line. Nil outside directive mode, and for an expression on line 1 (no line before).
    func alignedLine(of span: TokenSpan?) -> Int? {
        guard lineDirectives != nil, let span, !span.isEmpty else { return nil }
        let line = lines.location(of: tree.tokens[span.lower].start).line
        return line > 1 ? line : nil
    }

    /// A line break and blanks up to the column of `span`'s first token (counted in UTF-8
    /// bytes, as swiftc counts), where `alignedLine(of:)` said the expression goes.
    func writeAlignment<Output: CodeOutput>(of span: TokenSpan, to text: inout Output) {
        text.write(string: lineEnding)
        text.write(string: String(repeating: " ", count: lines.location(of: tree.tokens[span.lower].start).column - 1))
    }

    /// Directive mode: what replaces the start of a statement at `token` whose first line is to
    /// be mapped to `line`: `#sourceLocation` after the blanks that precede the token on its line,
    /// or, when code precedes it there, on a line of its own; then the line's indentation.
    func statementStart(at token: Int, mappedTo line: Int) -> String {
        let name = lineDirectives ?? ""
        let indentation = indentationRange(of: token)
        let onlyBlanksBefore =
            indentation.upperBound == tree.tokens[token].start
            && (indentation.lowerBound == 0 || bytes[indentation.lowerBound - 1] == 10 || bytes[indentation.lowerBound - 1] == 13)
        let directive = sourceLocation(name, line: line) + lineEnding + string(fromBytes: indentation)
        return onlyBlanksBefore ? directive : lineEnding + directive
    }

    /// The line of `token` for `lineBreak(mappedTo:)`: found only in directive
    /// mode, where it is written (0 otherwise; a line lookup is a binary search).
    func mappedLine(of token: Int) -> Int {
        lineDirectives == nil ? 0 : line(of: token)
    }

    /// The slot of the file's table of derived types holding `wrapper` with a value type spelled
    /// as tokens `span` are; nil when not there (or when a rewrite inside `span` makes its text
    /// differ from its bytes). Looked up by the bytes: no String made.
    func derivedTypesHandle(of wrapper: WrapperShape, spelledAs span: TokenSpan) -> DerivedTypes.Handle? {
        guard !span.isEmpty else { return nil }
        let range = tree.tokens[span.lower].start..<tree.tokens[span.upper - 1].end
        guard firstTokenEdit(in: range) == nil else { return nil }
        return bytes.withUnsafeBufferPointer { derivedTypes.handle(of: wrapper, spelled: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The whitespace at the start of the line holding `token`.
    func indentation(of token: Int) -> String {
        string(fromBytes: indentationRange(of: token))
    }

    /// Where `indentation(of:)` lies in `bytes`.
    func indentationRange(of token: Int) -> Range<Int> {
        let offset = tree.tokens[token].start
        // Nearly always only blanks precede the token on its line: stepping back over them is
        // cheaper than the line table's binary search, which finds the line start otherwise.
        var blank = offset
        while blank > 0 && (bytes[blank - 1] == 32 || bytes[blank - 1] == 9) { blank -= 1 }
        if blank == 0 || bytes[blank - 1] == 10 || bytes[blank - 1] == 13 { return blank..<offset }
        let start = offset - lines.location(of: offset).column + 1
        var end = start
        while end < bytes.count && (bytes[end] == 32 || bytes[end] == 9) { end += 1 }
        return start..<end
    }
}

private func detectIndentUnit(_ bytes: [UInt8]) -> String {
    var smallest = Int.max
    let tab: Bool = bytes.withUnsafeBufferPointer { bytes in
        // Most files have no `\r`: their lines start at 0 and after each `\n`, found with the C
        // library's `memchr`, which reads many bytes an instruction (the scan below looks for
        // two bytes, eight at a time).
        if let base = bytes.baseAddress, memchr(base, 13, bytes.count) == nil {
            var start = 0
            while true {
                let (tab, indent, spaces) = leadingIndentation(bytes, line: start, below: smallest)
                if tab { return true }
                smallest = indent
                // `spaces` is at most the bytes left from `start`: the search stays inside the file.
                let from = start + spaces
                guard let newline = memchr(base + from, 10, bytes.count - from) else { return false }
                start = UnsafeRawPointer(newline) - UnsafeRawPointer(base) + 1
            }
        }
        // Lines start at 0 and after each `\n`, `\r` or `\r\n`, as in `LineTable`.
        var start = 0
        while true {
            let (tab, indent, spaces) = leadingIndentation(bytes, line: start, below: smallest)
            if tab { return true }
            smallest = indent
            // The leading spaces hold no line break: the search starts after them.
            let end = endOfLine(bytes, from: start + spaces)
            guard end < bytes.count else { return false }
            start = end + (bytes[end] == 13 && end + 1 < bytes.count && bytes[end + 1] == 10 ? 2 : 1)
        }
    }
    if tab { return "\t" }
    return smallest >= 2 && smallest <= 8 ? String(repeating: " ", count: smallest) : "    "
}

/// Whether the line at `start` starts with a tab, and the smaller of `smallest` and its
/// indentation in spaces, counted if something follows them. A line's spaces are read
/// only as far as `smallest`: a deeper indentation cannot change it. Also how many of its
/// first bytes are known to be spaces (up to eight).
@inline(__always)
private func leadingIndentation(
    _ bytes: UnsafeBufferPointer<UInt8>, line start: Int, below smallest: Int
) -> (tab: Bool, smallest: Int, spaces: Int) {
    // Eight bytes in one load where the file has them: the leading spaces (up to eight)
    // end at the first byte that is not one, rather than a byte at a time.
    if start + 8 <= bytes.count {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + start).loadUnaligned(as: UInt64.self))
        if word & 0xFF == 9 { return (true, smallest, 0) }
        let spaces = (word ^ 0x2020_2020_2020_2020).trailingZeroBitCount / 8
        if spaces >= smallest { return (false, smallest, spaces) }
        if spaces < 8 {
            let next = UInt8(truncatingIfNeeded: word >> (8 * spaces))
            return (false, spaces > 0 && next != 10 && next != 13 ? spaces : smallest, spaces)
        }
    }
    if start < bytes.count && bytes[start] == 9 { return (true, smallest, 0) }
    let limit = smallest < bytes.count - start ? start + smallest : bytes.count
    var end = start
    while end < limit && bytes[end] == 32 { end += 1 }
    let next = end < bytes.count ? bytes[end] : 10
    return (false, end - start < smallest && end > start && next != 10 && next != 13 ? end - start : smallest, end - start)
}

/// A value of the file made when first asked for, and shared by the copies of its context.
final class MadeOnFirstUse<Value> {
    private var value: Value?

    func value(_ make: () -> Value) -> Value {
        if let value { return value }
        let made = make()
        value = made
        return made
    }
}

final class LazyDeclarationIndex {
    private var made: DeclarationIndex?
    private var madeAliases: TypealiasIndex?

    private var madeUncertain: UncertainConstructions?

    /// The file's own (the module's are asked apart: a union for every file copied the module's).
    func uncertainConstructions(of context: SourceContext) -> UncertainConstructions {
        if let madeUncertain { return madeUncertain }
        let names = uncertainConstructionNames(in: context.bytes)
        madeUncertain = names
        return names
    }

    func aliases(of context: SourceContext) -> TypealiasIndex {
        if let madeAliases { return madeAliases }
        let index = TypealiasIndex(context: context)
        madeAliases = index
        return index
    }

    func index(of context: SourceContext) -> DeclarationIndex {
        if let made { return made }
        let index = DeclarationIndex(context: context)
        made = index
        return index
    }
}

/// `#sourceLocation(file: "name", line: n)` with the name as a string literal.
func sourceLocation(_ file: String, line: Int) -> String {
    // On the UTF-8 bytes: `\` and `"` are ASCII, so no other character holds one of their bytes
    // (a String walked by Characters cost more than the rest of a directive's writing).
    var name = file
    let escaped = name.withUTF8 { bytes -> String in
        guard bytes.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) else { return file }
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count + 8)
        for byte in bytes {
            if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "\"") { text.append(UInt8(ascii: "\\")) }
            text.append(byte)
        }
        return String(decoding: text, as: UTF8.self)
    }
    return "#sourceLocation(file: \"" + escaped + "\", line: " + String(line) + ")"
}

/// Names and the wrappers they name (nil: none), shared by the copies of one context.
private final class WrappersByName {
    /// Unchecked: the run-time exclusivity check is a call an access, and no access overlaps another.
    @exclusivity(unchecked) private var table = ByteTable<WrapperShape?>(capacity: 4)

    /// The wrapper found for `name` (nil inside: none), or nil when `name` was never asked about.
    func known(_ name: UnsafeBufferPointer<UInt8>) -> WrapperShape?? {
        table.index(of: name).map { table.value(at: $0) }
    }

    func add(_ name: UnsafeBufferPointer<UInt8>, _ wrapper: WrapperShape?) -> WrapperShape? {
        table.insert(name, wrapper)
        return wrapper
    }
}

/// Byte-for-byte equality on memory: the generic `elementsEqual` of two
/// collections runs generic code for every byte.
func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    for i in 0..<a.count where a[i] != b[i] { return false }
    return true
}

/// The storage and projection types of a wrapper for a value type: the same
/// few pairs come up for most properties of a file, and deriving them means
/// matching and rewriting type text.
///
/// A hash table of its own, not a `ByteTable`: its key is a pair, the wrapper and the
/// value type's bytes (read as `ByteKey` reads them: two words and the length), and
/// the wrapper's identity is hashed in, where a `ByteTable` would need the pair
/// copied into one byte string at every question, or a table per wrapper (both
/// measured slower: docs/PERFORMANCE.md). By bytes, it is also asked with a declared
/// type's source bytes, and answers with the value type's String: a type seen before
/// is not made a String again.
final class DerivedTypes {
    struct Entry {
        var storageType: String
        var projectedType: String?
    }

    /// A stored pair's key, and where its value is. Plain data: probing reads these in
    /// place, where slots holding Strings were copied whole (retained) at every step.
    private struct Slot {
        /// The wrapper's address; 0 for an empty slot.
        var wrapper: UInt = 0
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var count: Int32 = 0
        var value: Int32 = 0
    }

    private struct Value {
        var valueType: String
        /// Nil when the wrapper's generic arguments cannot be read from that value type.
        var entry: Entry?
    }

    /// Open addressing, probed linearly, a power of two long and at most half full; the values
    /// in the order stored. Unchecked like `WrappersByName.entries`: no access overlaps another.
    @exclusivity(unchecked) private var slots = [Slot](repeating: Slot(), count: 32)
    @exclusivity(unchecked) private var values: [Value] = []

    /// The entry found for the pair (nil inside: none can be derived), or nil when never stored.
    func entry(wrapper: WrapperShape, valueType: String) -> Entry?? {
        var text = valueType
        guard let index = text.withUTF8({ index(of: wrapper, spelled: $0) }) else { return nil }
        return .some(values[index].entry)
    }

    /// Where a pair is: its index among the values.
    struct Handle {
        fileprivate var index: Int
    }

    /// Which pair holds `wrapper` with a value type spelled `bytes`, if one does.
    func handle(of wrapper: WrapperShape, spelled bytes: UnsafeBufferPointer<UInt8>) -> Handle? {
        index(of: wrapper, spelled: bytes).map(Handle.init)
    }

    private func index(of wrapper: WrapperShape, spelled bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let id = UInt(bitPattern: ObjectIdentifier(wrapper))
        let key = ByteKey(bytes)
        // The words determine a key of up to 16 bytes; a longer one (rare) is compared whole.
        guard key.count <= 16 else { return index(of: id, longKey: key, spelled: bytes) }
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var position = Self.hash(id, key.head, key.tail, key.count) & mask
            while slots[position].wrapper != 0 {
                if slots[position].wrapper == id && slots[position].head == key.head && slots[position].tail == key.tail
                    && Int(slots[position].count) == key.count
                {
                    return Int(slots[position].value)
                }
                position = (position + 1) & mask
            }
            return nil
        }
    }

    private func index(of id: UInt, longKey key: ByteKey, spelled bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var position = Self.hash(id, key.head, key.tail, key.count) & mask
        while slots[position].wrapper != 0 {
            let slot = slots[position]
            if slot.wrapper == id && slot.head == key.head && slot.tail == key.tail && Int(slot.count) == key.count
                && Self.spells(values[Int(slot.value)].valueType, bytes)
            {
                return Int(slot.value)
            }
            position = (position + 1) & mask
        }
        return nil
    }

    /// The value type and entry of pair `index` (from `index(of:spelled:)`).
    func valueType(at handle: Handle) -> String { values[handle.index].valueType }
    func entry(at handle: Handle) -> Entry? { values[handle.index].entry }

    func store(_ entry: Entry?, wrapper: WrapperShape, valueType: String) {
        if 2 * (values.count + 1) > slots.count { rehash(size: 2 * slots.count) }
        // Room for a file's usual few pairs at once: growing from one costs an allocation per doubling.
        if values.capacity == 0 { values.reserveCapacity(16) }
        var text = valueType
        let key = text.withUTF8 { ByteKey($0) }
        values.append(Value(valueType: valueType, entry: entry))
        place(
            Slot(
                wrapper: UInt(bitPattern: ObjectIdentifier(wrapper)), head: key.head, tail: key.tail,
                count: Int32(key.count), value: Int32(values.count - 1)))
    }

    private func place(_ slot: Slot) {
        slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var position = Self.hash(slot.wrapper, slot.head, slot.tail, Int(slot.count)) & mask
            while slots[position].wrapper != 0 { position = (position + 1) & mask }
            slots[position] = slot
        }
    }

    private func rehash(size: Int) {
        let old = slots
        slots = [Slot](repeating: Slot(), count: size)
        for slot in old where slot.wrapper != 0 { place(slot) }
    }

    /// The key's words and length multiplied in with the wrapper's address, the high bits
    /// folded into the low ones the mask keeps. A key longer than 16 bytes hashes by its words.
    private static func hash(_ wrapper: UInt, _ head: UInt64, _ tail: UInt64, _ count: Int) -> Int {
        let multiplier: UInt64 = 0x9e37_79b9_7f4a_7c15
        var hash = (UInt64(wrapper) ^ UInt64(truncatingIfNeeded: count)) &* multiplier
        hash = (hash ^ head) &* multiplier
        hash = (hash ^ tail) &* multiplier
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }

    private static func spells(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var text = text
        return text.withUTF8 { sameBytes($0, bytes) }
    }
}

/// `enum` for `` `enum` ``; any other name as it is.
func withoutBackticks(_ name: String) -> String {
    name.hasPrefix("`") && name.hasSuffix("`") && name.utf8.count > 2 ? String(name.dropFirst().dropLast()) : name
}
