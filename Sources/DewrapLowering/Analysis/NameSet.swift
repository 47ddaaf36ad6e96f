/// A set of names asked about by their UTF-8 bytes, as the source spells
/// them: no String is made for a look-up, and the hash is a few operations
/// a word (a `Set<String>` hashes a whole String with SipHash).
struct NameSet {
    /// The names' bytes, one after another; `ends[i]` is where name `i` ends.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Open addressing: the index of a name plus one, or 0 for an empty slot. A power of two long.
    private var slots: [Int]

    /// Room for `capacity` names without growing.
    init(capacity: Int) {
        var size = 8
        while size < 2 * capacity { size *= 2 }
        slots = [Int](repeating: 0, count: size)
        ends.reserveCapacity(capacity)
        bytes.reserveCapacity(16 * capacity)
    }

    /// A set of `names`.
    init(names: [String]) {
        self.init(capacity: names.count)
        for name in names { insert(name) }
    }

    @discardableResult
    mutating func insert(_ name: String) -> Int {
        var name = name
        return name.withUTF8 { insert($0) }
    }

    /// Adds `name` unless it is there already (the table holds at most half as many names as slots).
    /// Returns its index: names are numbered 0, 1, … in the order they were first added, so
    /// that an array beside the set can hold what is known of each.
    @discardableResult
    mutating func insert(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        if ends.count * 2 >= slots.count { grow() }
        // One probe finds the name or the empty slot where it goes.
        let (found, slot) = probe(name)
        if let found { return found }
        bytes.append(contentsOf: name)
        ends.append(bytes.count)
        slots[slot] = ends.count
        return ends.count - 1
    }

    /// How many names the set holds.
    var count: Int { ends.count }

    private mutating func place(_ index: Int) {
        let mask = slots.count - 1
        let start = index == 0 ? 0 : ends[index - 1]
        var slot = bytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[start..<ends[index]])) } & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = index + 1
    }

    private mutating func grow() {
        slots = [Int](repeating: 0, count: 2 * slots.count)
        for index in ends.indices { place(index) }
    }

    func contains(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { contains($0) }
    }

    func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        index(of: name) != nil
    }

    /// The index `insert` gave `name`, if the set holds it.
    func index(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !ends.isEmpty else { return nil }
        return probe(name).index
    }

    /// Where `name` is: its index if the set holds it, else the empty slot where it would go.
    /// Read through buffer pointers: the arrays' checked subscripts were most of a probe.
    private func probe(_ name: UnsafeBufferPointer<UInt8>) -> (index: Int?, slot: Int) {
        let key = Key(name)
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

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int { Key(bytes).hash }
}

/// A name's bytes as two words, read with a load or two each whatever its length up to 16
/// (the bytes of a shorter name are read more than once where the loads overlap), which with
/// its length determine it; a longer name is read eight bytes at a time in `hash` and `matches`.
/// A byte at a time was most of the cost of a look-up. (Also the key of `DerivedTypes`.)
struct Key {
    let head: UInt64
    let tail: UInt64
    let count: Int
    let base: UnsafeRawPointer?

    @inline(__always)
    init(_ name: UnsafeBufferPointer<UInt8>) {
        count = name.count
        base = UnsafeRawPointer(name.baseAddress)
        (head, tail) = Key.words(base, count)
    }

    @inline(__always)
    static func words(_ base: UnsafeRawPointer?, _ count: Int) -> (UInt64, UInt64) {
        guard let base else { return (0, 0) }
        switch count {
        case 8...:
            return (base.loadUnaligned(as: UInt64.self), base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        case 4..<8:
            return (UInt64(base.loadUnaligned(as: UInt32.self)),
                    UInt64(base.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
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
        let other = Key.words(UnsafeRawPointer(stored), count)
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
