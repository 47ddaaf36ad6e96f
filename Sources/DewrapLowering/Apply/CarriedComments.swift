import DewrapSyntax
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Comments inside a replaced range that its replacement does not copy (`@State /* why */ var x`,
/// `var x: /* none yet */ Int?`) go in front of the replacement, in their order: no comment of the
/// input is lost. A block comment is followed by a space, a line comment by a line break and the
/// indentation of the line the replacement starts on.
func carryComments(into edits: inout [Edit], context: SourceContext) {
    let bytes = context.bytes
    bytes.withUnsafeBufferPointer { source in
        guard let base = source.baseAddress else { return }
        for index in edits.indices where edits[index].end > edits[index].start {
            let range = edits[index].start..<edits[index].end
            var comments: [Range<Int>] = []
            var from = range.lowerBound
            while from < range.upperBound, let hit = memchr(base + from, Int32(UInt8(ascii: "/")), range.upperBound - from) {
                let slash = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                from = slash + 1
                guard slash + 1 < source.count, source[slash + 1] == UInt8(ascii: "/") || source[slash + 1] == UInt8(ascii: "*"),
                    !isInsideToken(slash, context.tree.tokens)
                else { continue }
                let end = commentEnd(from: slash, in: source)
                comments.append(slash..<end)
                from = end
            }
            let missing = comments.filter { !contains(edits[index].text, UnsafeBufferPointer(rebasing: source[$0])) }
            guard !missing.isEmpty else { continue }
            var text: [UInt8] = []
            let indentation = lineIndentation(at: range.lowerBound, in: source)
            for comment in missing {
                text += source[comment]
                if source[comment.lowerBound + 1] == UInt8(ascii: "/") {
                    text += context.lineEnding.utf8
                    text += source[indentation]
                } else {
                    text.append(UInt8(ascii: " "))
                }
            }
            text += edits[index].text
            edits[index].text = text[...]
        }
    }
}

/// Whether byte `offset` lies inside a token (a string literal's `//`, an operator's `/`), by binary search.
private func isInsideToken(_ offset: Int, _ tokens: [Token]) -> Bool {
    var low = 0
    var high = tokens.count
    while low < high {
        let middle = (low + high) / 2
        if tokens[middle].end <= offset { low = middle + 1 } else { high = middle }
    }
    return low < tokens.count && tokens[low].start <= offset
}

/// The end of the comment starting at `start` (`//` to the end of its line, `/* … */` nested).
func commentEnd(from start: Int, in source: UnsafeBufferPointer<UInt8>) -> Int {
    var index = start + 2
    if source[start + 1] == UInt8(ascii: "/") {
        while index < source.count && source[index] != UInt8(ascii: "\n") && source[index] != UInt8(ascii: "\r") { index += 1 }
        return index
    }
    var depth = 1
    while index < source.count && depth > 0 {
        if source[index] == UInt8(ascii: "/") && index + 1 < source.count && source[index + 1] == UInt8(ascii: "*") {
            depth += 1
            index += 2
        } else if source[index] == UInt8(ascii: "*") && index + 1 < source.count && source[index + 1] == UInt8(ascii: "/") {
            depth -= 1
            index += 2
        } else {
            index += 1
        }
    }
    return index
}

/// The blanks that start the line holding `offset`.
private func lineIndentation(at offset: Int, in source: UnsafeBufferPointer<UInt8>) -> Range<Int> {
    var start = offset
    while start > 0 && source[start - 1] != UInt8(ascii: "\n") && source[start - 1] != UInt8(ascii: "\r") { start -= 1 }
    var end = start
    while end < source.count && (source[end] == UInt8(ascii: " ") || source[end] == UInt8(ascii: "\t")) { end += 1 }
    return start..<end
}

/// Whether `text` holds the bytes of `needle`.
private func contains(_ text: ArraySlice<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
    guard needle.count <= text.count else { return false }
    return text.withUnsafeBufferPointer { text in
        var index = 0
        while index + needle.count <= text.count {
            if text[index] == needle[0] && memcmp(text.baseAddress! + index, needle.baseAddress!, needle.count) == 0 { return true }
            index += 1
        }
        return false
    }
}
