/// The one hash table of lowering, keyed by byte strings: names and type spellings as the source
/// spells them. A look-up reads the key's bytes in place and makes no String; the hash is a few
/// instructions a word (`ByteKey`), where a `Dictionary<String, _>` hashes with SipHash. Open
/// addressing, probed linearly, at most half full; the keys one after another in one buffer; the
/// entries numbered 0, 1, … in the order they were first inserted, with their values in that order.
/// (The lexer's table of words, `WordTable`, is built once for all processes and probed for every
/// name of every file: a table of its own, shaped for that.)
struct ByteTable<Value> {
    /// The keys' bytes, one after another; `ends[i]` is where key `i` ends.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// The index of a key plus one, or 0 for an empty slot. A power of two long.
    private var slots: [Int]
    /// By entry index.
    private(set) var values: [Value] = []

    /// Room for `capacity` keys without growing.
    init(capacity: Int) {
        var size = 8
        while size < 2 * capacity { size *= 2 }
        slots = [Int](repeating: 0, count: size)
        ends.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
        bytes.reserveCapacity(16 * capacity)
    }

    /// How many keys the table holds.
    var count: Int { ends.count }

    /// Adds `key` with `value` unless it is there already (whose value stays). Returns its index.
    @discardableResult
    mutating func insert(_ key: UnsafeBufferPointer<UInt8>, _ value: Value) -> (index: Int, inserted: Bool) {
        if ends.count * 2 >= slots.count { grow() }
        // One probe finds the key or the empty slot where it goes.
        let (found, slot) = probe(key)
        if let found { return (found, false) }
        bytes.append(contentsOf: key)
        ends.append(bytes.count)
        values.append(value)
        slots[slot] = ends.count
        return (ends.count - 1, true)
    }

    @discardableResult
    mutating func insert(_ key: String, _ value: Value) -> (index: Int, inserted: Bool) {
        var key = key
        return key.withUTF8 { insert($0, value) }
    }

    /// The index `insert` gave `key`, if the table holds it.
    @inline(__always)
    func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !ends.isEmpty else { return nil }
        return probe(key).index
    }

    func index(of key: String) -> Int? {
        var key = key
        return key.withUTF8 { index(of: $0) }
    }

    func value(at index: Int) -> Value { values[index] }

    mutating func setValue(_ value: Value, at index: Int) { values[index] = value }

    private mutating func place(_ index: Int) {
        let mask = slots.count - 1
        let start = index == 0 ? 0 : ends[index - 1]
        var slot = bytes.withUnsafeBufferPointer { ByteKey(UnsafeBufferPointer(rebasing: $0[start..<ends[index]])).hash } & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = index + 1
    }

    private mutating func grow() {
        slots = [Int](repeating: 0, count: 2 * slots.count)
        for index in ends.indices { place(index) }
    }

    /// Where `key` is: its index if the table holds it, else the empty slot where it would go.
    /// Read through buffer pointers: the arrays' checked subscripts were most of a probe.
    @inline(__always)
    private func probe(_ name: UnsafeBufferPointer<UInt8>) -> (index: Int?, slot: Int) {
        let key = ByteKey(name)
        return slots.withUnsafeBufferPointer { slots in
            ends.withUnsafeBufferPointer { ends in
                bytes.withUnsafeBufferPointer { all in
                    let mask = slots.count - 1
                    var slot = key.hash & mask
                    while slots[slot] != 0 {
                        let index = slots[slot] - 1
                        let start = index == 0 ? 0 : ends[index - 1]
                        if ends[index] - start == name.count, name.isEmpty || key.matches(all.baseAddress! + start) { return (index, slot) }
                        slot = (slot + 1) & mask
                    }
                    return (nil, slot)
                }
            }
        }
    }
}

extension ByteTable: Sendable where Value: Sendable {}

/// A set of names asked about by their bytes, for the shell (which of a module index's names a
/// run lowered): a `NameSet` behind a non-generic interface, so that its look-ups are compiled
/// for its one key type here rather than called generically from another module.
public struct NameLookup: Sendable {
    private var table: NameSet
    /// The names, numbered as `index(of:)` numbers them.
    public private(set) var names: [String] = []

    public init(_ names: some Sequence<String>) {
        table = NameSet(capacity: names.underestimatedCount)
        for name in names where table.insert(name, ()).inserted { self.names.append(name) }
    }

    /// The number of the name spelled by `name`'s bytes, if it is one of the names.
    public func index(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        table.index(of: name)
    }
}

/// A set of names: a table whose keys are all it holds.
typealias NameSet = ByteTable<Void>

extension ByteTable where Value == Void {
    /// A set of `names`.
    init(names: [String]) {
        self.init(capacity: names.count)
        for name in names { insert(name) }
    }

    /// Adds `name` unless it is there already; returns its index (so that an array beside the set
    /// can hold what is known of each name).
    @discardableResult
    mutating func insert(_ name: String) -> Int { insert(name, ()).index }

    @discardableResult
    mutating func insert(_ name: UnsafeBufferPointer<UInt8>) -> Int { insert(name, ()).index }

    func contains(_ name: String) -> Bool { index(of: name) != nil }

    func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool { index(of: name) != nil }
}

/// A name's bytes as two words, read with a load or two each whatever its length up to 16
/// (the bytes of a shorter name are read more than once where the loads overlap), which with
/// its length determine it; a longer name is read eight bytes at a time in `hash` and `matches`.
/// A byte at a time was most of the cost of a look-up.
struct ByteKey {
    let head: UInt64
    let tail: UInt64
    let count: Int
    let base: UnsafeRawPointer?

    @inline(__always)
    init(_ name: UnsafeBufferPointer<UInt8>) {
        count = name.count
        base = UnsafeRawPointer(name.baseAddress)
        (head, tail) = ByteKey.words(base, count)
    }

    @inline(__always)
    static func words(_ base: UnsafeRawPointer?, _ count: Int) -> (UInt64, UInt64) {
        guard let base else { return (0, 0) }
        switch count {
        case 8...:
            return (base.loadUnaligned(as: UInt64.self), base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        case 4..<8:
            return (
                UInt64(base.loadUnaligned(as: UInt32.self)),
                UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            )
        case 1..<4:
            // The first, middle and last byte: all of them for up to three.
            let first = UInt64(base.load(as: UInt8.self))
            let middle = UInt64(base.load(fromByteOffset: count >> 1, as: UInt8.self))
            let last = UInt64(base.load(fromByteOffset: count - 1, as: UInt8.self))
            return (first | middle << 8 | last << 16, 0)
        default:
            return (0, 0)
        }
    }

    /// Each word multiplied in, then every bit spread to the low ones that the table's mask keeps
    /// (the low bits of a product depend only on the low bits of what was multiplied).
    @inline(__always)
    var hash: Int {
        let multiplier: UInt64 = 0x9e37_79b9_7f4a_7c15
        var hash = (0xcbf2_9ce4_8422_2325 ^ UInt64(truncatingIfNeeded: count)) &* multiplier
        hash = (hash ^ head) &* multiplier
        if count > 16, let base {
            var offset = 8
            while offset + 8 < count {
                hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
                offset += 8
            }
        }
        hash = (hash ^ tail) &* multiplier
        // MurmurHash3's finalizer.
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }

    /// Whether the `count` bytes at `stored` are this name's.
    @inline(__always)
    func matches(_ stored: UnsafePointer<UInt8>) -> Bool {
        let other = ByteKey.words(UnsafeRawPointer(stored), count)
        guard other.0 == head && other.1 == tail else { return false }
        guard count > 16, let base else { return true }
        let raw = UnsafeRawPointer(stored)
        var offset = 8
        while offset + 8 < count {
            guard raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else {
                return false
            }
            offset += 8
        }
        return true
    }
}
