import DewrapSyntax

/// Answers "is this type certainly Sendable?" from its spelling and the
/// structs and enums declared in the same file. Unknown means no (SPEC L-4:
/// generated inits then stay isolated, which is the safe side).
///
/// Type spellings are read as UTF-8 bytes (all the delimiters are ASCII) and
/// names are looked up by their bytes: a String made and hashed for every
/// piece of every property's type costs more than the rest of the answer.
struct SendableOracle {
    private let context: SourceContext
    /// Every type declaration in the file: a same-file type's members are read from here when first asked about.
    private let types: [TypeDecl]
    /// The names of the same-file structs, enums and others; `answers.fileTypes` is by their index.
    private let fileTypeNames: NameSet

    /// What a same-file type says about being Sendable, as far as it has been read.
    fileprivate enum FileType {
        /// Declared `Sendable`, or found Sendable.
        case sendable
        /// Public, generic, a view, or not a value type: not known to be Sendable.
        case unknown
        /// Sendable when the types of its stored properties are: those of `types[index]`, read when asked
        /// (until they are found Sendable; a "no" may come of a cycle, and is not kept).
        case members(index: Int)
        /// Its members being read: a question about it now comes through one of their types (a cycle), and the
        /// answer is "no". It marks the type in place (a list of the types being read cost an allocation a question).
        case reading(index: Int)
        /// Only extended here (`extension Color { … }`): a type of another module, asked about as one.
        case extended
    }
    /// By index in `fileTypeNames`: whether a struct, enum or class (without a superclass) of that name
    /// without global-actor isolation is declared (calling its inits and reading its members needs no actor). Kept beside the names: a set of its own cost four
    /// allocations a file.
    private let actorFreeEntries: [Bool]

    /// Value types of the standard library and Foundation: Sendable, with nonisolated inits and members.
    static let standardValueTypes: NameSet = {
        let names = [
            "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
            "Bool", "String", "Character", "Substring", "Date", "UUID", "URL", "Data", "Decimal", "Never", "Void",
        ]
        var set = NameSet(capacity: names.count)
        for name in names { set.insert(name) }
        return set
    }()

    /// `types`: every type declaration in the file, at any depth.
    init(context: SourceContext, types: [TypeDecl]) {
        self.context = context
        self.types = types
        var names = NameSet(capacity: types.count)
        var fileTypes: [FileType] = []
        fileTypes.reserveCapacity(types.count)
        var actorFree: [Bool] = []
        actorFree.reserveCapacity(types.count)
        let tokens = context.tree.tokens
        context.bytes.withUnsafeBufferPointer { bytes in
            for index in types.indices where types[index].body != nil {
                // The name as written (with any trivia between its tokens); the file's `$x` rewrites are not made yet.
                let span = types[index].name
                let name =
                    span.isEmpty
                    ? UnsafeBufferPointer(start: nil, count: 0)
                    : UnsafeBufferPointer(rebasing: bytes[tokens[span.lower].start..<tokens[span.upper - 1].end])
                let kind = types[index].kind
                let fileType: FileType
                switch kind {
                case .extension:
                    // An extension adds no stored property and no isolation: the type's declaration, if the
                    // file has one, says what it is.
                    fileType = .extended
                case .struct, .enum:
                    let inheritance = types[index].inheritance
                    if inheritance.contains(where: { context.span($0, isSpelled: "Sendable") }) {
                        fileType = .sendable
                    } else if Self.isPublic(types[index].prefix, context: context) || types[index].genericParameters != nil
                        || inheritance.contains(where: { context.span($0, isSpelled: "View") })
                    {
                        fileType = .unknown
                    } else {
                        fileType = .members(index: index)
                    }
                default:
                    fileType = .unknown
                }
                // A later declaration of the same name wins; any one without isolation makes the name actor-free.
                let entry = names.insert(name)
                let isActorFree =
                    (kind == .struct || kind == .enum || kind == .class && !Self.mayInheritIsolation(types[index], context: context))
                    && !isGlobalActorIsolated(types[index], context: context)
                if entry == fileTypes.count {
                    fileTypes.append(fileType)
                    actorFree.append(isActorFree)
                } else {
                    if kind != .extension { fileTypes[entry] = fileType }
                    if isActorFree { actorFree[entry] = true }
                }
            }
        }
        fileTypeNames = names
        answers.fileTypes = fileTypes
        actorFreeEntries = actorFree
    }

    /// Whether class `type` may have a superclass, whose global actor it would inherit: its first
    /// inheritance entry is not one of the protocols a class commonly starts with.
    private static func mayInheritIsolation(_ type: TypeDecl, context: SourceContext) -> Bool {
        guard let first = type.inheritance.first else { return false }
        if context.span(first, isSpelled: "@unchecked Sendable") { return false }
        return ![
            "ObservableObject", "Identifiable", "Hashable", "Equatable", "Sendable", "Codable", "Decodable", "Encodable",
            "CustomStringConvertible",
        ].contains { context.span(first, isSpelled: $0) }
    }

    /// Whether a same-file struct, enum or class (one without a superclass) without global-actor
    /// isolation is named `name` (its bytes).
    func isActorFreeType(named name: UnsafeBufferPointer<UInt8>) -> Bool {
        fileTypeNames.index(of: name).map { actorFreeEntries[$0] } ?? false
    }

    private static func isPublic(_ prefix: DeclarationPrefix, context: SourceContext) -> Bool {
        prefix.modifiers.contains { modifier in
            switch context.word(modifier.keyword) {
            case .public, .open, .package: return true
            default: return false
            }
        }
    }

    /// Answers already given, by type spelling, and what the same-file types
    /// have been found to be: the same few property types are asked about for
    /// every init of every type in the file.
    private let answers = AnswerCache()

    func isSendable(_ type: String) -> Bool {
        var type = type
        return type.withUTF8 { type in
            if let known = answers.spellings.index(of: type) { return answers.spellings.value(at: known) }
            let answer = isSendable(type.trimmingSpaces)
            let (index, inserted) = answers.spellings.insert(type, answer)
            if !inserted { answers.spellings.setValue(answer, at: index) }
            return answer
        }
    }

    private func isSendable(_ type: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = type.first, let last = type.last else { return false }
        if first == UInt8(ascii: "@") {
            // A function type: `@Sendable`, or (SE-0434, Swift 6) isolated to a global actor.
            let attributes = leadingTypeAttributes(String(decoding: type, as: UTF8.self))
            return attributes.contains("Sendable") || context.swiftVersion == .swift6 && attributes.contains(where: isGlobalActorName)
        }
        if last == UInt8(ascii: "?") || last == UInt8(ascii: "!") {
            return isSendable(type.dropping(first: 0, last: 1))
        }
        if first == UInt8(ascii: "["), last == UInt8(ascii: "]") {
            return type.dropping(first: 1, last: 1).allTopLevelParts(separatedBy: UInt8(ascii: ":")) {
                isSendable($0.trimmingSpaces)
            }
        }
        if first == UInt8(ascii: "("), last == UInt8(ascii: ")") {
            return type.dropping(first: 1, last: 1).allTopLevelParts(separatedBy: UInt8(ascii: ",")) {
                isSendable($0.afterLabel.trimmingSpaces)
            }
        }
        if last == UInt8(ascii: ">"), let open = type.firstIndex(of: UInt8(ascii: "<")) {
            let base = type.dropping(first: 0, last: type.count - open)
            let arguments = type.dropping(first: open + 1, last: 1)
            func allArgumentsAreSendable() -> Bool {
                arguments.allTopLevelParts(separatedBy: UInt8(ascii: ",")) { isSendable($0.trimmingSpaces) }
            }
            if base.isSpelled("Optional") || base.isSpelled("Array") || base.isSpelled("Dictionary") || base.isSpelled("Set") {
                return allArgumentsAreSendable()
            }
            // A wrapper's storage: as its declaration says (global-actor isolated types are Sendable).
            switch context.wrapper(named: base)?.sendable {
            case .always: return true
            case .whenArgumentsAre: return allArgumentsAreSendable()
            case .unknown, nil: return false
            }
        }
        if Self.standardValueTypes.contains(type) { return true }
        guard let entry = fileTypeNames.index(of: type), !isExtendedOnly(entry) else {
            if let shape = context.wrapper(named: type), shape.sendable == .always { return true }
            // An SDK value type of the static members catalog (`Color`, `CGSize`, `EditMode`, …).
            return context.isSDKValueType(named: type)
        }
        guard case .members(let index) = answers.fileTypes[entry] else {
            if case .sendable = answers.fileTypes[entry] { return true }
            return false // unknown, or being read (a cycle)
        }
        answers.fileTypes[entry] = .reading(index: index)
        let answer = membersAreSendable(types[index].body!.items)
        // A "yes" holds whatever else is being read (a cycle only ever makes an answer "no"); a member
        // without a readable type makes it "no" for good.
        answers.fileTypes[entry] = answer == true ? .sendable : answer == nil ? .unknown : .members(index: index)
        return answer == true
    }

    private func isExtendedOnly(_ entry: Int) -> Bool {
        if case .extended = answers.fileTypes[entry] { return true }
        return false
    }

    /// Whether the types stored by `items` (stored properties, enum payloads) are all Sendable; nil when one
    /// of them has no written or certain type. Asked in order; a "no" ends the reading.
    private func membersAreSendable(_ items: SyntaxList<Item>) -> Bool? {
        for item in items {
            guard let answer = storesOnlySendable(item) else { return nil }
            if !answer { return false }
        }
        return true
    }

    /// Whether the types `item` stores are Sendable; nil when one of them has no written or certain type.
    private func storesOnlySendable(_ item: borrowing Item) -> Bool? {
        switch item {
        case .variable(let variable):
            if context.hasModifier(.static, in: variable.prefix) { return true }
            for binding in variable.bindings {
                if let accessors = binding.accessors, case .getter = accessors.content { continue }
                if let accessors = binding.accessors, case .accessors(let list) = accessors.content,
                    list.contains(where: { [.get, .set, ._modify, ._read].contains(context.word($0.keyword)) })
                {
                    continue
                }
                if !variable.prefix.attributes.isEmpty { return nil }
                if let span = binding.type {
                    // A type has no `$x` to rewrite: its text is its bytes (not trimmed).
                    guard !span.isEmpty else { return false }
                    let tokens = context.tree.tokens
                    let sendable = context.bytes.withUnsafeBufferPointer { bytes in
                        isSendable(UnsafeBufferPointer(rebasing: bytes[tokens[span.lower].start..<tokens[span.upper - 1].end]))
                    }
                    if !sendable { return false }
                } else if let initializer = binding.initializer, var type = context.inferredType(of: initializer) {
                    if !type.withUTF8({ isSendable($0) }) { return false }
                } else {
                    return nil
                }
            }
        case .other(let other) where other.kind == .enumCase:
            // Payloads would need their types; cases without payloads are Sendable.
            if context.text(TokenSpan(other.keyword, other.span.upper)).contains("(") { return nil }
        case .ifConfig:
            return nil
        default:
            break
        }
        return true
    }
}

/// A type's spelling, or a piece of one, taken apart on its UTF-8 bytes.
private extension UnsafeBufferPointer<UInt8> {
    func dropping(first: Int, last: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[first..<count - last])
    }

    func isSpelled(_ spelling: StaticString) -> Bool {
        spelling.withUTF8Buffer { sameBytes(self, $0) }
    }

    /// Without spaces and tabs around it.
    var trimmingSpaces: UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = count
        while start < end && (self[start] == UInt8(ascii: " ") || self[start] == UInt8(ascii: "\t")) { start += 1 }
        while end > start && (self[end - 1] == UInt8(ascii: " ") || self[end - 1] == UInt8(ascii: "\t")) { end -= 1 }
        return UnsafeBufferPointer(rebasing: self[start..<end])
    }

    /// A tuple element's type: after `label:` if there is one (as `split(separator: ":", maxSplits: 1)[1]`
    /// would take it: colons before the label are skipped; nothing after the colon gives nothing).
    var afterLabel: UnsafeBufferPointer<UInt8> {
        let colon = UInt8(ascii: ":")
        var start = 0
        while start < count && self[start] == colon { start += 1 }
        guard start > 0 || firstIndex(of: colon) != nil else { return self }
        guard let separator = self[start...].firstIndex(of: colon) else { return dropping(first: count, last: 0) }
        return dropping(first: separator + 1, last: 0)
    }

    /// Whether `isTrue` holds for every part between `separator`s outside brackets, parentheses
    /// and angle brackets, asked in order until one does not (`splitTopLevel` collects them).
    func allTopLevelParts(separatedBy separator: UInt8, _ isTrue: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var depth = 0
        var start = 0
        for index in 0..<count {
            switch self[index] {
            case UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ">"), UInt8(ascii: "]"), UInt8(ascii: ")"): depth -= 1
            case separator where depth == 0:
                guard isTrue(UnsafeBufferPointer(rebasing: self[start..<index])) else { return false }
                start = index + 1
            default: break
            }
        }
        return isTrue(UnsafeBufferPointer(rebasing: self[start..<count]))
    }
}

/// Splits at `separator` outside brackets, parentheses and angle brackets.
/// On UTF-8 bytes: the separator and the brackets are ASCII, so a split never
/// falls inside a character (and Character iteration costs more than the rest).
func splitTopLevel(_ text: String, on separator: Unicode.Scalar) -> [String] {
    guard separator.isASCII else { return [text] }
    var text = text
    return text.withUTF8 { bytes in
        var parts: [String] = []
        _ = bytes.allTopLevelParts(separatedBy: UInt8(separator.value)) { part in
            parts.append(String(decoding: part, as: UTF8.self))
            return true
        }
        return parts
    }
}

/// A memo shared by the copies of one oracle (it is passed by value). Its
/// accesses are left unchecked by the exclusivity runtime (a call each,
/// for every question): each is a single read or write
/// that nothing else runs inside.
private final class AnswerCache {
    /// Room for the few dozen types of a file, so the table does not grow step by step.
    @exclusivity(unchecked) var spellings = ByteTable<Bool>(capacity: 64)
    /// What has been found out about the same-file types, by their index in `fileTypeNames`.
    @exclusivity(unchecked) var fileTypes: [SendableOracle.FileType] = []
}
