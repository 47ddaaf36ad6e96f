import DewrapSyntax

// `@Bindable var store = store` in a view's `body` (Apple's own pattern for an `@Observable` model
// from `@Environment` or a parameter): a wrapped local whose initial value is a name. The local
// is not in scope in its own initial value, so the name is what the code around sees: a
// parameter or local of the enclosing functions and closures, else a property of the enclosing
// type. Its type is read from that declaration, where it is certain.

extension SourceContext {
    /// The type of the initial value of a wrapped local when that value is a bare name `x` or
    /// `self.x`: nil for any other value, `.some(nil)` where the type is not certain. Read from
    /// - a parameter of an enclosing function or initializer with a written type, when `x` is a
    ///   bare name and no nearer local declares it;
    /// - else a property `x` of the innermost enclosing type, from an instance member (not a
    ///   static one): a wrapped one's wrapped type as its analysis reads it, another's written
    ///   type or certain initial value. Declared once in the type's body, or only in extensions of
    ///   it in this file.
    /// Any other declaration of `x` that the scopes see (a local, a closure parameter, a name bound
    /// by `if let`) makes it uncertain.
    func localInitialValueType(_ initializer: TokenSpan) -> String?? {
        let tokens = tree.tokens
        let name: Int
        switch initializer.upper - initializer.lower {
        case 1 where tokens[initializer.lower].kind == .identifier:
            name = initializer.lower
            if let local = tree.nearestLocalName(at: name, where: { $0.implicitName == nil && token($0.token, isSpelledLike: name) }) {
                return .some(local.kind == .parameter ? parameterType(local.token) : nil)
            }
        case 3
        where word(initializer.lower) == .self && tokens[initializer.lower + 1].kind == .period
            && tokens[initializer.lower + 2].kind == .identifier:
            name = initializer.lower + 2
        default:
            return nil
        }
        return .some(memberType(of: name))
    }

    /// Whether the tokens `a` and `b` are spelled alike.
    private func token(_ a: Int, isSpelledLike b: Int) -> Bool {
        token(a, isSpelled: bytes[tree.tokens[b].range])
    }

    /// The written type of the parameter named by the token `parameter` (`store: Store`), as the
    /// parser read it. Nil for a type an argument does not have as written (`inout T`, `T...`, an
    /// attribute's `@escaping`) or an opaque one.
    private func parameterType(_ parameter: Int) -> String? {
        guard let type = tree.parameter(named: parameter)?.type else { return nil }
        let text = typeText(typeTokens(self.text(type)))
        guard !text.hasPrefix("inout"), !text.hasPrefix("@"), !text.hasSuffix("..."), !text.hasPrefix("some ") else { return nil }
        return text
    }

    /// The type of the property named by the token `name` of the innermost type around it, read
    /// from an instance member of that type (see `localInitialValueType`).
    private func memberType(of name: Int) -> String? {
        // The innermost type whose body holds the name.
        let types = tree.typeDeclarations
        var enclosing: TypeDecl?
        for type in types {
            guard let body = type.body, body.open < name, name < (body.close ?? tree.tokens.count) else { continue }
            if let found = enclosing, let foundBody = found.body, foundBody.open > body.open { continue }
            enclosing = type
        }
        guard let type = enclosing else { return nil }
        // The member the name is used in: an instance member's code sees instance properties.
        var inStaticMember = true
        func visitMembers(_ items: SyntaxList<Item>, _ action: (Item) -> Void) {
            for item in items {
                if case .ifConfig(let ifConfig) = item {
                    for clause in ifConfig.clauses { visitMembers(clause.items, action) }
                } else {
                    action(item)
                }
            }
        }
        visitMembers(type.members) { item in
            guard item.span.lower <= name && name < item.span.upper else { return }
            switch item {
            case .variable(let variable): inStaticMember = isStatic(variable.prefix)
            case .function(let function): inStaticMember = isStatic(function.prefix)
            default: break
            }
        }
        guard !inStaticMember else { return nil }
        // The property in the type's own body (or, for an extension, in the body of the type it extends).
        let typeName = text(type.name)
        var declarations: [TypeDecl] = [type]
        if type.kind == .extension {
            declarations = types.filter { $0.kind != .extension && $0.genericParameters == nil && text($0.name) == typeName }
        }
        var found: [(VariableDecl, PatternBinding)] = []
        for declaration in declarations {
            visitMembers(declaration.members) { item in
                guard case .variable(let variable) = item, !isStatic(variable.prefix) else { return }
                for binding in variable.bindings where binding.name.map({ token($0, isSpelledLike: name) }) == true {
                    found.append((variable, binding))
                }
            }
        }
        guard declarations.count <= 1 else { return nil }
        if found.isEmpty {
            // Declared only in an extension of the type: the file's declarations give it.
            return instanceValueType(text(name), of: lastComponent(typeName))
        }
        guard found.count == 1, let (variable, binding) = found.first else { return nil }
        if variable.prefix.attributes.contains(where: { wrapper(of: $0) != nil }) {
            let verdict = analyzeProperty(variable, in: ContainerKind(declarations[0].kind), placement: nil, context: self)
            guard case .lower(let property) = verdict else { return nil }
            return property.valueType
        }
        if let type = binding.type { return typeText(typeTokens(text(type))) }
        return binding.initializer.flatMap { inferredType(of: $0) }
    }
}
