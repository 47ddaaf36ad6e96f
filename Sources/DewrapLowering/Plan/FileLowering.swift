import DewrapSyntax

/// One pass over the file's types: analyse, then decide names, then render.
struct FileLowering {
    private(set) var context: SourceContext
    var edits: [Edit] = []
    var diagnostics: [Diagnostic] = []
    let swiftVersion: SwiftLanguageMode

    /// A property's (or memberwise init's) edit in the file's edits, and its text in the buffer they are written to.
    struct PendingText {
        var edit: Int
        var text: Range<Int>
    }

    /// What lowering decided for one type.
    struct TypePlan {
        var type: TypeDecl
        var container: ContainerKind
        var properties: [WrappedProperty]
        /// The struct's memberwise init is written out.
        var writesMemberwise: Bool
        /// Wrapped properties of the type are left as written (none that the memberwise init includes).
        var leavesProperties: Bool
        /// A class that may have a superclass (its inheritance is not all protocols dewrap knows).
        var isDerivedClass: Bool
        var initializers: [FunctionDecl]
        /// A struct's non-delegating inits declared in extensions of it in this file (M-8 prologue, N-1…N-4).
        var extensionInitializers: [FunctionDecl]
        var stored: [StoredProperty]
        /// K-1: coding keys kept for synthesized `Codable`.
        var codingKeys: CodingKeysPlan?
    }

    /// Member properties lowered in the module's other files (`LoweringOptions.moduleProjections`).
    let moduleProjections: Set<String>
    /// Member names lowered in one of the module's files and left as written in another (`LoweringOptions.moduleAmbiguous`).
    let moduleAmbiguous: [String: AmbiguousProjection]
    /// What this file's lowering tells the module's other files.
    var projections = LoweringResult.Projections()

    /// Functions with wrapped parameters of the module's other files (`LoweringOptions.moduleCalls`).
    let moduleCalls: ModuleCalls?
    /// `LoweringOptions.moduleProjectionMembers`.
    let moduleProjectionMembers: [String: Set<String>]

    init(
        context: SourceContext, swiftVersion: SwiftLanguageMode = .swift6, moduleProjections: Set<String> = [],
        moduleAmbiguous: [String: AmbiguousProjection] = [:], moduleProjectionMembers: [String: Set<String>] = [:],
        moduleCalls: ModuleCalls? = nil
    ) {
        self.moduleProjectionMembers = moduleProjectionMembers
        self.context = context
        self.swiftVersion = swiftVersion
        self.moduleProjections = moduleProjections
        self.moduleAmbiguous = moduleAmbiguous
        self.moduleCalls = moduleCalls
    }

    mutating func run() {
        var plans: [TypePlan] = []
        var leftNames: Set<String> = []
        // The first token at or after each parse problem (binary search: tokens are sorted by offset).
        let tokens = context.tree.tokens
        let parseProblems = context.tree.diagnostics.map { problem in
            var low = 0
            var high = tokens.count
            while low < high {
                let middle = (low + high) / 2
                if tokens[middle].start < problem.offset { low = middle + 1 } else { high = middle }
            }
            return low < tokens.count ? low : 0
        }
        let types = context.tree.typeDeclarations
        var extensions: [String: [TypeDecl]] = [:]
        for type in types where type.kind == .extension {
            extensions[context.text(type.name), default: []].append(type)
        }
        let sendable = SendableOracle(context: context, types: types)
        // K-1 looks for a type's own `CodingKeys` only in a file that declares one (most declare none).
        let declaresCodingKeys = types.contains { type in
            type.kind == .enum && type.name.upper == type.name.lower + 1 && context.token(type.name.lower, isSpelled: "CodingKeys")
        }
        var brokenTypes: [TokenSpan] = []
        plans.reserveCapacity(types.count)
        for type in types {
            // A problem at the token right after the type (often the end of the file, for a
            // type that never closed) counts as inside it. A type inside a type left for a
            // problem is left too: lowering it could take away what made the parser read the
            // block with the problem (its attributes), and lowering the output would then find
            // no problem and lower the outer type (bin/fuzz found such a file).
            guard let body = type.body,
                !parseProblems.contains(where: { type.span.lower <= $0 && $0 <= type.span.upper }),
                !brokenTypes.contains(where: { $0.lower <= type.span.lower && type.span.upper <= $0.upper })
            else {
                brokenTypes.append(type.span)
                continue
            }
            // Without an `@` anywhere in it a type has no wrapped member, and analysing it finds nothing
            // and says nothing: scanning its tokens for one is much cheaper (most such types are short).
            guard containsAttribute(type.span, tokens: tokens) else { continue }
            // Most files extend nothing: no name made and hashed to find that out.
            let typeExtensions = type.kind == .extension || extensions.isEmpty ? [] : extensions[context.text(type.name)] ?? []
            if let plan = analyze(
                type, body: body, extensions: typeExtensions, declaresCodingKeys: declaresCodingKeys,
                sendable: sendable,
                leftNames: &leftNames)
            {
                plans.append(plan)
            }
        }
        // A `$x` in an App Intents attribute's arguments names a parameter of the intent, which stays as
        // written: it is neither rewritten nor counted against a lowered `x`, here or in the module.
        let appIntentsArguments = appIntentsAttributeArguments(context: context)
        func namesAnIntentParameter(_ reference: DollarReference) -> Bool {
            appIntentsArguments.contains { $0.lower <= reference.token && reference.token < $0.upper }
        }
        // The wrapped locals and parameters, which own the `$x` in their scopes (D-2). Found before the clash
        // check below, which does not count their `$x`; their diagnostics are added where they were.
        let localVariablesWrapped = localWrappedNameTokens(types: types)
        let locals = LocalWrappedVariables(context: context, parseProblems: parseProblems)
        let parameters = WrappedParameters(context: context, parseProblems: parseProblems, module: moduleCalls)
        let wrappedClosures = WrappedClosureParameters(context: context, parseProblems: parseProblems)
        let localWrapped = localVariablesWrapped.union(parameters.wrappedNames).union(wrappedClosures.wrappedNames)
        // `$x` is resolved by name, and a property left as written keeps its `$x`: a lowered property of the
        // same name, whose `$x` uses would then stay as they are and name nothing, is left as written too. A `$x`
        // that a closure parameter or a wrapped local owns names neither (and may be rewritten with its owner,
        // after which lowering the output again would find no clash: bin/fuzz found such a file).
        if !leftNames.isEmpty && !plans.isEmpty {
            var dollarNames: Set<String> = []
            for reference in context.tree.dollarReferences where !namesAnIntentParameter(reference) {
                let dollarName = context.bytes[context.tree.tokens[reference.token].range] // `$x`
                if localOwner(of: reference, spelled: dollarName, localWrapped: localWrapped) == nil {
                    dollarNames.insert(String(decoding: dollarName.dropFirst(), as: UTF8.self))
                }
            }
            var leaving = true
            while leaving {
                leaving = false
                plans.removeAll { plan in
                    guard
                        let clash = plan.properties.first(where: {
                            $0.projectedType != nil && leftNames.contains($0.name) && dollarNames.contains($0.name)
                        })
                    else { return false }
                    diagnostics.append(
                        Diagnostic(
                            .warning, at: tokens[clash.nameToken].start,
                            "cannot lower '\(context.text(plan.type.name))': its '$\(clash.name)' cannot be told apart from that of a property of the same name left as written"
                        ))
                    leftNames.formUnion(plan.properties.map(\.name))
                    leaving = true
                    return true
                }
            }
        }
        for index in plans.indices {
            if let codingKeys = plans[index].codingKeys { context.tokenEdits += codingKeys.tokenEdits }
        }

        // `$x` becomes `_$x` for every lowered name (D-1…D-3), unless a `$x`
        // closure parameter declares it or a same-named property stays wrapped.
        let propertyCount = plans.reduce(0) { $0 + $1.properties.count }
        var lowered = NameSet(capacity: propertyCount)
        // Plans are read by index here and below: `for plan in plans` copies each one.
        for index in plans.indices {
            for property in plans[index].properties where leftNames.isEmpty || !leftNames.contains(property.name) {
                lowered.insert(property.name)
                if !property.isStatic { projections.lowered.append(property.name) }
                if property.wrapper.projectsItself && !property.wrapper.wrappedMembers.isEmpty {
                    projections.projectionMembers[property.name, default: []].formUnion(property.wrapper.wrappedMembers)
                }
            }
        }
        let projectionMembers = moduleProjectionMembers.merging(projections.projectionMembers) { $0.union($1) }
        projections.left = leftNames.sorted()
        for name in moduleProjections where !leftNames.contains(name) { lowered.insert(name) }
        diagnostics += locals.diagnostics
        diagnostics += parameterRestrictions(context: context)
        diagnostics += parameters.diagnostics
        projections.functions = parameters.exported
        if let calls = parameters.moduleCalls {
            projections.called = calls.calls.map(\.function.name)
            projections.unmatched = calls.unmatched
        }
        diagnostics += wrappedClosures.diagnostics
        let loweredLocals = locals.loweredNames.union(parameters.loweredNames).union(wrappedClosures.loweredNames)
        // P-5: `ForEach($items) { $item in … }` over a lowered `[E]` property.
        // Only a closure with a signature can declare `$item`: without one the table is not needed.
        var memberTypes: [String: String] = [:]
        var clashing: Set<String> = []
        for index in plans.indices where context.tree.census.closureSignature {
            for property in plans[index].properties where !leftNames.contains(property.name) && !property.isStatic {
                if let known = memberTypes[property.name], known != property.valueType { clashing.insert(property.name) }
                memberTypes[property.name] = property.valueType
            }
        }
        for name in clashing { memberTypes[name] = nil }
        let closures = BindingClosureParameters(context: context, memberTypes: memberTypes, parseProblems: parseProblems)
        let loweredClosureParameters = closures.parameterTokens
        let tree = context.tree
        // The rewrites' texts (`_$x`) one after another in one buffer, which their edits slice once it is complete.
        var rewriteTexts = CodeText(capacity: 16 * tree.dollarReferences.count)
        // The rewritten tokens' indices: each one's text is `_` and its bytes, so where it lies in the buffer
        // follows from the lengths of those before it. (Tokens and ranges, five times the size, took
        // an allocation too large for malloc's fast path.)
        var rewrites: [Int] = []
        rewrites.reserveCapacity(tree.dollarReferences.count)
        func rewrite(_ index: Int) {
            // A literal and the source's bytes: no String looked into, no slice of the source made.
            rewriteTexts.write(literal: "_")
            rewriteTexts.write(context.bytes, tree.tokens[index].range)
            rewrites.append(index)
        }
        // A `$x` left as written that no local owns names a member `x` of another file, or of another
        // module. Where `x` is lowered in one file and left in another, it may name either (unless this
        // file leaves an `x` of its own: then, most likely, that one).
        func leaveUnresolved(_ reference: DollarReference, spelled dollarName: ArraySlice<UInt8>, checkingOwner: Bool) {
            let name = String(decoding: dollarName.dropFirst(), as: UTF8.self)
            projections.unresolved.append(name)
            guard !moduleAmbiguous.isEmpty, let ambiguity = moduleAmbiguous[name], !leftNames.contains(name),
                !checkingOwner || localOwner(of: reference, spelled: dollarName, localWrapped: localWrapped) == nil
            else { return }
            diagnostics.append(
                Diagnostic(
                    .warning, at: tree.tokens[reference.token].start,
                    "'$\(name)' is left as written, but '\(name)' is lowered in '\(ambiguity.loweredIn)' and left as written in '\(ambiguity.leftIn)': which of them it names cannot be told without types, and the lowered module may not compile"
                ))
        }
        for reference in tree.dollarReferences {
            // A type left alone for a parse problem keeps its `$x` too (lowering its output again changes nothing).
            if brokenTypes.contains(where: { $0.lower <= reference.token && reference.token <= $0.upper }) { continue }
            if namesAnIntentParameter(reference) { continue }
            if !projectionMembers.isEmpty, namesAProjectionMember(reference, projectionMembers) { continue }
            let token = tree.tokens[reference.token]
            let dollarName = context.bytes[token.range] // `$x`
            let loweredMember = context.bytes.withUnsafeBufferPointer {
                lowered.contains(UnsafeBufferPointer(rebasing: $0[token.start + 1..<token.end]))
            }
            guard loweredMember || !loweredLocals.isEmpty || !loweredClosureParameters.isEmpty else {
                leaveUnresolved(reference, spelled: dollarName, checkingOwner: true)
                continue
            }
            switch localOwner(of: reference, spelled: dollarName, localWrapped: localWrapped) {
            case .closureParameter(let parameter):
                // A `$x in` parameter owns `$x`; a lowered one's is `_$x` (P-5).
                if case .none = reference.qualifier, reference.token != parameter, loweredClosureParameters.contains(parameter) {
                    rewrite(reference.token)
                }
                continue
            case .wrappedLocal(let local):
                // D-2: a local wrapped variable `x` in scope owns an unqualified `$x`; a lowered one's is `_$x`.
                guard loweredLocals.contains(local) else { continue }
            case nil where !loweredMember:
                leaveUnresolved(reference, spelled: dollarName, checkingOwner: false)
                continue
            case nil:
                break // a lowered member's
            }
            rewrite(reference.token)
        }
        context.tokenEdits.reserveCapacity(context.tokenEdits.count + rewrites.count)
        let rewritten = rewriteTexts.slice
        var textStart = 0
        for index in rewrites {
            let token = tree.tokens[index]
            let textEnd = textStart + 1 + token.range.count
            context.tokenEdits.append(Edit(start: token.start, end: token.end, text: rewritten[textStart..<textEnd]))
            textStart = textEnd
        }
        context.tokenEdits.sortByStart()
        parameters.addCallEdits(to: &context)

        var mainEdits =
            locals.edits(context: context) + parameters.edits(context: context) + closures.edits(context: context)
            + wrappedClosures.edits(context: context)
        // Each type's edits are appended in place (an array of them per type was allocated, appended and freed), with
        // room for one per property and a few per type (isolation, memberwise init, coding keys) and the token rewrites.
        mainEdits.reserveCapacity(mainEdits.count + propertyCount + 4 * plans.count + context.tokenEdits.count)
        // All of the file's properties and memberwise inits are written into one buffer (one for each type cost an
        // allocation of a few kilobytes each), and each one's edit gets its slice once the buffer is complete.
        var texts = CodeText(capacity: 512 * propertyCount)
        var pending: [PendingText] = []
        pending.reserveCapacity(propertyCount + plans.count)
        // By index: `for plan in plans` copies each plan, retaining and releasing every array and object it holds.
        for index in plans.indices {
            render(plans[index], sendable: sendable, texts: &texts, pending: &pending, into: &mainEdits)
        }
        let rendered = texts.slice
        for property in pending { mainEdits[property.edit].text = rendered[property.text] }
        // Token rewrites inside a replaced range are already part of its text.
        // Nearly always in order already: types are rendered in the order they appear.
        var covered = mainEdits.filter { $0.end > $0.start }
        covered.sortByStart()
        var next = 0
        var reach = 0
        edits = consume mainEdits
        edits.reserveCapacity(edits.count + context.tokenEdits.count)
        for tokenEdit in context.tokenEdits {
            while next < covered.count && covered[next].start <= tokenEdit.start {
                reach = max(reach, covered[next].end)
                next += 1
            }
            if tokenEdit.end > reach { edits.append(tokenEdit) }
        }
    }

    /// Whether `reference` is `$a.$b` where `$a` is the projection of a lowered member that is its wrapper, and
    /// that wrapper has a wrapped property `b` of its own (`members`): `$b` is then the wrapper's, which stays.
    private func namesAProjectionMember(_ reference: DollarReference, _ members: [String: Set<String>]) -> Bool {
        guard case .expressionDot(let dot) = reference.qualifier, dot > 0 else { return false }
        let tokens = context.tree.tokens
        let base = tokens[dot - 1]
        guard base.range.count > 1, context.bytes[base.start] == UInt8(ascii: "$") else { return false }
        let name = String(decoding: context.bytes[(base.start + 1)..<base.end], as: UTF8.self)
        let member = String(decoding: context.bytes[(tokens[reference.token].start + 1)..<tokens[reference.token].end], as: UTF8.self)
        return members[name]?.contains(member) ?? false
    }

    /// Whether tokens `span` hold an `@` (of an attribute).
    func containsAttribute(_ span: TokenSpan, tokens: [Token]) -> Bool {
        tokens.withUnsafeBufferPointer { tokens in
            (span.lower..<min(span.upper, tokens.count)).contains { tokens[$0].kind == .atSign }
        }
    }

    /// I-2: in Swift 5 mode a struct or class without isolation of its own is inferred
    /// isolated to the global actor of an instance wrapped property's `wrappedValue`
    /// (SE-0316); written out, that isolation goes on the type (`@preconcurrency
    /// @MainActor` for SwiftUI's object wrappers, as `-print-ast` shows it).
    func inferredIsolation(_ plan: TypePlan) -> String? {
        guard swiftVersion == .swift5, plan.container == .struct || plan.container == .class else { return nil }
        if context.statesOwnIsolation(plan.type.prefix) { return nil }
        // As the wrapper declares it: `@preconcurrency @MainActor` from ObservedObject, `@MainActor` from a plain one.
        return plan.properties.lazy.filter { !$0.isStatic }.compactMap { $0.wrapper.wrappedValue.isolation }.first
    }

    /// What owns `reference` (`$x`) before any member does, if anything: the nearest closure parameter
    /// spelled `$x` (`$x in`), or for an unqualified `$x` the nearest wrapped local or parameter named `x`
    /// (`localWrapped`, their name tokens). D-2, P-5.
    /// Inlined: the loop over every `$x` calls it (a call cost some 25 instructions a reference).
    @inline(__always)
    private func localOwner(
        of reference: DollarReference, spelled dollarName: ArraySlice<UInt8>, localWrapped: Set<Int>
    ) -> LocalOwner? {
        let tree = context.tree
        // Scope searches only where they can find something: closure parameters need a closure signature.
        if tree.census.closureSignature,
            let parameter = tree.nearestLocalName(
                at: reference.token,
                where: { $0.kind == .closureParameter && context.token($0.token, isSpelled: dollarName) })
        {
            return .closureParameter(parameter.token)
        }
        // `case .none =`: `==` on the enum is an outlined call for every reference.
        guard !localWrapped.isEmpty, case .none = reference.qualifier else { return nil }
        return tree.nearestLocalName(
            at: reference.token,
            where: { localWrapped.contains($0.token) && context.token($0.token, isSpelled: dollarName.dropFirst()) }
        ).map { .wrappedLocal($0.token) }
    }

    /// The declaration that owns a `$x`, by its name token.
    private enum LocalOwner {
        case closureParameter(Int)
        case wrappedLocal(Int)
    }

    /// Name tokens of wrapped variables that are not type members (locals,
    /// globals): their `$x` is theirs, not a member's.
    func localWrappedNameTokens(types: [TypeDecl]) -> Set<Int> {
        guard context.tree.census.attributedVariableOutsideTypes else { return [] }
        var members = Set<Int>()
        for type in types {
            var declarations: [Member] = []
            var initializers: [FunctionDecl] = []
            collectMembers(type.members, placement: nil, into: &declarations, initializers: &initializers)
            for member in declarations { members.insert(member.declaration.keyword) }
        }
        var result = Set<Int>()
        context.tree.forEachItem { item in
            guard case .variable(let variable) = item, !variable.prefix.attributes.isEmpty, !members.contains(variable.keyword) else { return }
            for binding in variable.bindings { if let name = binding.name { result.insert(name) } }
        }
        return result
    }
}
