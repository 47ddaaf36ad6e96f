/// Replace `start..<end` of the input (byte offsets) with `text`.
struct Edit {
    var start: Int
    var end: Int
    /// A slice: the edits rendered for one type share one buffer.
    var text: ArraySlice<UInt8>

    init(start: Int, end: Int, text: ArraySlice<UInt8>) {
        self.start = start
        self.end = end
        self.text = text
    }

    init(start: Int, end: Int, text: [UInt8]) {
        self.init(start: start, end: end, text: text[...])
    }
}

/// The input with `edits` spliced in. Edits must not overlap; bytes outside
/// them are copied unchanged.
func apply(_ edits: [Edit], to source: [UInt8]) -> [UInt8] {
    let sorted = edits.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    // Written as CodeText: a piece is a capacity check and a copy, where `Array.append(contentsOf:)` costs several hundred.
    var output = CodeText(capacity: source.count + sorted.reduce(0) { $0 + $1.text.count })
    var position = 0
    for edit in sorted where edit.start >= position {
        output += source[position..<edit.start]
        output += edit.text
        position = edit.end
    }
    output += source[position...]
    return output.bytes
}
