import DewrapSyntax

/// Answers "is this type certainly Sendable?" from its spelling and the
/// structs and enums declared in the same file. Unknown means no (SPEC L-4:
/// generated inits then stay isolated, which is the safe side).
struct SendableOracle {
    private let context: SourceContext

    /// What a same-file type says about being Sendable, as far as it has been read.
    fileprivate enum FileType {
        /// Declared `Sendable`, or found Sendable.
        case sendable
        /// Public, generic, a view, or not a value type: not known to be Sendable.
        case unknown
        /// Sendable when the types of its stored properties are; read when first asked.
        case members([Item])
        /// Those types, read (nil: one of them has no written or certain type).
        case stored([String]?)
    }
    /// Same-file structs and enums without global-actor isolation: calling their inits needs no actor.
    /// (Names asked about by their bytes: initializers are read token by token.)
    private(set) var actorFreeTypes: NameSet

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
        var fileTypes = [String: FileType](minimumCapacity: types.count)
        var actorFree = NameSet(capacity: types.count)
        for type in types {
            guard type.body != nil else { continue }
            let name = context.text(type.name)
            if (type.kind == .struct || type.kind == .enum) && !isGlobalActorIsolated(type, context: context) {
                actorFree.insert(name)
            }
            switch type.kind {
            case .struct, .enum:
                // Compared as bytes: a String for every inherited name costs more than the rest of this.
                if type.inheritance.contains(where: { context.span($0, isSpelled: "Sendable") }) {
                    fileTypes[name] = .sendable
                } else if Self.isPublic(type.prefix, context: context) || type.genericParameters != nil
                    || type.inheritance.contains(where: { context.span($0, isSpelled: "View") }) {
                    fileTypes[name] = .unknown
                } else {
                    fileTypes[name] = .members(type.body!.items)
                }
            default:
                fileTypes[name] = .unknown
            }
        }
        answers.fileTypes = fileTypes
        actorFreeTypes = actorFree
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
        if let known = answers.results[type] { return known }
        // The types being read, innermost last: a cycle through them makes the answer "no". Few: an array.
        var visiting: [String] = []
        let answer = isSendable(type.trimmingSpaces, visiting: &visiting)
        answers.results[type] = answer
        return answer
    }

    private func isSendable(_ type: String, visiting: inout [String]) -> Bool {
        // The delimiters are ASCII: first and last UTF-8 bytes, not Characters.
        let first = type.utf8.first
        let last = type.utf8.last
        if last == UInt8(ascii: "?") || last == UInt8(ascii: "!") { return isSendable(String(type.dropLast()), visiting: &visiting) }
        if first == UInt8(ascii: "["), last == UInt8(ascii: "]") {
            let inner = String(type.dropFirst().dropLast())
            return splitTopLevel(inner, on: ":").allSatisfy { isSendable($0.trimmingSpaces, visiting: &visiting) }
        }
        if first == UInt8(ascii: "("), last == UInt8(ascii: ")") {
            let inner = String(type.dropFirst().dropLast())
            return splitTopLevel(inner, on: ",").allSatisfy { element in
                let part = element.contains(":") ? String(element.split(separator: ":", maxSplits: 1)[1]) : element
                return isSendable(part.trimmingSpaces, visiting: &visiting)
            }
        }
        // Searched as UTF-8: `<` and `>` are ASCII, and a Character search costs far more.
        if last == UInt8(ascii: ">"), let open = type.utf8.firstIndex(of: UInt8(ascii: "<")) {
            let base = String(type[..<open])
            let inner = type[type.utf8.index(after: open)..<type.utf8.index(before: type.endIndex)]
            // Most generic types have one argument: no comma, nothing to split.
            let arguments = inner.utf8.contains(UInt8(ascii: ",")) ? splitTopLevel(String(inner), on: ",") : [String(inner)]
            switch base {
            case "Optional", "Array", "Dictionary", "Set":
                return arguments.allSatisfy { isSendable($0.trimmingSpaces, visiting: &visiting) }
            default:
                break
            }
            // A wrapper's storage: as its declaration says (global-actor isolated types are Sendable).
            switch context.wrapper(named: base)?.sendable {
            case .always: return true
            case .whenArgumentsAre: return arguments.allSatisfy { isSendable($0.trimmingSpaces, visiting: &visiting) }
            case .unknown, nil: return false
            }
        }
        if Self.standardValueTypes.contains(type) { return true }
        // One look-up finds the type and what is known of it; updates go to the same entry.
        guard let entry = answers.fileTypes.index(forKey: type) else {
            if let shape = context.wrapper(named: type), shape.sendable == .always { return true }
            return false
        }
        let stored: [String]?
        switch answers.fileTypes.values[entry] {
        case .unknown: return false
        case .sendable: return true
        case .stored(let known): stored = known
        case .members(let items):
            stored = storedTypes(of: items, context: context)
            answers.fileTypes.values[entry] = .stored(stored)
        }
        guard let stored, !visiting.contains(type) else { return false }
        visiting.append(type)
        defer { visiting.removeLast() }
        guard stored.allSatisfy({ isSendable($0, visiting: &visiting) }) else { return false }
        // A "yes" holds whatever else is being visited (a cycle only ever makes an answer "no").
        if let entry = answers.fileTypes.index(forKey: type) { answers.fileTypes.values[entry] = .sendable }
        return true
    }
}

/// The types of the stored properties (or enum payloads) of a same-file type;
/// nil when one of them has no written or certain type.
private func storedTypes(of items: [Item], context: SourceContext) -> [String]? {
    var types: [String] = []
    for item in items {
        switch item {
        case .variable(let variable):
            if context.hasModifier(.static, in: variable.prefix) { continue }
            for binding in variable.bindings {
                if let accessors = binding.accessors, case .getter = accessors.content { continue }
                if let accessors = binding.accessors, case .accessors(let list) = accessors.content,
                   list.contains(where: { [.get, .set, ._modify, ._read].contains(context.word($0.keyword)) }) { continue }
                if !variable.prefix.attributes.isEmpty { return nil }
                if let type = binding.type {
                    types.append(context.text(type))
                } else if let initializer = binding.initializer, let type = TypeInference(context: context).type(of: initializer) {
                    types.append(type)
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
            continue
        }
    }
    return types
}

/// Splits at `separator` outside brackets, parentheses and angle brackets.
/// On UTF-8 bytes: the separator and the brackets are ASCII, so a split never
/// falls inside a character (and Character iteration costs more than the rest).
func splitTopLevel(_ text: String, on separator: Unicode.Scalar) -> [String] {
    guard separator.isASCII else { return [text] }
    let mark = UInt8(separator.value)
    var parts: [String] = []
    var depth = 0
    let utf8 = text.utf8
    var start = utf8.startIndex
    var index = start
    while index != utf8.endIndex {
        let byte = utf8[index]
        switch byte {
        case UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "("): depth += 1
        case UInt8(ascii: ">"), UInt8(ascii: "]"), UInt8(ascii: ")"): depth -= 1
        default: break
        }
        if byte == mark && depth == 0 {
            parts.append(String(text[start..<index]))
            start = utf8.index(after: index)
        }
        index = utf8.index(after: index)
    }
    parts.append(String(text[start...]))
    return parts
}

extension String {
    var trimmingSpaces: String {
        // On UTF-8: a space or tab byte is always a whole character.
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        // Nearly always nothing to trim: two bytes looked at, no index searched for.
        guard let head = utf8.first, let tail = utf8.last, isSpace(head) || isSpace(tail) else { return self }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        let end = utf8.index(after: last)
        if first == startIndex && end == endIndex { return self }
        return String(self[first..<end])
    }
}

/// A memo shared by the copies of one oracle (it is passed by value).
private final class AnswerCache {
    /// Room for the few dozen types of a file, so the table does not grow step by step.
    var results = [String: Bool](minimumCapacity: 64)
    /// The same-file structs, enums and others by name, with what has been found out about them.
    var fileTypes: [String: SendableOracle.FileType] = [:]
}
