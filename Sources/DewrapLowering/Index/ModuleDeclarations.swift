import DewrapSyntax

/// The declarations of a module's files that initial values can name (SPEC Decision 5, revised:
/// "the other files of the module"), shared by the files lowered on several threads.
///
/// Each file's declarations are resolved in that file (a static `let shared = Store()` is a
/// `Store` there), when asked; private and fileprivate ones are left out (other files cannot name
/// them). A name declared by two files, or twice in one, is uncertain (an entry of nil). The
/// dependencies' (`--wrapper-sources`, other modules) public declarations count under the names
/// the module does not declare.
struct ModuleDeclarations: Sendable {
    /// A file read: its parse (its declarations indexed on first question, `declarationIndex`) and
    /// its position among the module's files, then the dependencies'. Unchecked: a module's files
    /// are asked about under `ModuleSources`' lock only, so one thread at a time makes and reads
    /// their indexes.
    struct File: @unchecked Sendable {
        let context: SourceContext
        let position: Int
        let dependency: Bool
    }

    private(set) var files: [File] = []

    init() {}

    /// Reads the declarations of every file in `sources`, then the public ones of `dependencies`:
    /// the declarations `ModuleSources` reads on demand, all at once.
    init(reading sources: [[UInt8]], dependencies: [[UInt8]], bodies: BodyParsing = .declarationsOnly) {
        for (position, source) in sources.enumerated() { add(source, position: position, dependency: false, bodies: bodies) }
        for (position, source) in dependencies.enumerated() {
            add(source, position: sources.count + position, dependency: true, bodies: bodies)
        }
    }

    /// Parses one file, the `position`th of the module's files and then the dependencies'.
    mutating func add(
        _ source: [UInt8], lexed: LexedSource? = nil, position: Int, dependency: Bool, bodies: BodyParsing = .declarationsOnly
    ) {
        let context = SourceContext(bytes: source, tree: Parser.parse(source, lexed: lexed ?? Lexer.lex(source), bodies: bodies))
        files.append(File(context: context, position: position, dependency: dependency))
    }

    /// Adds a file read before (for another question).
    mutating func add(_ file: File) {
        files.append(file)
    }

    // The module's own declarations win: an import's name is shadowed by the module's. Of a
    // dependency's, only what is `public` or `open` counts.

    func type(named name: String) -> TypeKind?? {
        unique(dependency: false) { $0.types[name] }
            ?? unique(dependency: true) { $0.publicTypes.contains(name) ? $0.types[name] : nil }
    }

    /// The generic parameters' names of the type `name` (none for a non-generic type), when exactly
    /// one file declares it, of the module or (publicly) of a dependency; nil otherwise.
    func genericParameters(ofType name: String) -> [String]? {
        func declared(_ index: DeclarationIndex, publicOnly: Bool) -> [String]?? {
            guard index.types[name] != nil, !publicOnly || index.publicTypes.contains(name) else { return nil }
            guard case .some(.some) = index.types[name] else { return .some(nil) }
            return .some(index.typeGenericParameters[name] ?? [])
        }
        switch (unique(dependency: false) { declared($0, publicOnly: false) }, unique(dependency: true) { declared($0, publicOnly: true) }) {
        case (.some(let own), nil): return own
        case (nil, .some(let dependency)): return dependency
        default: return nil
        }
    }

    /// The names the type `name` inherits from (`supertypes`), when exactly one file declares it, of the
    /// module or (publicly) of a dependency; nil otherwise.
    func supertypes(ofType name: String) -> [String]? {
        func declared(_ index: DeclarationIndex, publicOnly: Bool) -> [String]?? {
            guard index.types[name] != nil, !publicOnly || index.publicTypes.contains(name) else { return nil }
            guard case .some(.some) = index.types[name] else { return .some(nil) }
            switch index.supertypes[name] {
            case nil: return .some([])
            case .some(let names): return .some(names)
            }
        }
        switch (unique(dependency: false) { declared($0, publicOnly: false) }, unique(dependency: true) { declared($0, publicOnly: true) }) {
        case (.some(let own), nil): return own
        case (nil, .some(let dependency)): return dependency
        default: return nil
        }
    }

    /// The text of the type the typealias `name` names (`_AnyKey`, `JSONDecodable & JSONEncodable`),
    /// when one file of the module and the dependencies declares it; nil otherwise (an extension
    /// names it without its qualifier, which would tell two of that name apart).
    func aliasTargetText(_ name: String) -> String? {
        let declaring = files.filter { $0.context.typealiasIndex.aliases[name] != nil }
        guard declaring.count == 1, case .some(.some(let aliased)) = declaring[0].context.typealiasIndex.aliases[name] else {
            return nil
        }
        return declaring[0].context.text(aliased)
    }

    /// The types (or typealiases, as an extension names them) that declare a static `let`/`var` named
    /// `name` that another file can name.
    func staticValueOwners(named name: String) -> Set<String> {
        var owners = Set<String>()
        for file in files {
            for member in file.context.declarationIndex.values.members
            where member.owner != "" && member.name == name && Self.counts(member.entry, inDependency: file.dependency) {
                owners.insert(member.owner)
            }
        }
        return owners
    }

    /// Whether the type `name` is a result builder: the module's own, else a dependency's public one.
    func isResultBuilder(named name: String) -> Bool {
        if files.contains(where: { !$0.dependency && $0.context.declarationIndex.types[name] != nil }) {
            return files.contains { !$0.dependency && $0.context.declarationIndex.resultBuilders.contains(name) }
        }
        return files.contains { file in
            let index = file.context.declarationIndex
            return file.dependency && index.publicTypes.contains(name) && index.resultBuilders.contains(name)
        }
    }

    func declaresType(named name: String) -> Bool {
        type(named: name) != nil || files.contains { $0.context.declarationIndex.otherTypeNames.contains(name) }
    }

    /// Whether one of the module's own files (not a dependency's) declares a type, typealias or
    /// associated type named `name`.
    func declaresOwnTypeOrAlias(named name: String) -> Bool {
        files.contains { file in
            !file.dependency
                && (file.context.declarationIndex.types[name] != nil || file.context.declarationIndex.otherTypeNames.contains(name))
        }
    }

    /// Where two files declare cases of an enum of one name, the later one's (the compiler reports
    /// the other, and the type's name is uncertain).
    func enumCase(_ name: String, of owner: String) -> Bool? {
        func cases(dependency: Bool) -> [String: Bool]? {
            files.filter { file in
                let index = file.context.declarationIndex
                return file.dependency == dependency && !(index.cases[owner]?.isEmpty ?? true)
                    && (!dependency || index.publicTypes.contains(owner))
            }.max { $0.position < $1.position }?.context.declarationIndex.cases[owner]
        }
        if let cases = cases(dependency: false) { return cases[name] }
        guard !declaresOwnType(owner) else { return nil }
        return cases(dependency: true)?[name]
    }

    func value(_ name: String, of owner: String) -> String?? {
        member(name, of: owner, in: \.values) { $0.resolvedType(of: $1) }
    }

    /// A type the module does not declare takes its instance properties from the dependency that
    /// declares some, even where the module's own extensions declare others.
    func instanceValue(_ name: String, of owner: String) -> String?? {
        let fromDependency =
            !declaresOwnType(owner)
            && files.contains { file in
                file.dependency
                    && file.context.declarationIndex.instanceValues.members.contains {
                        $0.owner == owner && Self.counts($0.entry, inDependency: true)
                    }
            }
        return member(name, of: owner, in: \.instanceValues, sides: fromDependency ? [true] : [false]) { $0.resolvedType(of: $1) }
    }

    /// The instance property a key path `\.name` with root `owner` names: the module's own
    /// declaration (in the type or an extension), else a dependency's public one; unlike
    /// `instanceValue`, the module's extensions of a dependency's type count (`extension
    /// DependencyValues { var apiClient: APIClient { … } }`), as a key path reaches them.
    func keyPathMember(_ name: String, of owner: String) -> String?? {
        member(name, of: owner, in: \.instanceValues) { $0.resolvedType(of: $1) }
    }

    /// The static subscript of `owner` (`.some(nil)`: more than one, or one `T[x]` cannot call).
    func staticSubscript(of owner: String) -> StaticSubscriptTypes?? {
        for dependency in [false, true] {
            var found: StaticSubscriptTypes?? = nil
            for file in files where file.dependency == dependency {
                guard let entry = file.context.declarationIndex.staticSubscripts.entry(DeclarationIndex.subscriptName, of: owner),
                    Self.counts(entry, inDependency: dependency)
                else { continue }
                if found != nil { return .some(nil) }
                found = .some(entry.map { file.context.writtenTypes(of: $0) })
            }
            if let found { return found }
        }
        return nil
    }

    func function(_ name: String, of owner: String) -> String?? {
        member(name, of: owner, in: \.functions) { $0.resolvedReturnType(of: $1) }
    }

    func declaresStaticMember(named name: String) -> Bool {
        files.contains { file in
            let index = file.context.declarationIndex
            return index.values.members.contains {
                $0.owner != "" && $0.name == name && Self.counts($0.entry, inDependency: file.dependency)
            }
                || index.functions.members.contains {
                    $0.owner != "" && $0.name == name && Self.counts($0.entry, inDependency: file.dependency)
                }
        }
    }

    /// All of one type, or uncertain. `moduleConstructions`: the module's uncertain constructions, for
    /// an untyped `@Entry` value `T(…)` (asked only for one).
    func environmentValue(_ name: String, moduleConstructions: @escaping () -> UncertainConstructions) -> String?? {
        func declared(dependency: Bool) -> String?? {
            var types = Set<String>()
            for file in files where file.dependency == dependency {
                for member in environmentValuesMembers(in: file.context, moduleConstructions: moduleConstructions)
                where file.context.text(member.name) == name {
                    types.insert(member.typeText(in: file.context))
                }
            }
            return types.isEmpty ? nil : .some(types.count == 1 ? types.first : nil)
        }
        return declared(dependency: false) ?? declared(dependency: true)
    }

    /// Whether another file can name an entry (nil: declared twice in its file): the module's
    /// unless private, a dependency's (another module's) only if public.
    private static func counts(_ entry: (some DeclarationEntry)?, inDependency: Bool) -> Bool {
        inDependency ? entry?.isPublic == true : !(entry?.isPrivate ?? false)
    }

    private func declaresOwnType(_ name: String) -> Bool {
        files.contains { !$0.dependency && $0.context.declarationIndex.types[name] != nil }
    }

    /// The entry of one side's files (the module's or the dependencies'): nil when none has one,
    /// `.some(nil)` when more than one has.
    private func unique<Entry>(dependency: Bool, _ entry: (DeclarationIndex) -> Entry??) -> Entry?? {
        var found: Entry?? = nil
        for file in files where file.dependency == dependency {
            guard let own = entry(file.context.declarationIndex) else { continue }
            if found != nil { return .some(nil) }
            found = .some(own)
        }
        return found
    }

    /// The resolved type of the member `name` of `owner` in `table` of the module's files, else of
    /// the dependencies' (`sides`); its declaration is resolved in its own file.
    private func member<Entry: DeclarationEntry>(
        _ name: String, of owner: String, in table: KeyPath<DeclarationIndex, MemberTable<Entry>>,
        sides: [Bool] = [false, true], resolved: (SourceContext, Entry) -> String?
    ) -> String?? {
        for dependency in sides {
            var found: (File, Entry?)?
            var count = 0
            for file in files where file.dependency == dependency {
                guard let entry = file.context.declarationIndex[keyPath: table].entry(name, of: owner) else { continue }
                guard Self.counts(entry, inDependency: dependency) else { continue }
                count += 1
                found = (file, entry)
            }
            guard let (file, entry) = found else { continue }
            return count > 1 ? .some(nil) : .some(entry.flatMap { resolved(file.context, $0) })
        }
        return nil
    }
}

/// What `ModuleDeclarations` reads of a value's or a function's declaration.
protocol DeclarationEntry {
    var isPrivate: Bool { get }
    var isPublic: Bool { get }
}

extension DeclarationIndex.Value: DeclarationEntry {}
extension DeclarationIndex.Function: DeclarationEntry {}
extension DeclarationIndex.StaticSubscript: DeclarationEntry {}

/// A static subscript's types as its file writes them (`DeclarationIndex.StaticSubscript`), for
/// another file to read.
struct StaticSubscriptTypes: Equatable {
    var parameterType: String
    var genericParameters: [String]
    var returnType: String
}

extension SourceContext {
    /// The types of a static subscript this file declares.
    func writtenTypes(of entry: DeclarationIndex.StaticSubscript) -> StaticSubscriptTypes {
        StaticSubscriptTypes(parameterType: text(entry.parameterType), genericParameters: entry.genericParameters, returnType: text(entry.returnType))
    }
}

extension WrapperShapes {
    /// The wrappers declared in any file of a module: known in all of its files, as a wrapper
    /// declared in the input is (a file that does not spell `@propertyWrapper` is not parsed
    /// for them). Each with its extensions in any of the files: pointfreeco/swift-sharing
    /// declares `struct Shared<Value>` in Shared.swift and its `init(wrappedValue:_:)` in an
    /// `extension Shared` of SharedKey.swift (`WrapperFileReading`).
    public init(readingModule sources: [[UInt8]]) {
        var reading = WrapperFileReading()
        for source in sources {
            reading.add(source, declaring: bytes(source, contain: "@propertyWrapper") ? WrapperShapes(readingDeclarationsIn: source) : nil)
        }
        self = reading.withExtensions()
    }
}

extension LoweringResult.Projections {
    /// From each file's first lowering in a module: the member names lowered in some file and left
    /// as written in none, whose `$x` every file rewrites (`LoweringOptions.moduleProjections`), and
    /// which files use one of them without having rewritten it, so must be lowered again knowing them.
    public static func acrossFiles(_ files: [Self?]) -> (names: Set<String>, relower: [Bool]) {
        // Only a file that uses a `$name` it did not rewrite (or was not read) can be lowered again:
        // without one, the names are asked of no file, and their sets are not made.
        guard files.contains(where: { $0.map { $0.unread || !$0.unresolved.isEmpty } ?? false }) else {
            return ([], Array(repeating: false, count: files.count))
        }
        let names = loweredAcrossFiles(files)
        let relower = files.map { file in
            guard let file, !names.isEmpty else { return false }
            return file.unread || file.unresolved.contains(where: names.contains)
        }
        return (names, relower)
    }

    /// Every file's `projectionMembers`, merged: for the module's other files (`LoweringOptions.moduleProjectionMembers`).
    public static func projectionMembersAcrossFiles(_ files: [Self?]) -> [String: Set<String>] {
        var members: [String: Set<String>] = [:]
        for case let file? in files {
            for (name, names) in file.projectionMembers { members[name, default: []].formUnion(names) }
        }
        return members
    }

    /// The member names lowered in some file and left as written in none.
    public static func loweredAcrossFiles(_ files: [Self?]) -> Set<String> {
        var lowered = Set<String>()
        var left = Set<String>()
        for case let file? in files {
            lowered.formUnion(file.lowered)
            left.formUnion(file.left)
        }
        return lowered.subtracting(left)
    }
}

/// How many times `word` occurs in `bytes` with no identifier character on either side.
public func wordOccurrences(of word: [UInt8], in bytes: [UInt8]) -> Int {
    guard !word.isEmpty, bytes.count >= word.count else { return 0 }
    var count = 0
    var index = 0
    while index + word.count <= bytes.count {
        if bytes[index] == word[0], bytes[index..<(index + word.count)].elementsEqual(word),
            index == 0 || !isNameByte(bytes[index - 1]),
            index + word.count == bytes.count || !isNameByte(bytes[index + word.count])
        {
            count += 1
            index += word.count
        } else {
            index += 1
        }
    }
    return count
}
