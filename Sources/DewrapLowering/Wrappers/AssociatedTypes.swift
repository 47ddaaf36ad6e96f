import DewrapSyntax

// `@Dependency(Client.self) var client` (swift-dependencies): the wrapper's init is
// `init<Key: TestDependencyKey>(_ key: Key.Type, …) where Key.Value == Value`, so the
// property's type is `Client.Value`, an associated type the compiler infers from
// `Client`'s conformance. What that inference needs is read here from the protocols
// of the wrapper sources (and the module); the conforming type's side is
// `SourceContext.associatedTypeWitness`.

/// An associated type of a protocol: the protocol's property requirements declared with exactly
/// its type (`static var testValue: Value { get }`), whose witnesses in a conforming type the
/// compiler infers it from. (Its default, `= Self`, is not read: a conforming type declares at
/// least one witness whenever the protocols leave one without a default implementation.)
struct AssociatedTypeRequirement: Sendable {
    struct Witness: Hashable, Sendable {
        var name: String
        var isStatic: Bool
    }
    var witnesses: [Witness] = []

    /// The associated types `protocolDecl` declares, by name.
    static func read(_ protocolDecl: TypeDecl, context: SourceContext) -> [String: AssociatedTypeRequirement] {
        var found: [String: AssociatedTypeRequirement] = [:]
        var typedRequirements: [(witness: Witness, type: String)] = []
        func visit(_ items: SyntaxList<Item>) {
            for item in items {
                switch item {
                case .other(let other) where other.kind == .associatedtype:
                    guard let name = other.names.first else { continue }
                    found[context.text(name)] = AssociatedTypeRequirement()
                case .variable(let variable):
                    let isStatic = context.isStatic(variable.prefix)
                    for binding in variable.bindings {
                        guard let name = binding.name, let type = binding.type else { continue }
                        typedRequirements.append((Witness(name: context.text(name), isStatic: isStatic), typeText(typeTokens(context.text(type)))))
                    }
                case .ifConfig(let ifConfig):
                    for clause in ifConfig.clauses { visit(clause.items) }
                default:
                    continue
                }
            }
        }
        visit(protocolDecl.members)
        for requirement in typedRequirements where found[requirement.type] != nil {
            found[requirement.type]?.witnesses.append(requirement.witness)
        }
        return found
    }
}

/// A protocol of the sources the wrappers are read from: the names it inherits (last name
/// component, compositions split) and its associated types by name.
struct ProtocolDeclaration: Sendable {
    var parents: [String] = []
    var associatedTypes: [String: AssociatedTypeRequirement] = [:]

    /// Another declaration of the same name (another file's, or a later one).
    mutating func add(_ other: ProtocolDeclaration) {
        parents += other.parents
        associatedTypes.merge(other.associatedTypes) { _, new in new }
    }
}

extension WrapperShapes {
    /// The requirements of the protocols `conformances`, and of those declared here that refine
    /// them (a type conforming to `DependencyKey` witnesses `TestDependencyKey`'s `Value` by
    /// `liveValue` too), that witness their associated type `name`. Nil when none of them is known
    /// to declare it.
    func associatedTypeWitnesses(_ name: String, of conformances: [String]) -> Set<AssociatedTypeRequirement.Witness>? {
        var relevant = Set(conformances)
        // The protocols that inherit one already relevant, until none is added.
        var grew = true
        while grew {
            grew = false
            for (protocolName, declaration) in protocols where !relevant.contains(protocolName) {
                if declaration.parents.contains(where: relevant.contains) {
                    relevant.insert(protocolName)
                    grew = true
                }
            }
        }
        var declared = false
        var witnesses: Set<AssociatedTypeRequirement.Witness> = []
        for protocolName in relevant {
            guard let requirement = protocols[protocolName]?.associatedTypes[name] else { continue }
            declared = true
            witnesses.formUnion(requirement.witnesses)
        }
        return declared ? witnesses : nil
    }
}
