#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of the types that `bytes` may declare generic (`struct Box<T>`: `Box(…)` infers its
/// arguments), and the first argument labels of the `init?` and `init!` it may give a type (each
/// counts for every type the file declares or extends before it: `T(label: …)` may be a `T?`):
/// SPEC Corrections, Decision 5. A byte scan, not a parse, so that a run need not parse every
/// file of its module to answer for `Model()`: the `<`, `?` and `!` bytes found with `memchr`,
/// each looked at in place. A superset: comments and strings count too.
public func uncertainConstructionNames(in bytes: [UInt8]) -> UncertainConstructions {
    var result = UncertainConstructions()
    bytes.withUnsafeBufferPointer { source in
        guard let base = source.baseAddress else { return }
        // `struct Name<`: the name before `<`, then the keyword before it.
        let typeKeywords = typeKeywords // read once: each use of a global checks that it is made
        let genericKeywords = typeKeywords.dropLast() // not `extension`
        var from = 0
        while from < source.count, let hit = memchr(base + from, Int32(UInt8(ascii: "<")), source.count - from) {
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            from = at + 1
            if let name = declaredName(endingAt: at, in: source, keywords: genericKeywords) {
                result.generic.insert(name)
            }
        }
        // Each `init?` / `init!` with the label of its first parameter (`_`, or `` for none).
        var failable: [(offset: Int, label: String)] = []
        for mark in [UInt8(ascii: "?"), UInt8(ascii: "!")] {
            from = 0
            while from < source.count, let hit = memchr(base + from, Int32(mark), source.count - from) {
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                from = at + 1
                if at >= 4, source[at - 4] == UInt8(ascii: "i"), source[at - 3] == UInt8(ascii: "n"), source[at - 2] == UInt8(ascii: "i"),
                    source[at - 1] == UInt8(ascii: "t"), at == 4 || !isNameByte(source[at - 5])
                {
                    failable.append((at, firstLabel(after: at + 1, in: source)))
                }
            }
        }
        guard let last = failable.map(\.offset).max() else { return }
        // Every type the file declares or extends before each: the name after each keyword.
        var index = 0
        while index < last {
            guard isNameByte(source[index]), index == 0 || !isNameByte(source[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < source.count && isNameByte(source[end]) { end += 1 }
            let word = UnsafeBufferPointer(rebasing: source[index..<end])
            if typeKeywords.contains(where: { $0.withUnsafeBufferPointer { sameBytes($0, word) } }) {
                var start = end
                while start < source.count && (source[start] == 0x20 || source[start] == 0x09) { start += 1 }
                // The last nonempty part of `A.B.C` (empty for dots alone).
                var nameEnd = start
                var partStart = start
                var last = start..<start
                while nameEnd < source.count && (isNameByte(source[nameEnd]) || source[nameEnd] == UInt8(ascii: ".")) {
                    if source[nameEnd] == UInt8(ascii: ".") {
                        if nameEnd > partStart { last = partStart..<nameEnd }
                        partStart = nameEnd + 1
                    }
                    nameEnd += 1
                }
                if nameEnd > partStart { last = partStart..<nameEnd }
                if nameEnd > start {
                    let name = String(decoding: source[last], as: UTF8.self)
                    for entry in failable where entry.offset > index { result.failable[name, default: []].insert(entry.label) }
                }
            }
            index = end
        }
    }
    return result
}

/// The label of the first parameter of the init whose `(` follows `start` (after any generic
/// parameters): its first name, `_`, or `` when it has none; `*` when the bytes are not that shape.
private func firstLabel(after start: Int, in source: UnsafeBufferPointer<UInt8>) -> String {
    var index = start
    if index < source.count && source[index] == UInt8(ascii: "<") {
        while index < source.count && source[index] != UInt8(ascii: ">") { index += 1 }
        index += 1
    }
    guard index < source.count, source[index] == UInt8(ascii: "(") else { return "*" }
    index += 1
    while index < source.count && [0x20, 0x09, 0x0A, 0x0D].contains(source[index]) { index += 1 }
    if index < source.count && source[index] == UInt8(ascii: ")") { return "" }
    let start = index
    while index < source.count && isNameByte(source[index]) { index += 1 }
    return index > start ? String(decoding: source[start..<index], as: UTF8.self) : "*"
}

/// Types whose `T(…)` is not a `T` for certain, by name.
public struct UncertainConstructions: Sendable, Equatable {
    var generic: Set<String> = []
    /// The first labels of a type's failable inits (`*`: any).
    var failable: [String: Set<String>] = [:]

    public init() {}

    public mutating func formUnion(_ other: UncertainConstructions) {
        generic.formUnion(other.generic)
        failable.merge(other.failable) { $0.union($1) }
    }

    /// Whether `type(…)`, whose first argument has `label` (`_` for none, `` for no argument), may
    /// call a failable init of `type`.
    func mayBeFailable(_ type: String, label: String) -> Bool {
        guard let labels = failable[type] else { return false }
        return labels.contains("*") || labels.contains(label)
    }
}

private let typeKeywords: [[UInt8]] = ["struct", "class", "enum", "actor", "extension"].map { Array($0.utf8) }

/// The name in `keyword Name<` whose `<` is at `at`, if the bytes before it are that and the
/// keyword is one of `keywords`.
private func declaredName(endingAt at: Int, in source: UnsafeBufferPointer<UInt8>, keywords: ArraySlice<[UInt8]>) -> String? {
    var nameStart = at
    while nameStart > 0 && isNameByte(source[nameStart - 1]) { nameStart -= 1 }
    guard nameStart < at else { return nil }
    var keywordEnd = nameStart
    while keywordEnd > 0 && (source[keywordEnd - 1] == 0x20 || source[keywordEnd - 1] == 0x09) { keywordEnd -= 1 }
    guard keywordEnd < nameStart else { return nil }
    var keywordStart = keywordEnd
    while keywordStart > 0 && isNameByte(source[keywordStart - 1]) { keywordStart -= 1 }
    let keyword = UnsafeBufferPointer(rebasing: source[keywordStart..<keywordEnd])
    guard keywords.contains(where: { $0.withUnsafeBufferPointer { sameBytes($0, keyword) } }) else { return nil }
    return String(decoding: source[nameStart..<at], as: UTF8.self)
}

extension UncertainConstructions {
    /// One word for the module index (`--write-module-index`): generic names joined by `+`, `/`,
    /// then `Type:label+label` entries joined by `,` (`()` for no argument); `-` for an empty part.
    public var encoded: String {
        let generic = self.generic.isEmpty ? "-" : self.generic.sorted().joined(separator: "+")
        let failable =
            self.failable.isEmpty
            ? "-"
            : self.failable.keys.sorted().map { type in
                type + ":" + self.failable[type]!.sorted().map { $0.isEmpty ? "()" : $0 }.joined(separator: "+")
            }.joined(separator: ",")
        return generic + "/" + failable
    }

    /// Reads `encoded`; nil when it is not that shape.
    public init?(encoded: ArraySlice<UInt8>) {
        // Most files declare neither: no String made for them (a build step reads the index's
        // line of every module source).
        if encoded.count == 3 && encoded.first == UInt8(ascii: "-") && encoded.last == UInt8(ascii: "-")
            && encoded[encoded.startIndex + 1] == UInt8(ascii: "/")
        {
            self.init()
            return
        }
        let text = String(decoding: encoded, as: UTF8.self)
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        self.init()
        if parts[0] != "-" { generic = Set(parts[0].split(separator: "+").map(String.init)) }
        if parts[1] != "-" {
            for entry in parts[1].split(separator: ",") {
                let pieces = entry.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                guard pieces.count == 2 else { return nil }
                failable[String(pieces[0])] = Set(pieces[1].split(separator: "+").map { $0 == "()" ? "" : String($0) })
            }
        }
    }
}
