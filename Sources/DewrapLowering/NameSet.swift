/// A set of names asked about by their UTF-8 bytes, as the source spells
/// them: no String is made for a look-up, and the hash is a few instructions
/// a word (a `Set<String>` look-up costs some 500 for a short name).
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
    private func probe(_ name: UnsafeBufferPointer<UInt8>) -> (index: Int?, slot: Int) {
        let mask = slots.count - 1
        var slot = Self.hash(name) & mask
        return bytes.withUnsafeBufferPointer { all in
            while slots[slot] != 0 {
                let index = slots[slot] - 1
                let start = index == 0 ? 0 : ends[index - 1]
                if Self.same(UnsafeBufferPointer(rebasing: all[start..<ends[index]]), name) { return (index, slot) }
                slot = (slot + 1) & mask
            }
            return (nil, slot)
        }
    }

    // Names are read eight bytes at a time, the last eight overlapping the word before when the
    // length is not a multiple of eight: a byte at a time was most of the cost of a look-up.

    /// Each word multiplied in, then every bit spread to the low ones that the table's mask keeps
    /// (the low bits of a product depend only on the low bits of what was multiplied).
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let multiplier: UInt64 = 0x9e37_79b9_7f4a_7c15
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        if bytes.count >= 8, let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 < bytes.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* multiplier
                offset += 8
            }
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)) &* multiplier
        } else {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* multiplier }
        }
        // MurmurHash3's finalizer.
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }

    /// Byte-for-byte equality.
    private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count >= 8, let baseA = a.baseAddress, let baseB = b.baseAddress else { return sameBytes(a, b) }
        let rawA = UnsafeRawPointer(baseA)
        let rawB = UnsafeRawPointer(baseB)
        func word(_ raw: UnsafeRawPointer, at offset: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        var offset = 0
        while offset + 8 < a.count {
            guard word(rawA, at: offset) == word(rawB, at: offset) else { return false }
            offset += 8
        }
        return word(rawA, at: a.count - 8) == word(rawB, at: a.count - 8)
    }
}
