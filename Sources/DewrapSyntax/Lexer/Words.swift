/// The words the parser gives meaning to: keywords and contextual keywords.
/// Each word token is looked up once, when parsing starts, so the grammar
/// compares small integers instead of bytes.
public enum Word: UInt8, Sendable, CaseIterable {
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

    /// How the word is written. A literal table, in case order: asking the
    /// runtime for a case's name goes through reflection for every word, which
    /// every process would pay at start-up (WordTests checks the table).
    public var spelling: String { Word.spellings[Int(rawValue)] }

    static let spellings: [String] = [
        "", "as", "associatedtype", "break", "case", "catch", "class", "continue", "default", "defer",
        "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func",
        "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil", "operator",
        "precedencegroup", "private", "protocol", "public", "repeat", "rethrows", "return", "self", "Self",
        "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try", "typealias",
        "var", "where", "while", "Any", "actor", "macro", "open", "package", "final", "override", "mutating",
        "nonmutating", "lazy", "weak", "unowned", "optional", "required", "convenience", "dynamic",
        "indirect", "prefix", "postfix", "infix", "nonisolated", "distributed", "__consuming", "consuming",
        "borrowing", "__owned", "__shared", "_const", "isolated", "sending", "__setter_access", "async",
        "await", "reasync", "some", "any", "each", "of", "unknown", "unsafe", "consume", "copy", "get",
        "set", "willSet", "didSet", "_modify", "_read", "modify", "read", "unsafeAddress",
        "unsafeMutableAddress", "addressWithOwner", "addressWithNativeOwner", "mutableAddressWithOwner",
        "mutableAddressWithNativeOwner", "borrow", "mutate", "yield", "discard", "then", "autoclosure",
        "escaping", "Sendable", "noescape",
    ]
}

extension Word {
    /// The keywords the lexer always classifies as keywords: the first group of cases.
    @inline(__always)
    var isKeyword: Bool { self != .none && rawValue <= Word.Any.rawValue }

    /// For the keywords the lexer always classifies as keywords (the first
    /// group of cases), what they tell it about the next token; nil for every
    /// other word, which stays an identifier.
    var keywordRole: KeywordRole? {
        switch self {
        case .none: return nil
        case .true, .false, .nil, .self, .Self, .super, .Any: return .expression
        case .try: return .try
        case .func, .operator: return .operatorName
        default: return rawValue <= Word.Any.rawValue ? .other : nil
        }
    }

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
