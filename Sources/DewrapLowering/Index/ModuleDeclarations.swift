import DewrapSyntax
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of a module that one run reads (issue 21). Their declarations are read on demand,
/// for the names a question asks: the first question lexes every file to list where each may
/// declare a name (`DeclaringFiles`); asking for `Store.shared` then parses and indexes only the
/// files that may declare `shared`. Every file that can bear on an answer is read, so the answer
/// is the one all files would give (a test compares the two). A run whose files never name
/// another file's declaration reads none of them.
public final class ModuleSources: Sendable {
    private let count: Int
    private let file: @Sendable (Int) -> [UInt8]?
    private let growing = Mutex<GrowingDeclarations?>(nil)
    private let lexedFiles = Mutex(LexedFiles())

    public convenience init(_ sources: [[UInt8]], dependencies: [[UInt8]] = []) {
        self.init(count: sources.count, file: { sources[$0] }, dependencies: { dependencies })
    }

    /// `file` gives the bytes of file `0..<count` when they are needed, nil for one that cannot be
    /// read (lowering does no I/O: the caller's closure does, so that a run need not keep every
    /// file in memory for a question never asked).
    /// `uncertainConstructions`: what `uncertainConstructionNames` gives for all the files (a module
    /// index has it), so that no file is read for it.
    public init(
        count: Int, file: @escaping @Sendable (Int) -> [UInt8]?,
        dependencies: @escaping @Sendable () -> [[UInt8]] = { [] },
        uncertainConstructions: UncertainConstructions? = nil
    ) {
        self.count = count
        self.file = file
        self.readDependencies = dependencies
        self.knownUncertainConstructions = uncertainConstructions
    }

    /// Calls `body` with each file's bytes in turn, so that a byte scan of the module
    /// (`wordCount`, `uncertainConstructions`) holds one file at a time.
    private func visit(_ body: ([UInt8]) -> Void) {
        for index in 0..<count { if let source = file(index) { body(source) } }
    }

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
    /// than the declarations.
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

    /// Asks `question` of the declarations, once every file that may declare `name` is read: of
    /// them, with an `owner` (not `""`, a global's), only those that may declare the type or an
    /// extension of it too (a member is declared in its type's body or an extension).
    private func declarations<Answer>(
        declaring name: String, in owner: String = "", question: (ModuleDeclarations) -> Answer
    ) -> Answer {
        growing.withLock { growing in
            if growing == nil {
                var declaring = DeclaringFiles()
                for index in 0..<count {
                    guard let source = file(index) else { continue }
                    let lexed = Lexer.lex(source)
                    declaring.add(source, tokens: lexed.tokens, position: index)
                    // Kept for a file lowering will lex (one that may name a wrapper): most files of an
                    // app are copied unlexed, and keeping theirs nearly doubled home-assistant's peak memory.
                    if mayHaveWrapperAttribute(source) { lexedFiles.withLock { $0.keep(lexed, of: source, position: index) } }
                }
                let dependencies = readDependencies()
                for (position, source) in dependencies.enumerated() {
                    declaring.add(source, tokens: Lexer.lex(source).tokens, position: count + position)
                }
                declaring.finish()
                growing = GrowingDeclarations(moduleFiles: count, declaring: declaring, dependencies: dependencies)
            }
            let declarations = growing!.read(declaring: owner.isEmpty ? [name] : [name, owner]) { position in
                if let kept = lexedFiles.withLock({ $0.kept(position) }) { return kept }
                return file(position).map { ($0, nil) }
            }
            return question(declarations)
        }
    }

    /// The tokens of `source` if it is a file of the module lexed for the declarations (the same
    /// bytes, not a copy), handed over: its lowering need not lex it again.
    func takeLexed(_ source: [UInt8]) -> LexedSource? {
        lexedFiles.withLock { $0.take(source) }
    }

    /// The kind of the module's type named `name` (`.some(nil)`: more than one declares it), nil for none.
    func type(named name: String) -> TypeKind?? {
        declarations(declaring: name) { $0.type(named: name) }
    }

    /// Whether a file of the module declares a type, typealias or associated type named `name`.
    func declaresType(named name: String) -> Bool {
        declarations(declaring: name) { $0.declaresType(named: name) }
    }

    /// Whether the case `name` of the module's enum `owner` has a payload; nil if it has no such case.
    func enumCase(_ name: String, of owner: String) -> Bool? {
        declarations(declaring: owner) { $0.enumCase(name, of: owner) }
    }

    /// The type of the static member (owner `""`: the global) `name`: `.some(nil)` when it is not certain.
    func value(_ name: String, of owner: String) -> String?? {
        declarations(declaring: name, in: owner) { $0.value(name, of: owner) }
    }

    /// The type of the instance property `name` of the module's type `owner`.
    func instanceValue(_ name: String, of owner: String) -> String?? {
        // The module's type `owner` is asked of too: the files that list it hold its members.
        declarations(declaring: owner) { $0.instanceValue(name, of: owner) }
    }

    /// The return type of the static (owner `""`: global) function `name`.
    func function(_ name: String, of owner: String) -> String?? {
        declarations(declaring: name, in: owner) { $0.function(name, of: owner) }
    }

    /// Whether some type of the module declares a static member or function named `name`.
    func declaresStaticMember(named name: String) -> Bool {
        declarations(declaring: name) { $0.declaresStaticMember(named: name) }
    }

    /// The type of the `EnvironmentValues` member `name` declared in a file of the module.
    func environmentValue(_ name: String) -> String?? {
        declarations(declaring: name, in: "EnvironmentValues") { $0.environmentValue(name) }
    }
}

/// The module's declarations as far as they have been read: the files that may declare the
/// words asked so far (`ModuleSources`), the dependencies' among them.
private struct GrowingDeclarations {
    /// By position: the module's files, then the dependencies'.
    private var files: [Int: ModuleDeclarations.File] = [:]
    private let moduleFiles: Int
    private let declaring: DeclaringFiles
    private let dependencies: [[UInt8]]
    /// By the keys asked: the declarations of the files that may declare them.
    private var asked: [[String]: ModuleDeclarations] = [:]

    init(moduleFiles: Int, declaring: DeclaringFiles, dependencies: [[UInt8]]) {
        self.moduleFiles = moduleFiles
        self.declaring = declaring
        self.dependencies = dependencies
    }

    /// The declarations of the files that may declare each of `keys`, by their last words
    /// (`Outer.Inner` is declared where `Inner` is; a key without one, `+`, is no condition), each
    /// file read on first need. `file(i)` gives the module's files (with their tokens, if kept).
    /// A file that declares a name lists it, so these are all the files an answer depends on.
    mutating func read(
        declaring keys: [String], from file: (Int) -> (source: [UInt8], lexed: LexedSource?)?
    ) -> ModuleDeclarations {
        if let known = asked[keys] { return known }
        var positions: [Int]?
        for key in keys {
            guard let word = Self.lastWord(of: key) else { continue }
            let listing = word.withUnsafeBufferPointer { declaring.files(listing: $0) }.map { Int($0) }
            positions = positions.map { Self.intersection($0, listing) } ?? listing
        }
        var declarations = ModuleDeclarations()
        for position in positions ?? Array(0..<(moduleFiles + dependencies.count)) {
            if let read = files[position] {
                declarations.files.append(read)
                continue
            }
            guard let (source, lexed) = position < moduleFiles ? file(position) : (dependencies[position - moduleFiles], nil) else {
                continue
            }
            declarations.add(source, lexed: lexed, position: position, dependency: position >= moduleFiles)
            files[position] = declarations.files.last
        }
        asked[keys] = declarations
        return declarations
    }

    /// The word `DeclaringFiles` lists a declaration of `key` by: its last name, without the
    /// backticks of `` `default` `` or of a raw identifier (`` `a b` ``, SE-0451), whole; nil for
    /// an operator, or a name of non-ASCII letters only (no condition: every file is read).
    private static func lastWord(of key: String) -> [UInt8]? {
        let bytes = Array(key.utf8)
        let backtick = UInt8(ascii: "`")
        if bytes.count > 2, bytes.last == backtick, let open = bytes.dropLast().lastIndex(of: backtick), open < bytes.count - 2 {
            return Array(bytes[(open + 1)..<(bytes.count - 1)])
        }
        // An operator (`+`, `≈`) is not a word `DeclaringFiles` lists: every file may declare it.
        guard bytes.contains(where: isASCIINameByte), let end = bytes.lastIndex(where: isNameByte) else { return nil }
        let start = bytes[..<end].lastIndex(where: { !isNameByte($0) }).map { $0 + 1 } ?? 0
        return Array(bytes[start...end])
    }

    /// The positions in both increasing lists.
    private static func intersection(_ a: [Int], _ b: [Int]) -> [Int] {
        var both: [Int] = []
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i] < b[j] {
                i += 1
            } else if a[i] > b[j] {
                j += 1
            } else {
                both.append(a[i])
                i += 1
                j += 1
            }
        }
        return both
    }
}

/// The tokens of the module's files as the declarations' first read lexed them, kept up to a
/// budget for the files' lowering (`ModuleSources.takeLexed`) and for a parse of their
/// declarations: lexing was a third of home-assistant's in-place run, many files lexed two or
/// three times.
private struct LexedFiles {
    /// 16 MiB of tokens: more than home-assistant's files that name a wrapper have.
    static let budget = 16 << 20

    private var byPosition: [Int: (source: [UInt8], lexed: LexedSource)] = [:]
    /// Positions by the address of the bytes: a lowering hands in the same array, not a copy (the
    /// array is kept here, so no other array can have the address meanwhile).
    private var byAddress: [UInt: Int] = [:]
    private var bytes = 0

    mutating func keep(_ lexed: LexedSource, of source: [UInt8], position: Int) {
        let size = lexed.tokens.count * MemoryLayout<Token>.stride
        guard bytes + size <= Self.budget, let address = Self.address(source) else { return }
        bytes += size
        byPosition[position] = (source, lexed)
        byAddress[address] = position
    }

    func kept(_ position: Int) -> (source: [UInt8], lexed: LexedSource?)? {
        byPosition[position].map { ($0.source, $0.lexed) }
    }

    mutating func take(_ source: [UInt8]) -> LexedSource? {
        guard let address = Self.address(source), let position = byAddress[address],
            let kept = byPosition[position], kept.source.count == source.count
        else { return nil }
        byAddress[address] = nil
        byPosition[position] = nil
        bytes -= kept.lexed.tokens.count * MemoryLayout<Token>.stride
        return kept.lexed
    }

    private static func address(_ source: [UInt8]) -> UInt? {
        source.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } }
    }
}

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

    fileprivate(set) var files: [File] = []

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

    // The module's own declarations win: an import's name is shadowed by the module's. Of a
    // dependency's, only what is `public` or `open` counts.

    func type(named name: String) -> TypeKind?? {
        unique(dependency: false) { $0.types[name] }
            ?? unique(dependency: true) { $0.publicTypes.contains(name) ? $0.types[name] : nil }
    }

    func declaresType(named name: String) -> Bool {
        type(named: name) != nil || files.contains { $0.context.declarationIndex.otherTypeNames.contains(name) }
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
                file.dependency && (file.context.declarationIndex.instanceValues[owner]?.values.contains { $0?.isPublic == true } ?? false)
            }
        return member(name, of: owner, in: \.instanceValues, sides: fromDependency ? [true] : [false]) { $0.resolvedType(of: $1) }
    }

    func function(_ name: String, of owner: String) -> String?? {
        member(name, of: owner, in: \.functions) { $0.resolvedReturnType(of: $1) }
    }

    func declaresStaticMember(named name: String) -> Bool {
        files.contains { file in
            let index = file.context.declarationIndex
            func counts(_ entry: (isPrivate: Bool, isPublic: Bool)?) -> Bool {
                file.dependency ? entry?.isPublic == true : !(entry?.isPrivate ?? false)
            }
            return index.values.contains { owner, members in
                owner != "" && members[name].map { counts($0.map { ($0.isPrivate, $0.isPublic) }) } == true
            }
                || index.functions.contains { owner, members in
                    owner != "" && members[name].map { counts($0.map { ($0.isPrivate, $0.isPublic) }) } == true
                }
        }
    }

    /// All of one type, or uncertain.
    func environmentValue(_ name: String) -> String?? {
        func declared(dependency: Bool) -> String?? {
            var types = Set<String>()
            for file in files where file.dependency == dependency {
                for member in environmentValuesMembers(in: file.context) where file.context.text(member.name) == name {
                    types.insert(typeText(typeTokens(file.context.text(member.type))))
                }
            }
            return types.isEmpty ? nil : .some(types.count == 1 ? types.first : nil)
        }
        return declared(dependency: false) ?? declared(dependency: true)
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
        _ name: String, of owner: String, in table: KeyPath<DeclarationIndex, [String: [String: Entry?]]>,
        sides: [Bool] = [false, true], resolved: (SourceContext, Entry) -> String?
    ) -> String?? {
        for dependency in sides {
            var found: (File, Entry?)?
            var count = 0
            for file in files where file.dependency == dependency {
                guard let members = file.context.declarationIndex[keyPath: table][owner], let entry = members[name] else { continue }
                guard dependency ? entry?.isPublic == true : !(entry?.isPrivate ?? false) else { continue }
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
