/// A file's declarations of one kind (values, instance properties, functions) by owner and name:
/// the owner `""` holds the globals. A name an owner declares twice holds nil: uncertain.
///
/// One `ByteTable` keyed by the owner's bytes, a zero byte and the name's: a look-up hashes the
/// bytes once and makes no String, where a `[String: [String: Entry?]]` hashed both Strings with
/// SipHash and grew a dictionary for every owner.
struct MemberTable<Entry> {
    struct Member {
        var owner: String
        var name: String
        /// Nil when the owner declares the name more than once.
        var entry: Entry?
    }

    /// Entry `i` of the table is `members[i]`.
    private var table = ByteTable<Void>(capacity: 16)
    private(set) var members: [Member] = []

    /// Enters `entry` as `owner`'s member `name`, or, when `owner` has one by that name already,
    /// makes it nil (uncertain).
    mutating func record(_ entry: Entry?, named name: String, owner: String) {
        let (index, inserted) = Self.withKey(owner, name) { table.insert($0, ()) }
        if inserted {
            members.append(Member(owner: owner, name: name, entry: entry))
        } else {
            members[index].entry = nil
        }
    }

    /// `owner`'s member `name`: nil when there is none, `.some(nil)` when it is declared twice.
    func entry(_ name: String, of owner: String) -> Entry?? {
        guard !members.isEmpty, let found = Self.withKey(owner, name, { table.index(of: $0) }) else { return nil }
        return .some(members[found].entry)
    }

    /// The key of `owner`'s member `name`, made on the stack: the owner's bytes, a zero byte (in
    /// no name), the name's.
    private static func withKey<Result>(
        _ owner: String, _ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var owner = owner
        var name = name
        return owner.withUTF8 { owner in
            name.withUTF8 { name in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: owner.count + 1 + name.count) { key in
                    _ = key.initialize(fromContentsOf: owner)
                    key[owner.count] = 0
                    _ = key[(owner.count + 1)...].initialize(fromContentsOf: name)
                    return body(UnsafeBufferPointer(key))
                }
            }
        }
    }
}
