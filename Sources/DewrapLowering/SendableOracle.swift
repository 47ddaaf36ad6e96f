import DewrapSyntax

/// Answers "is this type certainly Sendable?" from its spelling and the
/// structs and enums declared in the same file. Unknown means no (SPEC L-4:
/// generated inits then stay isolated, which is the safe side).
struct SendableOracle {
    private let context: SourceContext
    /// Same-file value types: name → the types of their stored properties (nil: not known to be Sendable).
    private var fileTypes: [String: [String]?] = [:]
    /// Same-file structs and enums without global-actor isolation: calling their inits needs no actor.
    private(set) var actorFreeTypes: Set<String> = []

    /// Value types of the standard library and Foundation: Sendable, with nonisolated inits and members.
    static let standardValueTypes: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
        "Bool", "String", "Character", "Substring", "Date", "UUID", "URL", "Data", "Decimal", "Never", "Void",
    ]

    init(context: SourceContext) {
        self.context = context
        var types: [String: [String]?] = [:]
        var actorFree: Set<String> = []
        context.tree.forEachItem { item in
            guard case .type(let type) = item, let body = type.body else { return }
            let name = context.text(type.name)
            let inherits = type.inheritance.map { context.text($0) }
            let isPublic = type.prefix.modifiers.contains { ["public", "open", "package"].contains(context.text($0.keyword)) }
            if (type.kind == .struct || type.kind == .enum) && !isGlobalActorIsolated(type, context: context) {
                actorFree.insert(name)
            }
            switch type.kind {
            case .struct, .enum:
                if inherits.contains("Sendable") {
                    types[name] = .some([])
                } else if isPublic || type.genericParameters != nil || inherits.contains("View") {
                    types[name] = .some(nil)
                } else {
                    types[name] = .some(storedTypes(of: body.items, context: context))
                }
            default:
                types[name] = .some(nil)
            }
        }
        fileTypes = types
        actorFreeTypes = actorFree
    }

    /// Answers already given, by type spelling: the same few property types
    /// are asked about for every init of every type in the file.
    private let answers = AnswerCache()

    func isSendable(_ type: String) -> Bool {
        if let known = answers.results[type] { return known }
        var visiting: Set<String> = []
        let answer = isSendable(type.trimmingSpaces, visiting: &visiting)
        answers.results[type] = answer
        return answer
    }

    private func isSendable(_ type: String, visiting: inout Set<String>) -> Bool {
        if type.hasSuffix("?") || type.hasSuffix("!") { return isSendable(String(type.dropLast()), visiting: &visiting) }
        if type.hasPrefix("["), type.hasSuffix("]") {
            let inner = String(type.dropFirst().dropLast())
            return splitTopLevel(inner, on: ":").allSatisfy { isSendable($0.trimmingSpaces, visiting: &visiting) }
        }
        if type.hasPrefix("("), type.hasSuffix(")") {
            let inner = String(type.dropFirst().dropLast())
            return splitTopLevel(inner, on: ",").allSatisfy { element in
                let part = element.contains(":") ? String(element.split(separator: ":", maxSplits: 1)[1]) : element
                return isSendable(part.trimmingSpaces, visiting: &visiting)
            }
        }
        if let open = type.firstIndex(of: "<"), type.hasSuffix(">") {
            let base = String(type[..<open])
            let arguments = splitTopLevel(String(type[type.index(after: open)..<type.index(before: type.endIndex)]), on: ",")
            if ["Optional", "Array", "Dictionary", "Set"].contains(base) {
                return arguments.allSatisfy { isSendable($0.trimmingSpaces, visiting: &visiting) }
            }
            // A wrapper's storage: as its declaration says (global-actor isolated types are Sendable).
            switch context.shapes.shape(named: base)?.sendable {
            case .always: return true
            case .whenArgumentsAre: return arguments.allSatisfy { isSendable($0.trimmingSpaces, visiting: &visiting) }
            case .unknown, nil: return false
            }
        }
        if Self.standardValueTypes.contains(type) { return true }
        if fileTypes[type] == nil, let shape = context.shapes.shape(named: type), shape.sendable == .always { return true }
        guard let entry = fileTypes[type], let stored = entry, !visiting.contains(type) else { return false }
        visiting.insert(type)
        defer { visiting.remove(type) }
        return stored.allSatisfy { isSendable($0, visiting: &visiting) }
    }
}

/// The types of the stored properties (or enum payloads) of a same-file type;
/// nil when one of them has no written or certain type.
private func storedTypes(of items: [Item], context: SourceContext) -> [String]? {
    var types: [String] = []
    for item in items {
        switch item {
        case .variable(let variable):
            let modifiers = variable.prefix.modifiers.map { context.text($0.keyword) }
            if modifiers.contains("static") { continue }
            for binding in variable.bindings {
                if let accessors = binding.accessors, case .getter = accessors.content { continue }
                if let accessors = binding.accessors, case .accessors(let list) = accessors.content,
                   list.contains(where: { ["get", "set", "_modify", "_read"].contains(context.text($0.keyword)) }) { continue }
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
func splitTopLevel(_ text: String, on separator: Character) -> [String] {
    var parts: [String] = []
    var current = ""
    var depth = 0
    for character in text {
        switch character {
        case "<", "[", "(": depth += 1
        case ">", "]", ")": depth -= 1
        default: break
        }
        if character == separator && depth == 0 {
            parts.append(current)
            current = ""
        } else {
            current.append(character)
        }
    }
    parts.append(current)
    return parts
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while scalars.first == " " || scalars.first == "\t" { scalars = scalars.dropFirst() }
        while scalars.last == " " || scalars.last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}

/// A memo shared by the copies of one oracle (it is passed by value).
private final class AnswerCache {
    var results: [String: Bool] = [:]
}
