import DewrapSyntax

/// Rendering: a type's plan as edits of the file.
extension FileLowering {
    /// Appends the type's edits to `result`. Its properties and memberwise inits are written into `texts`,
    /// and their edits, whose text is a slice of it, listed in `pending` for when it is complete.
    mutating func render(
        _ plan: TypePlan, sendable: SendableOracle, texts: inout CodeText, pending: inout [PendingText],
        into result: inout [Edit]
    ) {
        let tokens = context.tree.tokens
        // Its members are read only if a copied expression names something that could be one.
        let qualification = StaticQualification(type: plan.type)
        // Rendered now that `$x` rewrites are known, so copied defaults carry them.
        let memberwise =
            plan.writesMemberwise
            ? planMemberwiseInit(
                type: plan.type, stored: plan.stored, sendable: sendable, qualification: qualification,
                kept: plan.codingKeys?.initFromDecoder == nil ? plan.codingKeys?.keptInitializers ?? PropertyNames() : PropertyNames(),
                leavesProperties: plan.leavesProperties,
                context: context, into: &texts) : nil
        // The key path root of the enclosing-instance subscript, which only a class's properties use.
        let typeName =
            plan.container != .class
            ? ""
            : context.text(plan.type.name)
                + (plan.type.genericParameters.map {
                    "<" + genericParameterNames(context.text($0)).joined(separator: ", ") + ">"
                } ?? "")
        // Only a wrapper projecting itself, spelled otherwise than its projection (Fluent's through an alias),
        // asks; most files never walk their types for it.
        let inOtherType =
            plan.properties.contains { $0.wrapper.projectsItself && $0.projectedType != $0.storageType }
            && context.tree.typeDeclarations.contains { $0.span.lower < plan.type.span.lower && plan.type.span.upper <= $0.span.upper }
        // Taken out once: read through the optional plan, it was copied (and released) for every property.
        let strippedWrapped = memberwise?.strippedWrapped
        for property in plan.properties {
            let stripped = strippedWrapped?.contains(property.declaration.prefix.start) ?? false
            let start = texts.count
            renderProperty(
                property, container: plan.container, typeName: typeName, inOtherType: inOtherType, writesStorageInitializer: !stripped,
                context: context,
                to: &texts)
            pending.append(PendingText(edit: result.count, text: start..<texts.count))
            result.append(
                Edit(
                    start: tokens[property.declaration.prefix.start].start,
                    end: tokens[property.declaration.span.upper - 1].end, text: []))
        }
        if let isolation = inferredIsolation(plan) {
            let start = tokens[plan.type.prefix.start].start
            result.append(Edit(start: start, end: start, text: Array((isolation + " ").utf8)))
        }
        if let memberwise {
            result += memberwise.strippedInitializers
            pending.append(PendingText(edit: result.count, text: memberwise.text))
            result.append(Edit(start: memberwise.insertionPoint, end: memberwise.insertionPoint, text: []))
        }
        if let memberwise, let decoder = plan.codingKeys?.initFromDecoder {
            let start = texts.count
            writeInitFromDecoder(
                type: plan.type, stored: plan.stored, keyOrder: decoder.keyOrder, memberwise: memberwise,
                qualification: qualification, context: context, into: &texts)
            pending.append(PendingText(edit: result.count, text: start..<texts.count))
            result.append(Edit(start: memberwise.insertionPoint, end: memberwise.insertionPoint, text: []))
        }
        if let insertion = plan.codingKeys?.insertion {
            result.append(insertion)
        }
        if let memberwise {
            for initializer in plan.extensionInitializers {
                let start = texts.count
                guard
                    let prologue = extensionInitPrologue(
                        for: initializer, stored: plan.stored, plan: memberwise, qualification: qualification, context: context,
                        into: &texts)
                else { continue }
                pending.append(PendingText(edit: result.count, text: start..<texts.count))
                result.append(prologue)
            }
        }
        if !plan.initializers.isEmpty || !plan.extensionInitializers.isEmpty {
            let wrapped = Dictionary(plan.properties.filter { !$0.isStatic }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let required = Set(plan.stored.filter { !$0.isInitializedAtDeclaration }.map { withoutBackticks($0.name) })
            var rewrite = InitializerRewrite(
                context: context, required: required, wrapped: wrapped,
                isDerivedClass: plan.isDerivedClass, qualification: qualification)
            for initializer in plan.initializers + plan.extensionInitializers {
                if let body = initializer.body { rewrite.rewrite(body) }
            }
            result += rewrite.edits
            diagnostics += rewrite.diagnostics
        }
    }
}
