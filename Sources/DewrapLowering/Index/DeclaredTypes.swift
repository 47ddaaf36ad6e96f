import DewrapSyntax

// SPEC Decision 5, revised: a type is also certain when a declaration dewrap has
// says it, and only then. These are the file's own declarations: enum cases,
// static and global `let`/`var` with a written type or a certain initial value,
// static and global functions with a written return type. Two declarations of
// one name make it uncertain again.

/// The declarations of one file that initial values can name, indexed by name.
/// Made on first use: most initial values are literals or `T(…)`, read without it.
final class DeclarationIndex {
    /// A `let`/`var` whose type follows from its annotation or its initial value.
    struct Value {
        var type: TokenSpan?
        var initializer: TokenSpan?
        /// The type that declares it (for `Self`), nil for a global.
        var owner: String?
        /// `private` or `fileprivate`: other files cannot name it.
        var isPrivate = false
        /// `public` or `open` (or in a `public extension`): other modules can name it.
        var isPublic = false
    }

    /// A function with a written return type.
    struct Function {
        var returnType: TokenSpan
        var owner: String?
        var isPrivate = false
        var isPublic = false
    }

    /// A static subscript (sindresorhus/Defaults' `static subscript<Value>(key: Key<Value>) -> Value`,
    /// called `Defaults[.quality]`): one parameter, taken without an argument label.
    struct StaticSubscript {
        var parameterType: TokenSpan
        var genericParameters: [String]
        var returnType: TokenSpan
        var isPrivate = false
        var isPublic = false
    }

    /// The non-extension types declared `public` or `open` (other modules can name them).
    private(set) var publicTypes: Set<String> = []
    /// Non-extension types by simple name, with their kind; a name declared twice maps to nil.
    private(set) var types: [String: TypeKind?] = [:]
    /// The non-extension types declared `private` or `fileprivate`: no other file can name them, nor
    /// extend them, so only this file's declarations say what they have.
    private(set) var privateTypes: Set<String> = []
    /// The types declared `@resultBuilder` (`@ComponentBuilder var content` names one, not a wrapper).
    private(set) var resultBuilders: Set<String> = []
    /// Enum cases by enum name, then case name: whether the case has a payload.
    private(set) var cases: [String: [String: Bool]] = [:]
    /// Static members (`Type.name`) and globals (`""`), by owner and name; declared twice: nil.
    private(set) var values = MemberTable<Value>()
    /// Instance properties of non-generic types (their body and extensions), by owner and name;
    /// declared twice: nil.
    private(set) var instanceValues = MemberTable<Value>()
    /// Static functions and global functions with a written return type; overloaded: nil.
    private(set) var functions = MemberTable<Function>()
    /// Static subscripts by owner, under the name `subscriptName`; overloaded, or not of one unlabeled
    /// parameter: nil.
    private(set) var staticSubscripts = MemberTable<StaticSubscript>()
    static let subscriptName = "subscript"
    /// How deep look-ups are nested (a value's initial value names another declaration): cycles end here.
    var depth = 0
    /// The types whose member's initial value is being read, innermost last: a name written there
    /// without a qualifier may be one of the type's static members (`static let all = [classic]`).
    var owners: [String] = []
    /// The generic parameters' names of the generic non-extension types (`struct Factory<Format>`),
    /// by simple name: a member's type in an extension may name them.
    private(set) var typeGenericParameters: [String: [String]] = [:]
    /// The names a non-extension type inherits from (`class Key<Value>: _AnyKey` gives `_AnyKey`), each
    /// its last component, by simple name; a name declared twice maps to nil.
    private(set) var supertypes: [String: [String]?] = [:]
    /// Every name the file declares a type by, made on first use (see `declaresType(named:context:)`).
    private var typeNamesAnywhere: Set<String>?
    /// The names of the file's typealiases and associated types (top level or in a type's body) and
    /// of the types nested in generic types: type names `types` does not hold, which other files of
    /// the module may see too (`ModuleDeclarations.otherTypeNames`).
    private(set) var otherTypeNames: Set<String> = []

    init(context: SourceContext) {
        visit(context.tree.items, owner: nil, context: context)
    }

    /// `inPublicExtension`: members without an access of their own are public (`public extension T`).
    private func visit(_ items: SyntaxList<Item>, owner: String?, inPublicExtension: Bool = false, context: SourceContext) {
        func isPublic(_ prefix: DeclarationPrefix) -> Bool {
            let access = context.declaredAccessWord(prefix)
            return access == .public || access == .open || (access == nil && inPublicExtension)
        }
        for item in items {
            switch item {
            case .type(let type):
                let name = context.text(type.name)
                if type.kind != .extension {
                    let simple = lastComponent(name)
                    types.withUniqueEntry(type.kind, named: simple)
                    if isPublic(type.prefix) { publicTypes.insert(simple) }
                    if isPrivate(type.prefix, context) { privateTypes.insert(simple) }
                    if type.prefix.attributes.contains(where: { context.span($0.name, isSpelled: "resultBuilder") }) {
                        resultBuilders.insert(simple)
                    }
                    if let parameters = type.genericParameters {
                        typeGenericParameters[simple] = genericParameterNames(context.text(parameters))
                    }
                    if !type.inheritance.isEmpty {
                        let names = type.inheritance.compactMap { plainTypeName(context.text($0)) }
                        supertypes[simple] = supertypes[simple] == nil ? .some(names) : .some(nil)
                    }
                }
                guard let body = type.body else { continue }
                // A generic type's members have types in terms of its parameters: not read, its nested types' names
                // only, and its cases (a case is of the type itself: `AsyncViewState<Value>.loading`).
                guard type.genericParameters == nil else {
                    visitTypeNames(body.items, context: context)
                    if type.kind == .enum { visitCases(body.items, owner: lastComponent(name), context: context) }
                    continue
                }
                visit(
                    body.items, owner: lastComponent(name),
                    inPublicExtension: type.kind == .extension && isPublic(type.prefix), context: context)
            case .other(let other) where other.kind == .typealias || other.kind == .associatedtype:
                for name in other.names { otherTypeNames.insert(context.text(name)) }
            case .ifConfig(let ifConfig):
                // Only one branch is compiled: a name declared in two is counted twice (uncertain).
                for clause in ifConfig.clauses {
                    visit(clause.items, owner: owner, inPublicExtension: inPublicExtension, context: context)
                }
            case .other(let other) where other.kind == .enumCase:
                guard let owner else { continue }
                recordCases(other, owner: owner, context: context)
            case .variable(let variable):
                let isInstance = owner != nil && !context.isStatic(variable.prefix)
                for binding in variable.bindings {
                    guard let name = binding.name else { continue }
                    let key = owner ?? ""
                    let value = Value(
                        type: binding.type, initializer: binding.initializer, owner: owner, isPrivate: isPrivate(variable.prefix, context),
                        isPublic: isPublic(variable.prefix))
                    if isInstance {
                        instanceValues.record(value, named: context.declaredName(name), owner: key)
                    } else {
                        values.record(value, named: context.declaredName(name), owner: key)
                    }
                }
            case .function(let function) where function.kind == .function:
                guard owner == nil || context.isStatic(function.prefix), let name = function.name else { continue }
                let key = owner ?? ""
                let text = context.declaredName(name)
                // A generic function's return type may name its parameters (`func made<T>(…) -> T`): not certain.
                let entry =
                    function.genericParameters != nil
                    ? nil
                    : function.returnType.map {
                        Function(returnType: $0, owner: owner, isPrivate: isPrivate(function.prefix, context), isPublic: isPublic(function.prefix))
                    }
                functions.record(entry, named: text, owner: key)
            case .function(let function) where function.kind == .subscript:
                guard let owner, context.isStatic(function.prefix) else { continue }
                let parameters = Array(function.parameters)
                var entry: StaticSubscript?
                // `subscript(key: K)` and `subscript(_ key: K)` take no label at the call; `subscript(key k: K)` does.
                if parameters.count == 1, parameters[0].secondName == nil || parameters[0].firstName.map({ context.text($0) }) == "_",
                    let parameterType = parameters[0].type, let returnType = function.returnType
                {
                    entry = StaticSubscript(
                        parameterType: parameterType,
                        genericParameters: function.genericParameters.map { genericParameterNames(context.text($0)) } ?? [],
                        returnType: returnType, isPrivate: isPrivate(function.prefix, context), isPublic: isPublic(function.prefix))
                }
                staticSubscripts.record(entry, named: Self.subscriptName, owner: owner)
            default:
                continue
            }
        }
    }

    private func recordCases(_ declaration: OtherDecl, owner: String, context: SourceContext) {
        for name in declaration.names {
            let hasPayload = name + 1 < context.tree.tokens.count && context.tree.tokens[name + 1].kind == .leftParen
            cases[owner, default: [:]][context.declaredName(name)] = hasPayload
        }
    }

    /// The cases of a generic enum's body (`items`), in any `#if` branch.
    private func visitCases(_ items: SyntaxList<Item>, owner: String, context: SourceContext) {
        for item in items {
            switch item {
            case .other(let other) where other.kind == .enumCase: recordCases(other, owner: owner, context: context)
            case .ifConfig(let ifConfig): for clause in ifConfig.clauses { visitCases(clause.items, owner: owner, context: context) }
            default: continue
            }
        }
    }

    /// The names of the types, typealiases and associated types `items` declare, at any depth.
    private func visitTypeNames(_ items: SyntaxList<Item>, context: SourceContext) {
        for item in items {
            switch item {
            case .type(let type):
                if type.kind != .extension { otherTypeNames.insert(lastComponent(context.text(type.name))) }
                if let body = type.body { visitTypeNames(body.items, context: context) }
            case .ifConfig(let ifConfig):
                for clause in ifConfig.clauses { visitTypeNames(clause.items, context: context) }
            case .other(let other) where other.kind == .typealias || other.kind == .associatedtype:
                for name in other.names { otherTypeNames.insert(context.text(name)) }
            default:
                continue
            }
        }
    }

    private func isPrivate(_ prefix: DeclarationPrefix, _ context: SourceContext) -> Bool {
        let access = context.declaredAccessWord(prefix)
        return access == .private || access == .fileprivate
    }

    /// Whether the file declares a type by the name `name` anywhere: a struct, class, actor, enum or
    /// protocol at any depth (nested, in a generic type, local to a function), a typealias, an
    /// associated type, or a generic parameter of a type or function. Where it does, the name may
    /// mean that declaration, not the SDK's type of that name (`SDKStaticMemberCatalog`). The names
    /// are gathered on the first question, by one walk over the whole file: only the SDK catalog asks.
    func declaresType(named name: String, context: SourceContext) -> Bool {
        if let names = typeNamesAnywhere { return names.contains(name) }
        var names: Set<String> = []
        func addGenericParameters(_ span: TokenSpan?) {
            guard let span else { return }
            for parameter in genericParameterNames(context.text(span)) { names.insert(parameter) }
        }
        context.tree.forEachItem { item in
            switch item {
            case .type(let type):
                if type.kind != .extension { names.insert(lastComponent(context.text(type.name))) }
                addGenericParameters(type.genericParameters)
            case .function(let function):
                addGenericParameters(function.genericParameters)
            case .other(let other) where other.kind == .typealias || other.kind == .associatedtype:
                for name in other.names { names.insert(context.text(name)) }
            default:
                break
            }
        }
        typeNamesAnywhere = names
        return names.contains(name)
    }
}

/// The last component of a type written as dotted plain names (`Defaults._AnyKey`: `_AnyKey`); nil for
/// any other type (`@unchecked Sendable`, `Box<Int>`, `P & Q`).
func plainTypeName(_ text: String) -> String? {
    let tokens = typeTokens(text)
    return isDottedName(tokens[...]) ? tokens.last : nil
}

func lastComponent(_ name: String) -> String {
    // On the contiguous bytes: the generic search of `utf8.lastIndex(of:)` costs more than the rest.
    let tail: String?? = name.utf8.withContiguousStorageIfAvailable { bytes in
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[(dot + 1)...]), as: UTF8.self)
    }
    switch tail {
    case .some(.some(let component)): return component
    case .some(.none): return name
    case .none:
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")) else { return name }
        return String(name[name.utf8.index(after: dot)...])
    }
}

/// The file's typealiases (top level and type members, any `#if` branch) by name, with the aliased
/// type; a name declared twice maps to nil. Apart from `DeclarationIndex`: a memberwise init asks
/// for one whenever a property's type is a plain name, and this walk makes no String but theirs.
final class TypealiasIndex {
    private(set) var aliases: [String: TokenSpan?] = [:]

    init(context: SourceContext) {
        visit(context.tree.items, context: context)
    }

    private func visit(_ items: SyntaxList<Item>, context: SourceContext) {
        for item in items {
            switch item {
            case .type(let type):
                if let body = type.body { visit(body.items, context: context) }
            case .ifConfig(let ifConfig):
                for clause in ifConfig.clauses { visit(clause.items, context: context) }
            case .other(let other) where other.kind == .typealias:
                guard let declared = other.names.first,
                    let equal = (declared..<other.span.upper).first(where: { context.tree.tokens[$0].kind == .equal })
                else { continue }
                let name = context.text(declared)
                aliases[name] = aliases[name] == nil ? .some(TokenSpan(equal + 1, other.span.upper)) : .some(nil)
            default:
                continue
            }
        }
    }
}

extension SourceContext {
    /// The type of an initial value that names a declaration of this file: `Tab.home`
    /// (`Tab`), `Tab.detail(3)`, `Store.shared`, `Order.preview()`, `defaultScale`,
    /// `makeStore()`; or, for a type the file does not declare, a static member or case the SDK
    /// declares (`CGSize.zero`, `Color.red`, `Date.now`: `SDKStaticMemberCatalog`). Nil when no
    /// declaration, or more than one, says it.
    func declaredType(of span: TokenSpan) -> String? {
        let index = declarationIndex
        guard index.depth < 8, !span.isEmpty else { return nil }
        index.depth += 1
        defer { index.depth -= 1 }
        let tokens = tree.tokens
        // A dotted chain of names, then at most one call as the last thing.
        var names: [Int] = []
        var genericArguments: TokenSpan?
        var i = span.lower
        // A member's name after `.` may be a keyword (`PickedColor.default`, declared `` `default` ``).
        while i < span.upper, tokens[i].kind == .identifier || (!names.isEmpty && isKeywordMemberName(i)) {
            names.append(i)
            i += 1
            // `AsyncViewState<Value>.loading`: a generic type's arguments, written before its member.
            if genericArguments == nil, i < span.upper, tokens[i].kind == .binaryOperator || tokens[i].kind == .prefixOperator,
                token(i, hasPrefix: "<")
            {
                let end = angleEnd(from: i, limit: span.upper)
                guard end < span.upper, tokens[end].kind == .period, isTypeLike(TokenSpan(i, end), allowColon: true) else { return nil }
                genericArguments = TokenSpan(i, end)
                i = end
            }
            guard i < span.upper, tokens[i].kind == .period else { break }
            i += 1
        }
        var isCall = false
        if i < span.upper {
            guard tokens[i].kind == .leftParen, closingIndex(from: i) == span.upper - 1 else { return nil }
            isCall = true
        }
        guard !names.isEmpty, i == span.upper || isCall else { return nil }
        if let genericArguments {
            // Only a case of the generic enum just before the member (`Box<Int>.Kind.empty` is not read).
            guard names.count >= 2, genericArguments.lower == names[names.count - 2] + 1 else { return nil }
            return staticOrCaseType(names: names, isCall: isCall, genericArguments: genericArguments)
        }
        // A local of the same name (a parameter, a `let` in the body) is what the name means there.
        let first = bytes[tokens[names[0]].range]
        if tree.nearestLocalName(at: names[0], where: { token($0.token, isSpelled: first) }) != nil { return nil }
        let member = declaredName(names[names.count - 1])
        if names.count == 1 {
            // In a member's initial value, a static member of its type named without `Self.` (`static let
            // all = [classic]`): the type's own member, not a global of that name.
            if let owner = index.owners.last {
                let declared =
                    isCall
                    ? index.functions.entry(member, of: owner) != nil || moduleSources?.function(member, of: owner) != nil
                    : index.values.entry(member, of: owner) != nil || moduleSources?.value(member, of: owner) != nil
                if declared { return memberType(member, of: owner, isCall: isCall) }
            }
            // A global (or a static member of some type named without `Self.`: then uncertain).
            let declaredAsStatic =
                index.values.members.contains { $0.owner != "" && $0.name == member }
                || index.functions.members.contains { $0.owner != "" && $0.name == member }
                || moduleSources?.declaresStaticMember(named: member) == true
            guard !declaredAsStatic else { return nil }
            return memberType(member, of: "", isCall: isCall)
        }
        if !isCall, let type = staticOrCaseType(names: names, isCall: isCall) { return type }
        if !isCall { return instanceMemberType(base: TokenSpan(names[0], names[names.count - 2] + 1), member: names[names.count - 1]) }
        return staticOrCaseType(names: names, isCall: isCall)
    }

    /// A keyword written as a member's name after `.`: not `self` or `init`, which name no member.
    private func isKeywordMemberName(_ token: Int) -> Bool {
        tree.tokens[token].kind == .keyword && word(token) != .self && word(token) != .`init`
    }

    /// `A.B.member` (`names`): a static member or case of the type `A.B`, looked up by its last component.
    /// A generic type's only where its arguments are written (`genericArguments`, after its name) and the
    /// member is one of its cases (`AsyncViewState<Value>.loading`): that is the type, arguments and all.
    private func staticOrCaseType(names: [Int], isCall: Bool, genericArguments: TokenSpan? = nil) -> String? {
        let index = declarationIndex
        let member = declaredName(names[names.count - 1])
        let typeText = text(TokenSpan(names[0], genericArguments?.upper ?? names[names.count - 2] + 1))
        let typeName = text(names[names.count - 2])
        let isGeneric =
            index.typeGenericParameters[typeName] != nil || moduleSources?.genericParameters(ofType: typeName)?.isEmpty == false
        guard isGeneric == (genericArguments != nil) else { return nil }
        // Declared in this file, or else in another file of the module (if dewrap has them).
        var kind: TypeKind?
        switch (index.types[typeName], moduleSources?.type(named: typeName)) {
        case (.some(.none), _), (_, .some(.none)):
            return nil // two types of that name
        case (.some(.some(let declared)), _), (.none, .some(.some(let declared))):
            kind = declared
        case (.none, .none):
            guard genericArguments == nil else { return nil }
            // A type of another module: its static members declared in an extension here (or in another
            // file of the module) count; where none is declared, the SDK's, as the built-in catalog has them.
            let declared =
                isCall
                ? index.functions.entry(member, of: typeName) != nil || moduleSources?.function(member, of: typeName) != nil
                : index.values.entry(member, of: typeName) != nil || moduleSources?.value(member, of: typeName) != nil
            if !declared {
                return names.count == 2 ? sdkStaticMemberType(type: names[0], member: names[1], isCall: isCall) : nil
            }
        }
        if kind == .enum, let hasPayload = index.cases[typeName]?[member] ?? moduleSources?.enumCase(member, of: typeName) {
            return hasPayload == isCall ? typeText : nil
        }
        return isGeneric ? nil : memberType(member, of: typeName, isCall: isCall)
    }

    /// `a.b` or `A.shared.b` (`base.member`): the type of `member`, an instance property of the type
    /// `base` certainly has, when that is a type of the module without generic parameters and a
    /// declaration of the property there gives its type.
    private func instanceMemberType(base: TokenSpan, member: Int) -> String? {
        guard let baseType = declaredType(of: base), baseType.utf8.allSatisfy({ isASCIINameByte($0) || $0 >= 0x80 }) else {
            return nil
        }
        let index = declarationIndex
        let name = declaredName(member)
        switch (index.types[baseType], moduleSources?.type(named: baseType)) {
        case (.some(.some(let kind)), _), (.none, .some(.some(let kind))):
            guard kind != .protocol else { return nil }
        default:
            return nil // not a type of the module, or two of that name
        }
        return instanceValueType(name, of: baseType)
    }

    /// The type of the instance property `name` of the type `owner` (in its body or an extension):
    /// this file's declaration, which another file's makes uncertain unless it is private; else the
    /// module's other files'.
    func instanceValueType(_ name: String, of owner: String) -> String? {
        fileOrModule(
            declarationIndex.instanceValues.entry(name, of: owner), elsewhere: moduleSources?.instanceValue(name, of: owner),
            resolved: resolvedType(of:))
    }

    /// The type of the instance property `member` of the type `root` that a key path `\.member`
    /// names: this file's declaration (in the type or an extension of it), which another file's
    /// makes uncertain unless it is private; else the module's other files', else a dependency's
    /// public one (`--wrapper-sources`). Two declarations of one side make it uncertain (nil).
    func keyPathMemberType(_ member: String, of root: String) -> String? {
        fileOrModule(
            declarationIndex.instanceValues.entry(member, of: root), elsewhere: moduleSources?.keyPathMember(member, of: root),
            resolved: resolvedType(of:))
    }

    /// `Client.Value` for `Client.self` passed where a wrapper's init takes `Key.Type` with `Key: P`
    /// (`conformances`) and `Key.Value == Value` (swift-dependencies' `@Dependency(Client.self)`):
    /// the associated type `name` as the compiler infers it from `type`'s conformance, where that is
    /// certain. `type` is a struct or enum of this file or the module (a class may inherit a witness
    /// from its superclass), and no typealias, associated type or type named `name` is declared in
    /// the module (it might be an explicit witness, which is not read). Its own declarations of the
    /// properties that witness the protocols' requirements of that type (`static var testValue:
    /// Client`, `static let liveValue = Client()`) give it: at least one, their types agreeing. Nil
    /// otherwise.
    func associatedTypeWitness(_ name: String, of type: String, conformingTo conformances: [String]) -> String? {
        guard let witnesses = shapes.associatedTypeWitnesses(name, of: conformances) else { return nil }
        let index = declarationIndex
        switch (index.types[type], moduleSources?.type(named: type)) {
        case (.some(.some(let kind)), _), (.none, .some(.some(let kind))):
            guard kind == .struct || kind == .enum else { return nil }
        default:
            return nil // not a type of the module, or two of that name
        }
        guard index.types[name] == nil, !index.otherTypeNames.contains(name), moduleSources?.declaresOwnTypeOrAlias(named: name) != true
        else { return nil }
        // A private type of this file: another file's type of that name is another type.
        let module = index.privateTypes.contains(type) ? nil : moduleSources
        var found: String?
        for witness in witnesses {
            let local = witness.isStatic ? index.values.entry(witness.name, of: type) : index.instanceValues.entry(witness.name, of: type)
            let elsewhere = witness.isStatic ? module?.value(witness.name, of: type) : module?.instanceValue(witness.name, of: type)
            // Not declared: a protocol extension's implementation, which infers nothing.
            guard local != nil || elsewhere != nil else { continue }
            guard let witnessType = fileOrModule(local, elsewhere: elsewhere, resolved: resolvedType(of:)), found == nil || found == witnessType
            else { return nil }
            found = witnessType
        }
        return found
    }

    /// The type of the static member `name` of the type `owner` (in its body or an extension), called
    /// or named (`TimestampFormatFactory.iso8601(withMilliseconds: true)`), from the file, the module or
    /// the wrapper sources, when `owner` is declared once among them all (a wrapper's signature names
    /// its own module's type, which one of the same name in the other would shadow here) and the type
    /// names none of its generic parameters (`static var made: Factory<Format>` is no one type).
    func staticMemberType(_ name: String, of owner: String, isCall: Bool) -> String? {
        guard let parameters = genericParametersOfTypeDeclaredOnce(owner), let type = memberType(name, of: owner, isCall: isCall)
        else { return nil }
        return parameters.isEmpty || !typeTokens(type).contains(where: parameters.contains) ? type : nil
    }

    /// The generic parameters of the type `owner` (none for a non-generic one), when it is declared once
    /// among the file, the module and the wrapper sources; nil otherwise.
    private func genericParametersOfTypeDeclaredOnce(_ owner: String) -> [String]? {
        if let moduleSources { return moduleSources.genericParameters(ofType: owner) }
        guard case .some(.some) = declarationIndex.types[owner] else { return nil }
        return declarationIndex.typeGenericParameters[owner] ?? []
    }

    /// The type of the static `let`/`var` `name` of a superclass of `owner` (a subclass inherits it), declared
    /// in the superclass's body or an extension of it or of a typealias of it: sindresorhus/Defaults'
    /// `@Default(.popupPosition)` passes `.popupPosition` for a `Defaults.Key<Value>`, a `class Key<Value>:
    /// _AnyKey`, and the app declares `extension Defaults.Keys { static let popupPosition =
    /// Key<PopupPosition>(…) }`, where `typealias Keys = _AnyKey`. Three levels up at most; exactly one
    /// of the types declares it, and its type names none of `owner`'s generic parameters.
    func inheritedStaticMemberType(_ name: String, of owner: String) -> String? {
        let index = declarationIndex
        // Declared once among the module and its wrapper sources, as for `staticMemberType`.
        guard let parameters = genericParametersOfTypeDeclaredOnce(owner) else { return nil }
        func supertypes(of type: String) -> [String] {
            guard index.types[type] == nil else {
                if case .some(.some(let names)) = index.supertypes[type] { return names }
                return []
            }
            return moduleSources?.supertypes(ofType: type) ?? []
        }
        func aliasTarget(_ alias: String) -> String? { declaredAliasTargetText(alias).flatMap(plainTypeName) }
        var inherited: [String] = []
        var level = [owner]
        for _ in 0..<3 {
            let next = level.flatMap(supertypes(of:)).filter { $0 != owner && !inherited.contains($0) }
            guard !next.isEmpty else { break }
            inherited += next
            level = next
        }
        guard !inherited.isEmpty else { return nil }
        var owners = Set(index.values.members.lazy.filter { $0.owner != "" && $0.name == name }.map(\.owner))
        owners.formUnion(moduleSources?.staticValueOwners(named: name) ?? [])
        let declaring = owners.filter { inherited.contains($0) || aliasTarget($0).map(inherited.contains) == true }
        guard declaring.count == 1, let type = memberType(name, of: declaring.first!, isCall: false) else { return nil }
        return typeTokens(type).contains(where: parameters.contains) ? nil : type
    }

    /// Binds `parameters` in `pattern`, the tokens of a generic type (`Defaults.Key<Value>`, its `<` at
    /// `open`), from the declared type of the static member `member` that `.member` passes for it:
    /// declared on the type, or, not called, on a superclass (`inheritedStaticMemberType`). The
    /// declaration may name the type without its qualifier (`Key<PopupPosition>`), and is matched so too.
    func bindFromImplicitMember(
        _ member: String, isCall: Bool, of pattern: [String], open: Int, parameters: [String], bindings: inout [String: [String]]
    ) -> Bool {
        let owner = pattern[open - 1]
        guard let type = staticMemberType(member, of: owner, isCall: isCall) ?? (isCall ? nil : inheritedStaticMemberType(member, of: owner))
        else { return false }
        return matchType(typeText(pattern), type, parameters: parameters, bindings: &bindings)
            || open > 1 && matchType(typeText(Array(pattern[(open - 1)...])), type, parameters: parameters, bindings: &bindings)
    }

    /// The type of `Owner[.member]` through `Owner`'s one static subscript (sindresorhus/Defaults'
    /// `Defaults[.quality]`: `static subscript<Value>(key: Key<Value>) -> Value`, and the app's
    /// `extension Defaults.Keys { static let quality = Key<Double>(…) }` gives `Double`). The
    /// parameter's type must be a generic type of the subscript's parameters (`Key<Value>`), whose
    /// static member (or its superclass's, `inheritedStaticMemberType`) `member` is; the result is the
    /// return type with them bound. Declared in this file, or with a module, once among the module and
    /// its wrapper sources.
    func staticSubscriptType(_ span: TokenSpan) -> String? {
        let tokens = tree.tokens
        let i = span.lower
        guard span.upper - i == 5, tokens[i].kind == .identifier, tokens[i + 1].kind == .leftSquare, tokens[i + 2].kind == .period,
            tokens[i + 3].kind == .identifier, tokens[i + 4].kind == .rightSquare
        else { return nil }
        let owner = text(i)
        let first = bytes[tokens[i].range]
        if tree.nearestLocalName(at: i, where: { token($0.token, isSpelled: first) }) != nil { return nil }
        let declared: StaticSubscriptTypes
        if let moduleSources {
            guard case .some(.some(let types)) = moduleSources.staticSubscript(of: owner) else { return nil }
            declared = types
        } else {
            guard case .some(.some(let entry)) = declarationIndex.staticSubscripts.entry(DeclarationIndex.subscriptName, of: owner)
            else { return nil }
            declared = writtenTypes(of: entry)
        }
        // `Key<Value>` or `Defaults.Key<Value>`: the member's owner is `Key`.
        let pattern = typeTokens(declared.parameterType)
        guard let open = pattern.firstIndex(of: "<"), open >= 1, pattern.last == ">", isDottedName(pattern[..<open]) else { return nil }
        var bindings: [String: [String]] = [:]
        guard
            bindFromImplicitMember(
                declaredName(i + 3), isCall: false, of: pattern, open: open, parameters: declared.genericParameters, bindings: &bindings)
        else { return nil }
        let result = substitute(typeTokens(declared.returnType), bindings)
        guard !result.contains(where: { declared.genericParameters.contains($0) && bindings[$0] == nil }) else { return nil }
        return typeText(result)
    }

    /// The type of the static member (or, for owner `""`, the global) `name` called or named: this
    /// file's declaration, which another file's of the module makes uncertain unless it is private;
    /// else another file's.
    private func memberType(_ name: String, of owner: String, isCall: Bool) -> String? {
        let index = declarationIndex
        if isCall {
            return fileOrModule(index.functions.entry(name, of: owner), elsewhere: moduleSources?.function(name, of: owner)) {
                selfReplaced(text($0.returnType), owner: $0.owner)
            }
        }
        return fileOrModule(index.values.entry(name, of: owner), elsewhere: moduleSources?.value(name, of: owner), resolved: resolvedType(of:))
    }

    /// This file's declaration of a name (`local`: nil for none, `.some(nil)` for two), which another
    /// file's makes uncertain unless it is private; else the other files' answer (`elsewhere`).
    private func fileOrModule<Entry: DeclarationEntry>(
        _ local: Entry??, elsewhere: String??, resolved: (Entry) -> String?
    ) -> String? {
        if let local {
            guard let local, local.isPrivate || elsewhere != .some(nil) else { return nil }
            return resolved(local)
        }
        return elsewhere ?? nil
    }

    /// The type a value's declaration gives it: written, or certain from its initial value.
    func resolvedType(of value: DeclarationIndex.Value) -> String? {
        if let type = value.type { return selfReplaced(text(type), owner: value.owner) }
        guard let initializer = value.initializer else { return nil }
        // `static let initial = Self(x: 0)` (or `Self.init(…)`): the declaring type.
        if let owner = value.owner, word(initializer.lower) == .Self, initializer.upper > initializer.lower + 1 {
            var open = initializer.lower + 1
            if tree.tokens[open].kind == .period, open + 2 < initializer.upper, word(open + 1) == .`init` { open += 2 }
            if tree.tokens[open].kind == .leftParen, closingIndex(from: open) == initializer.upper - 1 { return owner }
            return nil
        }
        guard let owner = value.owner else { return inferredType(of: initializer) }
        let index = declarationIndex
        index.owners.append(owner)
        defer { index.owners.removeLast() }
        return inferredType(of: initializer)
    }

    /// A function's written return type, `Self` read as its type.
    func resolvedReturnType(of function: DeclarationIndex.Function) -> String? {
        selfReplaced(text(function.returnType), owner: function.owner)
    }

    /// `Self` (a whole type) names the declaring type; anything else holding it is not read, nor an
    /// opaque `some P` (a stored property cannot have one spelled out).
    private func selfReplaced(_ type: String, owner: String?) -> String? {
        if type == "Self" { return owner }
        // On bytes: `String.contains(_:)` of a String searches by Characters, most of what resolving
        // a module's values cost.
        var text = type
        let holdsSelf = text.withUTF8 { text in ("Self" as StaticString).withUTF8Buffer { DewrapLowering.bytes(text, contain: $0) } }
        return holdsSelf || type.hasPrefix("some ") ? nil : type
    }

    /// Whether a type that names `name` among what it inherits is `Encodable` (`decoding`: `Decodable`),
    /// through protocols and typealiases of the file, the module or the wrapper sources: a protocol
    /// refining one (`protocol JSONEncodable: Encodable`, in a file without a wrapper, which the shapes
    /// do not read), or a typealias naming one (pocket-casts' `typealias JSONCodable = JSONDecodable &
    /// JSONEncodable`). Only protocols are followed: a class inheriting a `Codable` class does not
    /// have its own properties coded by synthesis.
    func namesCodingProtocol(_ name: String, decoding: Bool) -> Bool {
        var seen: Set<String> = []
        var pending = [name]
        while let next = pending.popLast(), seen.count < 16 {
            guard seen.insert(next).inserted else { continue }
            if shapes.isCodingProtocol(next, decoding: decoding) { return true }
            // The SDK's protocols that views and models adopt refine no coding protocol: the module is not
            // asked about them (its first question reads every file's declarations).
            if notCodingProtocols.contains(next) { continue }
            // The module's declarations (this file's among them), or without a module the file's.
            if let kind = moduleSources.map({ $0.type(named: next) }) ?? declarationIndex.types[next] {
                guard kind == .protocol else { continue }
                if let moduleSources {
                    pending += moduleSources.supertypes(ofType: next) ?? []
                } else if case .some(.some(let names)) = declarationIndex.supertypes[next] {
                    pending += names
                }
            } else if let target = declaredAliasTargetText(next) {
                pending += inheritedNames(target)
            }
        }
        return false
    }

    /// The text of the type the typealias `name` names, of the module (declared once among its files,
    /// this one included) or, without a module, of this file.
    func declaredAliasTargetText(_ name: String) -> String? {
        if let moduleSources { return moduleSources.aliasTargetText(name) }
        guard case .some(.some(let aliased)) = typealiasIndex.aliases[name] else { return nil }
        return text(aliased)
    }
}

extension Dictionary {
    /// Sets `name` to `entry` if it has no value yet, else to nil: a name declared twice is uncertain.
    mutating func withUniqueEntry<Entry>(_ entry: Entry?, named name: Key) where Value == Entry? {
        if updateValue(entry, forKey: name) != nil { self[name] = .some(nil) }
    }
}

/// Protocols of the standard library, Foundation, Combine and SwiftUI that neither are nor refine
/// `Encodable` or `Decodable`, by their bytes.
let notCodingProtocols = NameSet(names: [
    "View", "ViewModifier", "App", "Scene", "Shape", "ObservableObject", "Observable", "DynamicProperty",
    "PreviewProvider", "Identifiable", "Hashable", "Equatable", "Comparable", "Sendable", "AnyObject", "Error",
    "LocalizedError", "CustomStringConvertible", "CustomDebugStringConvertible", "CaseIterable", "RawRepresentable",
    "EnvironmentKey", "PreferenceKey", "ButtonStyle", "ToggleStyle", "LabelStyle", "UIViewRepresentable",
    "NSViewRepresentable", "UIViewControllerRepresentable", "NSViewControllerRepresentable", "Animatable",
])
