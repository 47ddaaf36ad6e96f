import DewrapSyntax

/// Analysis: what can be lowered in one type, and the plan for it (`TypePlan`).
extension FileLowering {
    mutating func analyze(
        _ type: TypeDecl, body: Block, extensions: [TypeDecl], declaresCodingKeys: Bool, sendable: SendableOracle,
        leftNames: inout Set<String>
    ) -> TypePlan? {
        let container = ContainerKind(type.kind)
        var members: [Member] = []
        members.reserveCapacity(body.items.count)
        var initializers: [FunctionDecl] = []
        collectMembers(body.items, placement: nil, into: &members, initializers: &initializers)

        var properties: [WrappedProperty] = []
        var stored: [StoredProperty] = []
        // The plain stored properties matter only to a type with a wrapped one, and most types have
        // none: those before the first wrapped one are read when it is found, skipping the members
        // listed here (left as written or refused; rare).
        var notStored: [Int] = []
        var blocked = false
        /// Some wrapped properties are left as written, none the memberwise init would need.
        var leavesProperties = false
        var otherWrapper: Attribute?
        var unknownWrappers: [Attribute] = []
        // a static wrapped property in an extension of a protocol declared in this file.
        let extendsProtocol =
            type.kind == .extension
            && context.tree.items.contains { item in
                if case .type(let declared) = item { return declared.kind == .protocol && context.text(declared.name) == context.text(type.name) }
                return false
            }
        for (index, member) in members.enumerated() {
            let (declaration, placement) = (member.declaration, member.placement)
            if extendsProtocol, context.hasModifier(.static, in: declaration.prefix),
                declaration.prefix.attributes.contains(where: { context.wrapper(of: $0) != nil }),
                let name = declaration.bindings.first?.name
            {
                diagnostics.append(
                    Diagnostic(.error, at: context.tree.tokens[name].start, "static stored properties not supported in protocol extensions"))
                blocked = true
                notStored.append(index)
                continue
            }
            let verdict = analyzeProperty(declaration, in: container, placement: placement, context: context)
            if case .lower = verdict, properties.isEmpty {
                properties.reserveCapacity(members.count - index)
                stored.reserveCapacity(members.count)
                for earlier in 0..<index where !notStored.contains(earlier) {
                    appendPlainStoredProperties(members[earlier].declaration, placement: members[earlier].placement, to: &stored)
                }
            }
            switch verdict {
            case .lower(let property) where property.isStatic:
                properties.append(property)
            case .lower(let property):
                properties.append(property)
                stored.append(
                    StoredProperty(
                        name: property.spelledName, declaration: declaration, binding: declaration.bindings[0], wrapped: property,
                        type: property.valueType, isLet: false, access: property.access, placement: placement))
            case .leave(let diagnostic):
                diagnostics.append(diagnostic)
                // Per property: one the memberwise init leaves out (M-2) stays as written alone.
                if isOutsideMemberwiseInit(declaration) {
                    leavesProperties = true
                } else {
                    blocked = true
                }
                notStored.append(index)
                for binding in declaration.bindings { leftNames.insert(context.text(binding.pattern)) }
            case .notWrapped:
                if let unknown = declaration.prefix.attributes.first(where: { isUnknownWrapperCandidate($0, context: context) }) {
                    unknownWrappers.append(unknown)
                    // Its `$x` stays as written: not rewritten for a lowered property of the same name.
                    for binding in declaration.bindings { leftNames.insert(context.text(binding.pattern)) }
                    // Per property, as above: a wrapper dewrap does not have, on a property the memberwise init leaves out.
                    if isOutsideMemberwiseInit(declaration, wrapperKnown: false) {
                        leavesProperties = true
                        notStored.append(index)
                        continue
                    }
                    if otherWrapper == nil { otherWrapper = unknown }
                }
                if !properties.isEmpty { appendPlainStoredProperties(declaration, placement: placement, to: &stored) }
            }
        }
        /// Decision 7: each property with a wrapper dewrap does not have is left as written, and named.
        func noteUnknownWrappers() {
            for unknown in unknownWrappers {
                diagnostics.append(
                    Diagnostic(
                        .note, at: context.tree.tokens[unknown.atSign].start,
                        "'@\(attributeTypeName(unknown, context: context))' is left as written: \(appIntentsReason(unknown, context: context) ?? "dewrap does not have its declaration (give its source with --wrapper-sources)")"
                    ))
            }
        }
        guard !properties.isEmpty else {
            noteUnknownWrappers()
            return nil
        }
        if leavesProperties && otherWrapper == nil { noteUnknownWrappers() }
        var writesMemberwise = false
        // Static properties are not the memberwise init's: a struct that lowers only those keeps its own.
        if container == .struct && initializers.isEmpty && properties.contains(where: { !$0.isStatic }) {
            // The implicit memberwise init changes with every lowered property: write it out (Decision 3).
            if blocked {
                leftNames.formUnion(properties.map(\.name))
                return nil
            }
            if let otherWrapper {
                // Its storage and memberwise parameter would need that wrapper's API (Decision 7).
                let wrapperName = attributeTypeName(otherWrapper, context: context)
                let reason =
                    appIntentsReason(otherWrapper, context: context).map { "its '@\(wrapperName)' stays, as \($0)" }
                    ?? "dewrap does not have the declaration of '@\(wrapperName)' (give its source with --wrapper-sources)"
                diagnostics.append(
                    Diagnostic(
                        .note, at: context.tree.tokens[otherWrapper.atSign].start,
                        "'\(context.text(type.name))' is left as written: \(reason)"))
                leftNames.formUnion(properties.map(\.name))
                return nil
            }
            if let problem = memberwiseInitProblem(type: type, stored: stored, sendable: sendable, context: context) {
                diagnostics.append(problem)
                leftNames.formUnion(properties.map(\.name))
                return nil
            }
            writesMemberwise = true
        }
        if container == .class && !initializers.isEmpty && !inheritsOnlyProtocols(type) && !inheritsDeclaredClass(type)
            && initializersDependOnSuperclass(type, initializers, properties: properties, stored: stored)
        {
            diagnostics.append(
                Diagnostic(
                    .warning, at: context.tree.tokens[type.keyword].start,
                    "cannot lower '\(context.text(type.name))': assignments in its initializers depend on whether it has a superclass, which is not supported yet"
                ))
            leftNames.formUnion(properties.map(\.name))
            return nil
        }
        // A struct's inits in its extensions initialize its stored properties too (M-1, M-8 step 1).
        var extensionInitializers: [FunctionDecl] = []
        if container == .struct {
            for typeExtension in extensions {
                var ignored: [Member] = []
                collectMembers(typeExtension.members, placement: nil, into: &ignored, initializers: &extensionInitializers)
            }
            extensionInitializers.removeAll { isDelegating($0, context: context) }
        }
        if let clash = namesDeclaredDifferentlyInBranches(stored).first(where: { clash in
            (initializers + extensionInitializers).contains { mentions($0, clash.name) }
        }) {
            // An init's `self.x = v` would mean a different thing in each branch; the rewrite (N-1) has one.
            diagnostics.append(
                Diagnostic(
                    .warning, at: context.tree.tokens[clash.binding.pattern.lower].start,
                    "cannot lower '\(context.text(type.name))': '\(clash.name)' is declared differently in '#if' branches, and its initializers assign it, which is not supported yet"
                ))
            leftNames.formUnion(properties.map(\.name))
            return nil
        }
        if writesMemberwise, !extensionInitializers.isEmpty, let placed = stored.first(where: { $0.placement != nil }) {
            diagnostics.append(
                Diagnostic(
                    .warning, at: context.tree.tokens[placed.declarationStart].start,
                    "cannot lower '\(context.text(type.name))': an init in its extension would start with initial values from an '#if' region, which is not supported yet"
                ))
            leftNames.formUnion(properties.map(\.name))
            return nil
        }
        var codingKeys: CodingKeysPlan?
        switch planCodingKeys(
            type: type, extensions: extensions, properties: properties, stored: stored, fileDeclaresCodingKeys: declaresCodingKeys,
            writesMemberwise: writesMemberwise, context: context)
        {
        case .unchanged:
            break
        case .plan(let plan):
            codingKeys = plan
        case .impossible(let diagnostic):
            diagnostics.append(diagnostic)
            leftNames.formUnion(properties.map(\.name))
            return nil
        }
        // K-4: `init(from:)` is written out only where the memberwise init takes declaration values away.
        if let decoder = codingKeys?.initFromDecoder {
            if !stored.contains(where: \.losesDeclarationValue) {
                codingKeys?.initFromDecoder = nil
            } else if let problem = initFromDecoderProblem(
                type: type, stored: stored, keyOrder: decoder.keyOrder, leavesProperties: leavesProperties, context: context)
            {
                diagnostics.append(problem)
                leftNames.formUnion(properties.map(\.name))
                return nil
            }
        }
        return TypePlan(
            type: type, container: container, properties: properties, writesMemberwise: writesMemberwise,
            leavesProperties: leavesProperties,
            isDerivedClass: container == .class && !inheritsOnlyProtocols(type),
            initializers: initializers, extensionInitializers: extensionInitializers, stored: stored,
            codingKeys: codingKeys)
    }

    /// Whether `name` is one of the tokens of an init's body.
    func mentions(_ initializer: FunctionDecl, _ name: String) -> Bool {
        guard let body = initializer.body, let close = body.close else { return false }
        let spelling = Array(name.utf8) // compared as bytes: no String per token
        return (body.open..<close).contains { context.tree.tokens[$0].kind == .identifier && context.token($0, isSpelled: spelling) }
    }

    /// The wrapped stored properties of `#if` branches whose names another branch declares without
    /// the same storage (a plain property, or another wrapper) or its value at the declaration.
    func namesDeclaredDifferentlyInBranches(_ stored: [StoredProperty]) -> [StoredProperty] {
        var result: [StoredProperty] = []
        for (index, property) in stored.enumerated() where property.placement != nil {
            for other in stored[(index + 1)...] where other.placement != nil && other.name == property.name {
                // Another storage, or one given its value at the declaration in one branch only.
                if property.wrapped?.storageType != other.wrapped?.storageType
                    || property.isInitializedAtDeclaration != other.isInitializedAtDeclaration
                {
                    result.append(property.wrapped != nil ? property : other)
                }
            }
        }
        return result
    }

    /// Whether the compiler's memberwise init leaves a wrapped property out (M-2): it is `private` or
    /// `fileprivate` and its storage is initialized at its declaration, by an initial value or by
    /// the wrapper attribute's arguments (`@Environment(\.dismiss) private var dismiss`). Only such a
    /// property can be left as written while the rest of its struct is lowered: the written-out
    /// memberwise init would otherwise need its type.
    func isOutsideMemberwiseInit(_ declaration: VariableDecl, wrapperKnown: Bool = true) -> Bool {
        guard let access = context.declaredAccess(declaration.prefix), access == "private" || access == "fileprivate",
            declaration.bindings.count == 1
        else { return false }
        return declaration.bindings[0].initializer != nil
            || declaration.prefix.attributes.contains {
                $0.innerArguments != nil && (wrapperKnown ? context.wrapper(of: $0) != nil : isUnknownWrapperCandidate($0, context: context))
            }
    }

    /// Whether a class's inheritance clause names no superclass: a superclass must come first, so it
    /// is enough that the first entry is a protocol, one of the standard library's or SwiftUI's that
    /// classes adopt, or one declared in the input or `--wrapper-sources`. Such a class is a root
    /// class (its inits have no `super.init` to call).
    func inheritsOnlyProtocols(_ type: TypeDecl) -> Bool {
        guard let first = type.inheritance.first else { return true }
        return inheritedNames(first, context: context).allSatisfy { name in
            Self.knownProtocols.contains(name) || context.shapes.protocols[name] != nil || declaresProtocol(named: name)
        }
    }

    /// Whether this file or another file of the module declares a protocol named `name` (by one
    /// declaration): a class whose first inheritance entry it is has no superclass (Fluent's
    /// `final class Planet: Model`, with `Model` a protocol of the module).
    private func declaresProtocol(named name: String) -> Bool {
        declaredKind(of: name) == .protocol
    }

    /// The kind of the type named `name` that this file, or else another file of the module,
    /// declares; nil when none does, or when more than one declaration gives it no one kind.
    private func declaredKind(of name: String) -> TypeKind? {
        if let kind = context.declarationIndex.types[name] { return kind }
        if let kind = context.moduleSources?.type(named: name) { return kind }
        return nil
    }

    /// Whether a class's first inheritance entry names a class declared in this file or another file
    /// of the module (by one declaration): then it certainly has that superclass.
    func inheritsDeclaredClass(_ type: TypeDecl) -> Bool {
        guard let first = type.inheritance.first else { return false }
        let names = inheritedNames(first, context: context)
        guard names.count == 1, let name = names.first else { return false }
        return declaredKind(of: name) == .class
    }

    /// Protocols of the standard library, Foundation, Combine and SwiftUI that a class may adopt.
    static let knownProtocols: Set<String> = [
        "ObservableObject", "Identifiable", "Hashable", "Equatable", "Comparable", "Codable", "Encodable", "Decodable",
        "Sendable", "AnyObject", "CustomStringConvertible", "CustomDebugStringConvertible", "Error", "LocalizedError",
        "CustomReflectable", "RawRepresentable", "CaseIterable", "Observable", "DynamicProperty",
    ]

    /// Whether the user inits' rewrite (N-1…N-4) would differ with a superclass and without: only
    /// then does dewrap need to know whether the class has one (an init that assigns no wrapped
    /// property before `self` is complete reads the same either way).
    func initializersDependOnSuperclass(
        _ type: TypeDecl, _ initializers: [FunctionDecl], properties: [WrappedProperty], stored: [StoredProperty]
    ) -> Bool {
        let qualification = StaticQualification(type: type)
        let wrapped = Dictionary(properties.filter { !$0.isStatic }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let required = Set(stored.filter { !$0.isInitializedAtDeclaration }.map { withoutBackticks($0.name) })
        var root = InitializerRewrite(
            context: context, required: required, wrapped: wrapped, isDerivedClass: false, qualification: qualification)
        var derived = InitializerRewrite(
            context: context, required: required, wrapped: wrapped, isDerivedClass: true, qualification: qualification)
        for initializer in initializers {
            if let body = initializer.body {
                root.rewrite(body)
                derived.rewrite(body)
            }
        }
        return root.edits.map(\.text) != derived.edits.map(\.text) || root.edits.map(\.start) != derived.edits.map(\.start)
            || root.diagnostics.map(\.message) != derived.diagnostics.map(\.message)
    }

    /// A variable declaration among a type's members, and the `#if` branch it sits in. A struct, not a
    /// tuple: an array of tuples is destroyed through the run time's generic tuple destroy, and builds
    /// the tuple's type metadata on first use.
    struct Member {
        var declaration: VariableDecl
        var placement: Placement?
    }

    func collectMembers(
        _ items: SyntaxList<Item>, placement: Placement?, into members: inout [Member],
        initializers: inout [FunctionDecl]
    ) {
        for item in items {
            switch item {
            case .variable(let variable):
                members.append(Member(declaration: variable, placement: placement))
            case .function(let function) where function.kind == .initializer:
                initializers.append(function)
            case .ifConfig(let ifConfig):
                for (index, clause) in ifConfig.clauses.enumerated() {
                    let inner = Placement(region: ifConfig, clause: index, nested: placement != nil)
                    collectMembers(clause.items, placement: inner, into: &members, initializers: &initializers)
                }
            default:
                continue
            }
        }
    }

    /// Appends the stored properties of a declaration without a catalog wrapper
    /// (to the type's list: an array per declaration would cost an allocation each).
    func appendPlainStoredProperties(
        _ declaration: VariableDecl, placement: Placement?, to result: inout [StoredProperty]
    ) {
        let prefix = declaration.prefix
        guard !context.hasModifier(.static, in: prefix) && !context.hasModifier(.class, in: prefix) else { return }
        let access = context.declaredAccess(prefix)
        let isLet = context.word(declaration.keyword) == .let
        let resultBuilder = prefix.attributes.isEmpty ? nil : prefix.attributes.first { context.isResultBuilder($0) }
        // By index, each binding's fields read in place: `for binding in declaration.bindings` copies each
        // binding, retaining and releasing its arrays.
        let isLazy = context.hasModifier(.lazy, in: prefix)
        for index in declaration.bindings.indices {
            var laziness: Laziness = isLazy ? .lazy : .notLazy
            if let accessors = declaration.bindings[index].accessors {
                switch accessors.content {
                case .getter: continue
                case .accessors(let list):
                    if list.contains(where: { context.word($0.keyword) != .willSet && context.word($0.keyword) != .didSet }) { continue }
                    if isLazy && !list.isEmpty { laziness = .lazyWithObservers }
                }
            }
            let binding = BindingTokens(declaration.bindings[index])
            var type = binding.type.map { context.text($0) }
            if type == nil, let initializer = binding.initializer {
                type = context.inferredType(of: initializer)
            }
            // A tuple pattern cannot be written out yet: no type makes the plan refuse it.
            if binding.name == nil { type = nil }
            result.append(
                StoredProperty(
                    name: context.text(binding.pattern), declaration: declaration, binding: declaration.bindings[index], wrapped: nil,
                    type: type, isLet: isLet, laziness: laziness, access: access, placement: placement,
                    resultBuilder: resultBuilder.map { TokenSpan($0.atSign, $0.name.upper) }))
        }
    }
}
