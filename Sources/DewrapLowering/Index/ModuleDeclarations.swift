import DewrapSyntax
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a module that one run reads (issue 21). Their declarations are read on first
/// use: a run whose files never name another file's declaration does not pay for reading them
/// (the first file that does reads them, while any other that needs them waits).
public final class ModuleSources: Sendable {
    private let read: @Sendable () -> [[UInt8]]
    private let made = Mutex<ModuleDeclarations?>(nil)

    public convenience init(_ sources: [[UInt8]]) {
        self.init { sources }
    }

    /// `read` gives the files' bytes when they are first needed (lowering does no I/O: the caller's
    /// closure does, so that a run need not keep every file in memory for a question never asked).
    /// `uncertainConstructions`: what `uncertainConstructionNames` gives for all the files (a module
    /// index has it), so that no file is read for it.
    /// `visit`, when given, calls its argument with each file's bytes in turn, so that a byte scan of
    /// the module (`wordCount`, `uncertainConstructions`) holds one file at a time.
    public init(
        reading read: @escaping @Sendable () -> [[UInt8]], dependencies: @escaping @Sendable () -> [[UInt8]] = { [] },
        uncertainConstructions: UncertainConstructions? = nil,
        visiting visit: (@Sendable (([UInt8]) -> Void) -> Void)? = nil
    ) {
        self.read = read
        self.readDependencies = dependencies
        self.knownUncertainConstructions = uncertainConstructions
        self.visit = visit ?? { body in read().forEach(body) }
    }

    private let visit: @Sendable (([UInt8]) -> Void) -> Void

    private let knownUncertainConstructions: UncertainConstructions?

    /// Other modules' files (`--wrapper-sources`): their public declarations, read with the module's.
    private let readDependencies: @Sendable () -> [[UInt8]]

    /// How many times the files of the module spell `name` as a whole word (rarely asked: for a
    /// function with wrapped parameters, whose calls in other files would need rewriting).
    func wordCount(_ name: String) -> Int {
        var count = 0
        visit { count += wordOccurrences(of: Array(name.utf8), in: $0) }
        return count
    }

    private let uncertain = Mutex<UncertainConstructions?>(nil)

    /// The types of the module (and its dependencies) whose `T(…)` is not a `T` for certain
    /// (`uncertainConstructionNames`): a byte scan of every file, made on first use, much cheaper
    /// than the declarations, which a run that never names another file's declaration does not make.
    var uncertainConstructions: UncertainConstructions {
        uncertain.withLock { made in
            if let made { return made }
            if let known = knownUncertainConstructions {
                made = known
                return known
            }
            var names = UncertainConstructions()
            visit { names.formUnion(uncertainConstructionNames(in: $0)) }
            for source in readDependencies() { names.formUnion(uncertainConstructionNames(in: source)) }
            made = names
            return names
        }
    }

    var declarations: ModuleDeclarations {
        made.withLock { made in
            if let made { return made }
            let declarations = ModuleDeclarations(reading: read(), dependencies: readDependencies())
            made = declarations
            return declarations
        }
    }
}

/// The declarations of a module's files that initial values can name (SPEC Decision 5, revised:
/// "the other files of the module"), read once before any file is lowered and shared by all of
/// them: plain values, so that lowering files on several threads can read it at once.
///
/// Each file's declarations are resolved in that file (a static `let shared = Store()` becomes
/// `Store` there); private and fileprivate ones are left out (other files cannot name them). A
/// name declared by two files, or twice in one, maps to nil: which one is meant is unknown.
public struct ModuleDeclarations: Sendable, Equatable {
    /// Types by simple name (non-extension declarations), with their kind.
    var types: [String: TypeKind?] = [:]
    /// Enum cases by enum name, then case name: whether the case has a payload.
    var cases: [String: [String: Bool]] = [:]
    /// Static members by owner (`""` for globals), then name: the member's type.
    var values: [String: [String: String?]] = [:]
    /// Instance properties of the module's non-generic types, by owner then name: their type.
    var instanceValues: [String: [String: String?]] = [:]
    /// Static and global functions by owner, then name: the written return type.
    var functions: [String: [String: String?]] = [:]
    /// Members of `extension EnvironmentValues` (computed or `@Entry`) with their written type.
    var environmentValues: [String: String?] = [:]
    /// The type names `types` does not hold: typealiases, associated types, types nested in generic
    /// types. Where one of these or of `types` is an SDK type's name, a file of the module may mean
    /// the module's own, so the SDK catalog is not asked about it (`SDKStaticMemberCatalog`).
    var otherTypeNames: Set<String> = []

    /// Whether a file of the module declares a type, typealias or associated type named `name`
    /// (top level or in a type's body).
    func declaresType(named name: String) -> Bool {
        types[name] != nil || otherTypeNames.contains(name)
    }

    public init() {}

    /// Reads the declarations of every file in `sources`.
    public init(reading sources: [[UInt8]]) {
        self.init(reading: sources, dependencies: [])
    }

    /// Reads the declarations of every file in `sources`, then the public ones of `dependencies`
    /// (other modules' files, `--wrapper-sources`) under the names the module does not declare.
    public init(reading sources: [[UInt8]], dependencies: [[UInt8]]) {
        self.init(reading: sources, dependencies: dependencies, bodies: .declarationsOnly)
    }

    /// `bodies`: `.declarationsOnly` reads what the others do, a parse of every body not needed (a
    /// test compares the two).
    init(reading sources: [[UInt8]], dependencies: [[UInt8]], bodies: BodyParsing) {
        for source in sources {
            let tree = Parser.parse(source, bodies: bodies)
            add(SourceContext(bytes: source, tree: tree))
        }
        guard !dependencies.isEmpty else { return }
        var other = ModuleDeclarations()
        for source in dependencies {
            let tree = Parser.parse(source, bodies: bodies)
            other.add(SourceContext(bytes: source, tree: tree), publicOnly: true)
        }
        // The module's own declarations win: an import's name is shadowed by the module's.
        let declared = types.keys
        types.merge(other.types) { own, _ in own }
        for (owner, members) in other.cases where cases[owner] == nil && !declared.contains(owner) { cases[owner] = members }
        for (owner, members) in other.values { values[owner, default: [:]].merge(members) { own, _ in own } }
        for (owner, members) in other.instanceValues where !declared.contains(owner) { instanceValues[owner] = members }
        for (owner, members) in other.functions { functions[owner, default: [:]].merge(members) { own, _ in own } }
        otherTypeNames.formUnion(other.otherTypeNames)
        environmentValues.merge(other.environmentValues) { own, _ in own }
    }

    /// `publicOnly`: a dependency's file, of which only what is `public` or `open` can be named.
    private mutating func add(_ context: SourceContext, publicOnly: Bool = false) {
        let file = context.declarationIndex
        for (name, kind) in file.types where !publicOnly || file.publicTypes.contains(name) {
            types.withUniqueEntry(kind, named: name)
        }
        for (owner, members) in file.cases where !members.isEmpty && (!publicOnly || file.publicTypes.contains(owner)) {
            // An enum's cases are all in its one declaration: a second one makes the type unknown above.
            cases[owner] = members
        }
        for (owner, members) in file.values {
            for (name, value) in members where !(value?.isPrivate ?? false) && (!publicOnly || value?.isPublic == true) {
                let type = value.flatMap { context.resolvedType(of: $0) }
                values[owner, default: [:]].withUniqueEntry(type, named: name)
            }
        }
        for (owner, members) in file.instanceValues {
            for (name, value) in members where !(value?.isPrivate ?? false) && (!publicOnly || value?.isPublic == true) {
                let type = value.flatMap { context.resolvedType(of: $0) }
                instanceValues[owner, default: [:]].withUniqueEntry(type, named: name)
            }
        }
        for (owner, members) in file.functions {
            for (name, function) in members where !(function?.isPrivate ?? false) && (!publicOnly || function?.isPublic == true) {
                let type = function.flatMap { context.resolvedReturnType(of: $0) }
                functions[owner, default: [:]].withUniqueEntry(type, named: name)
            }
        }
        otherTypeNames.formUnion(file.otherTypeNames)
        for member in environmentValuesMembers(in: context) {
            let name = context.text(member.name)
            let type = typeText(typeTokens(context.text(member.type)))
            environmentValues[name] = environmentValues[name] == nil || environmentValues[name] == .some(type) ? .some(type) : .some(nil)
        }
    }
}

extension WrapperShapes {
    /// The wrappers declared in any file of a module: known in all of its files, as a wrapper
    /// declared in the input is (a file that does not spell `@propertyWrapper` is not parsed).
    public init(readingModule sources: [[UInt8]]) {
        self.init()
        for source in sources where bytes(source, contain: "@propertyWrapper") {
            merge(WrapperShapes(readingDeclarationsIn: source))
        }
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
