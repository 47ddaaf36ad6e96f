/// The words the parser gives meaning to: keywords and contextual keywords.
/// Each word token is looked up once, when parsing starts, so the grammar
/// compares small integers instead of bytes.
enum Word: UInt8, CaseIterable {
    case none
    // Keywords.
    case `as`, `associatedtype`, `break`, `case`, `catch`, `class`, `continue`, `default`, `defer`
    case `deinit`, `do`, `else`, `enum`, `extension`, `fallthrough`, `false`, `fileprivate`, `for`
    case `func`, `guard`, `if`, `import`, `in`, `init`, `inout`, `internal`, `is`, `let`, `nil`
    case `operator`, `precedencegroup`, `private`, `protocol`, `public`, `repeat`, `rethrows`
    case `return`, `self`, `Self`, `static`, `struct`, `subscript`, `super`, `switch`, `throw`
    case `throws`, `true`, `try`, `typealias`, `var`, `where`, `while`, `Any`
    // Contextual keywords.
    case actor, macro, open, package, final, override, mutating, nonmutating, lazy, weak, unowned
    case optional, required, convenience, dynamic, indirect, prefix, postfix, infix, nonisolated
    case distributed, __consuming, consuming, borrowing, __owned, __shared, _const, isolated, sending
    case __setter_access, async, await, reasync, some, any, each, of, unknown, unsafe, consume, copy
    case get, set, willSet, didSet, _modify, _read, modify, read, unsafeAddress, unsafeMutableAddress
    case addressWithOwner, addressWithNativeOwner, mutableAddressWithOwner, mutableAddressWithNativeOwner
    case borrow, mutate, yield, discard, then
    // Type attributes that never take arguments: a `(` after them opens a function type.
    case autoclosure, escaping, Sendable, noescape

    var spelling: String {
        String(describing: self)
    }
}

/// Looks words up by their bytes: entries bucketed by length, compared byte by byte.
struct WordTable {
    static let shared = WordTable()

    private var buckets: [[(bytes: [UInt8], word: Word)]] = Array(repeating: [], count: 32)

    private init() {
        for word in Word.allCases where word != .none {
            let bytes = Array(word.spelling.utf8)
            buckets[bytes.count].append((bytes, word))
        }
    }

    func word(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Word {
        let length = end - start
        guard length < buckets.count else { return .none }
        for entry in buckets[length] where entry.bytes[0] == text[start] {
            var k = 1
            while k < length && entry.bytes[k] == text[start + k] { k += 1 }
            if k == length { return entry.word }
        }
        return .none
    }
}

extension Word {
    /// Modifiers that may stand before a declaration keyword.
    var isDeclarationModifier: Bool {
        switch self {
        case .public, .private, .fileprivate, .internal, .open, .package, .static, .class, .final, .override,
             .mutating, .nonmutating, .lazy, .weak, .unowned, .optional, .required, .convenience, .dynamic,
             .indirect, .prefix, .postfix, .infix, .nonisolated, .distributed, .__consuming, .consuming,
             .borrowing, .__owned, .__shared, ._const, .__setter_access, .async, .isolated:
            return true
        default:
            return false
        }
    }

    /// `get`, `set`, `willSet`, … : words that open an accessor.
    var isAccessorKind: Bool {
        switch self {
        case .get, .set, .willSet, .didSet, ._modify, ._read, .modify, .read, .unsafeAddress, .unsafeMutableAddress,
             .addressWithOwner, .addressWithNativeOwner, .mutableAddressWithOwner, .mutableAddressWithNativeOwner,
             .`init`, .borrow, .mutate:
            return true
        default:
            return false
        }
    }

    /// Words allowed before an accessor keyword.
    var isAccessorModifier: Bool {
        self == .mutating || self == .nonmutating || self == .__consuming || self == .consuming || self == .borrowing
    }

    /// Words that may precede a type: specifiers and `some`/`any`/`each`.
    var isTypeSpecifier: Bool {
        switch self {
        case .inout, .borrowing, .consuming, .__owned, .__shared, .sending, .isolated, ._const, .some, .any,
             .each, .repeat, .nonisolated:
            return true
        default:
            return false
        }
    }
}
