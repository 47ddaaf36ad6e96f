/// A set of names asked about by their UTF-8 bytes, as the source spells
/// them: no String is made for a look-up, and the hash is a few instructions
/// a byte (a `Set<String>` look-up costs some 500 for a short name).
struct NameSet {
    /// The names' bytes, one after another; `ends[i]` is where name `i` ends.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Open addressing: the index of a name plus one, or 0 for an empty slot. A power of two long.
    private var slots: [Int]

    init<Names: Sequence<String>>(_ names: Names) {
        var unique: [String] = []
        var seen = Set<String>()
        for name in names where seen.insert(name).inserted { unique.append(name) }
        var size = 8
        while size < 2 * unique.count { size *= 2 }
        slots = [Int](repeating: 0, count: size)
        for name in unique {
            bytes += name.utf8
            ends.append(bytes.count)
            var slot = Self.hash(name.utf8) & (size - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = ends.count
        }
    }

    var isEmpty: Bool { ends.isEmpty }

    func contains(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !ends.isEmpty else { return false }
        let mask = slots.count - 1
        var slot = Self.hash(name) & mask
        return bytes.withUnsafeBufferPointer { all in
            while slots[slot] != 0 {
                let index = slots[slot] - 1
                let start = index == 0 ? 0 : ends[index - 1]
                if sameBytes(UnsafeBufferPointer(rebasing: all[start..<ends[index]]), name) { return true }
                slot = (slot + 1) & mask
            }
            return false
        }
    }

    /// FNV-1a.
    private static func hash<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
