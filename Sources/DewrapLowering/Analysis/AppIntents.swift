import DewrapSyntax

// App Intents' wrappers stay as written (RULES Decision 7): the build reads them from the source.

/// Why an App Intents wrapper stays as written, or nil for any other wrapper dewrap has no
/// declaration of. App Intents' own (`@Parameter`, `@Property`, `@IntentParameterDependency`, in a
/// file that imports AppIntents) stay whatever declaration dewrap is given: the build reads an
/// intent's parameters and an entity's properties from these attributes (Swift's const-value
/// extraction, for the App Intents metadata), so a lowered one would vanish from Shortcuts and Siri.
func appIntentsReason(_ attribute: Attribute, context: SourceContext) -> String? {
    guard appIntentsWrappers.contains(attributeTypeName(attribute, context: context)),
        context.imports("AppIntents", visibleAt: attribute.atSign)
    else {
        return nil
    }
    return "App Intents reads it from the source when the app is built (its metadata)"
}

/// App Intents' property wrappers, by the names they are written with (`AppIntent.Parameter` is
/// `IntentParameter`, `AppEntity.Property` is `EntityProperty`).
private let appIntentsWrappers: Set<String> = [
    "Parameter", "IntentParameter", "IntentParameterDependency", "Property", "EntityProperty",
]

/// The arguments of the file's App Intents attributes (`@IntentParameterDependency<PerformAction>(\.$server)`):
/// a `$x` there names the projection of a parameter of the intent, an `@Parameter` that stays as
/// written (Decision 7), whatever the file or the module lowers under the name `x`.
func appIntentsAttributeArguments(context: SourceContext) -> [TokenSpan] {
    guard context.imports("AppIntents", inAnyBranch: true) else { return [] }
    var spans: [TokenSpan] = []
    func visit(_ items: SyntaxList<Item>) {
        for item in items {
            switch item {
            case .variable(let variable):
                for attribute in variable.prefix.attributes {
                    guard let arguments = attribute.arguments, appIntentsReason(attribute, context: context) != nil else { continue }
                    spans.append(arguments)
                }
            case .ifConfig(let ifConfig):
                for clause in ifConfig.clauses { visit(clause.items) }
            default:
                continue
            }
        }
    }
    for type in context.tree.typeDeclarations { visit(type.members) }
    return spans
}
