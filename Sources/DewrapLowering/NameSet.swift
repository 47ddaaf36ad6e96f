/// A set of names asked about by their UTF-8 bytes, as the source spells
/// them: no String is made for a look-up, and the hash is a few instructions
/// a byte (a `Set<String>` look-up costs some 500 for a short name).
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
        if let index = index(of: name) { return index }
        bytes.append(contentsOf: name)
        ends.append(bytes.count)
        place(ends.count - 1)
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
        let mask = slots.count - 1
        var slot = Self.hash(name) & mask
        return bytes.withUnsafeBufferPointer { all in
            while slots[slot] != 0 {
                let index = slots[slot] - 1
                let start = index == 0 ? 0 : ends[index - 1]
                if sameBytes(UnsafeBufferPointer(rebasing: all[start..<ends[index]]), name) { return index }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }

    /// FNV-1a.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
