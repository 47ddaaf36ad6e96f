import DewrapSyntax

/// Generated Swift code as UTF-8 bytes, written piece by piece: what an
/// `Edit` holds, without a String made and joined for every piece.
struct CodeText {
    /// The text is `storage[..<count]`; the rest is room to write into. A
    /// piece is then one capacity check and one copy: `Array.append(contentsOf:)`
    /// runs generic code for every piece, which was most of the price of rendering.
    private var storage: [UInt8]
    private(set) var count = 0
    /// `storage.count`, kept here: reading it from the array is a call.
    private var capacity: Int

    init(capacity: Int = 0) {
        storage = capacity == 0 ? [] : Self.room(capacity)
        self.capacity = capacity
    }

    /// A buffer of `capacity` bytes that are written before they are read: left
    /// as they are (zeroing them cost more than most texts' writing).
    private static func room(_ capacity: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: capacity) { _, initialized in initialized = capacity }
    }

    var isEmpty: Bool { count == 0 }

    /// The text written, as a slice of the buffer (the bytes of an `Edit`): the room
    /// after it stays, unused (trimming it with `removeLast` costs more than it saves).
    var slice: ArraySlice<UInt8> {
        consuming get { storage[..<count] }
    }

    @inline(__always)
    mutating func write(_ piece: UnsafeBufferPointer<UInt8>) {
        guard let source = piece.baseAddress else { return }
        let end = count + piece.count
        if end > capacity { grow(toHold: end) }
        storage.withUnsafeMutableBufferPointer { target in
            copyBytes(from: source, to: target.baseAddress! + count, count: piece.count)
        }
        count = end
    }

    /// Moves the text to a larger buffer.
    @inline(never)
    private mutating func grow(toHold end: Int) {
        var larger = Self.room(max(end, 2 * storage.count, 64))
        if count > 0 {
            larger.withUnsafeMutableBufferPointer { target in
                storage.withUnsafeBufferPointer { target.baseAddress!.update(from: $0.baseAddress!, count: count) }
            }
        }
        storage = larger
        capacity = larger.count
    }

    /// Appends a copy of bytes `range` of this text (a line break and indentation written before).
    mutating func repeatText(_ range: Range<Int>) {
        precondition(range.upperBound <= count)
        let end = count + range.count
        if end > capacity { grow(toHold: end) }
        storage.withUnsafeMutableBufferPointer { target in
            (target.baseAddress! + count).update(from: target.baseAddress! + range.lowerBound, count: range.count)
        }
        count = end
    }

    @inline(__always)
    static func += (text: inout CodeText, piece: String) {
        text.write(string: piece)
    }

    static func += (text: inout CodeText, piece: ArraySlice<UInt8>) {
        piece.withUnsafeBufferPointer { text.write($0) }
    }

    static func += (text: inout CodeText, piece: [UInt8]) {
        piece.withUnsafeBufferPointer { text.write($0) }
    }

    static func += (text: inout CodeText, piece: CodeText) {
        text.append(piece, 0..<piece.count)
    }

    /// Bytes `range` of `other`'s text.
    mutating func append(_ other: CodeText, _ range: Range<Int>) {
        other.withBytes(range) { write($0) }
    }

    /// Calls `body` with bytes `range` of the text.
    func withBytes<R>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        precondition(range.upperBound <= count)
        return storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Drops what was written after the first `count` bytes.
    mutating func truncate(to count: Int) {
        self.count = min(self.count, count)
    }

    /// Appends the pieces in order (`a + b + …` would make a String for each `+`).
    /// Inlined: most pieces are literals, whose length and emptiness are then known.
    @inline(__always)
    mutating func write(_ a: String, _ b: String, _ c: String = "", _ d: String = "", _ e: String = "", _ f: String = "") {
        self += a
        self += b
        if !c.isEmpty { self += c }
        if !d.isEmpty { self += d }
        if !e.isEmpty { self += e }
        if !f.isEmpty { self += f }
    }
}

extension CodeText: CodeOutput {}

/// Where generated code is written: a `CodeText`, or a `ScratchText` on the stack.
protocol CodeOutput {
    /// The bytes written so far.
    var count: Int { get }
    mutating func write(_ piece: UnsafeBufferPointer<UInt8>)
    /// Appends a copy of bytes `range` of what was written (a line break and indentation written before).
    mutating func repeatText(_ range: Range<Int>)
    /// Drops what was written after the first `count` bytes.
    mutating func truncate(to count: Int)
}

extension CodeOutput {
    /// Appends a literal piece. A `StaticString`'s bytes lie in the binary, where a
    /// String's are first found through its representation, for every piece.
    /// Named apart: a literal passed where a String also fits would be a String.
    @inline(__always)
    mutating func write(literal piece: StaticString) {
        piece.withUTF8Buffer { write($0) }
    }

    @inline(__always)
    mutating func write(string piece: String) {
        // Literals, native and small Strings have contiguous UTF-8.
        if piece.utf8.withContiguousStorageIfAvailable({ write($0) }) == nil {
            var copy = piece
            copy.withUTF8 { write($0) }
        }
    }

    /// Appends bytes `range` of `bytes` (a name or an indentation from the source).
    @inline(__always)
    mutating func write(_ bytes: [UInt8], _ range: Range<Int>) {
        bytes.withUnsafeBufferPointer { write(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    mutating func write(_ text: CodeText) {
        text.withBytes(0..<text.count) { write($0) }
    }

    /// The source text of tokens `span` (with the trivia between them), `$x` rewrites applied.
    mutating func append(_ span: TokenSpan, from context: SourceContext) {
        guard !span.isEmpty else { return }
        let tokens = context.tree.tokens
        context.appendText(bytes: tokens[span.lower].start..<tokens[span.upper - 1].end, to: &self)
    }
}

/// Text written into a fixed buffer (on the stack), with no check on each piece but its
/// room: writing into a `CodeText` also checks that its array is not shared, and goes
/// through the array's buffer-pointer call. A piece that does not fit is not written, and
/// `overflowed` says so: the text is then written again elsewhere (what was written after
/// it, if anything fitted, is never read).
struct ScratchText: CodeOutput {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0
    private(set) var overflowed = false

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[..<count]) }

    @inline(__always)
    mutating func write(_ piece: UnsafeBufferPointer<UInt8>) {
        // Against the room left: `count` never passes `buffer.count`, so nothing can overflow.
        guard piece.count <= buffer.count &- count else { return overflowed = true }
        if let source = piece.baseAddress { copyBytes(from: source, to: buffer.baseAddress! + count, count: piece.count) }
        count &+= piece.count
    }

    @inline(__always)
    mutating func repeatText(_ range: Range<Int>) {
        precondition(range.upperBound <= count)
        write(UnsafeBufferPointer(rebasing: buffer[range]))
    }

    mutating func truncate(to count: Int) {
        self.count = min(self.count, count)
    }
}

/// Copies `count` bytes between buffers that do not overlap. Most pieces of code are a
/// few bytes: copied here with a load and a store or two, where a call of `memmove`
/// costs several times that.
@inline(__always)
func copyBytes(from source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
    let from = UnsafeRawPointer(source)
    let to = UnsafeMutableRawPointer(target)
    switch count {
    case 8...16:
        // Two words that overlap when fewer than 16 bytes.
        let head = from.loadUnaligned(as: UInt64.self)
        let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        to.storeBytes(of: head, as: UInt64.self)
        to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
    case 4..<8:
        let head = from.loadUnaligned(as: UInt32.self)
        let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        to.storeBytes(of: head, as: UInt32.self)
        to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
    case 2..<4:
        let head = from.loadUnaligned(as: UInt16.self)
        let tail = from.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)
        to.storeBytes(of: head, as: UInt16.self)
        to.storeBytes(of: tail, toByteOffset: count - 2, as: UInt16.self)
    case 1:
        target[0] = source[0]
    case 0:
        break
    default:
        target.update(from: source, count: count)
    }
}
