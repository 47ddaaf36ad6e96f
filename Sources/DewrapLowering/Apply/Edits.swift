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

extension [Edit] {
    /// Sorts the edits by start (stably), unless they are in order already: most lists are, and
    /// checking costs less than a sort, which allocates a buffer whatever its input.
    mutating func sortByStart() {
        if indices.dropFirst().contains(where: { self[$0].start < self[$0 - 1].start }) {
            sort { $0.start < $1.start }
        }
    }
}

/// The input with `edits` spliced in, taken in `order` (their indices). In that order
/// they must be sorted by position and must not overlap; bytes outside them are copied unchanged.
func apply(_ edits: [Edit], in order: [Int], to source: [UInt8]) -> [UInt8] {
    var capacity = source.count
    for edit in edits { capacity += edit.text.count }
    // One allocation, filled by copies: appending slice by slice costs a uniqueness
    // and capacity check and a generic copy per piece.
    return [UInt8](unsafeUninitializedCapacity: capacity) { output, count in
        source.withUnsafeBufferPointer { source in
            var position = 0
            func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
                guard let base = bytes.baseAddress else { return }
                (output.baseAddress! + count).initialize(from: base, count: bytes.count)
                count += bytes.count
            }
            for index in order where edits[index].start >= position {
                copy(UnsafeBufferPointer(rebasing: source[position..<edits[index].start]))
                edits[index].text.withUnsafeBufferPointer(copy)
                position = edits[index].end
            }
            copy(UnsafeBufferPointer(rebasing: source[position...]))
        }
    }
}
