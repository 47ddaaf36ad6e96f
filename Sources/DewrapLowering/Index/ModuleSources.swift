import DewrapSyntax
import Synchronization

/// The files of a module that one run reads (issue 21). Their declarations are read on demand,
/// for the names a question asks: the first question lexes every file to list where each may
/// declare a name (`DeclaringFiles`); asking for `Store.shared` then parses only the files that
/// may declare both `Store` and `shared`. Every file that can bear on an answer is read, so the
/// answer is the one all files would give (a test compares the two). A run whose files never
/// name another file's declaration reads none of them.
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
                let dependencies = readDependencies()
                var declaring = DeclaringFiles(files: count + dependencies.count)
                for index in 0..<count {
                    guard let source = file(index) else { continue }
                    let lexed = Lexer.lex(source)
                    declaring.add(source, tokens: lexed.tokens, position: index)
                    // Kept for a file lowering will lex (one that may name a wrapper): most files of an
                    // app are copied unlexed, and keeping theirs nearly doubled home-assistant's peak memory.
                    if mayHaveWrapperAttribute(source) { lexedFiles.withLock { $0.keep(lexed, of: source, position: index) } }
                }
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

    /// The generic parameters' names of the type `name` that one file of the module or of a dependency declares.
    func genericParameters(ofType name: String) -> [String]? {
        declarations(declaring: name) { $0.genericParameters(ofType: name) }
    }

    /// The names the type `name` inherits from, where one file of the module or of a dependency declares it.
    func supertypes(ofType name: String) -> [String]? {
        declarations(declaring: name) { $0.supertypes(ofType: name) }
    }

    /// The text of the type the typealias `name` names, where one file declares it.
    func aliasTargetText(_ name: String) -> String? {
        declarations(declaring: name) { $0.aliasTargetText(name) }
    }

    /// The types (or typealiases) that declare a static `let`/`var` named `name`.
    func staticValueOwners(named name: String) -> Set<String> {
        declarations(declaring: name) { $0.staticValueOwners(named: name) }
    }

    /// Whether the module's type `name` (or, where it declares none, a dependency's) is a result builder.
    func isResultBuilder(named name: String) -> Bool {
        declarations(declaring: name) { $0.isResultBuilder(named: name) }
    }

    /// Whether a file of the module declares a type, typealias or associated type named `name`.
    func declaresType(named name: String) -> Bool {
        declarations(declaring: name) { $0.declaresType(named: name) }
    }

    /// Whether a file of the module itself (not of a dependency) declares a type, typealias or
    /// associated type named `name`.
    func declaresOwnTypeOrAlias(named name: String) -> Bool {
        declarations(declaring: name) { $0.declaresOwnTypeOrAlias(named: name) }
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
        // By `owner` alone: a file that declares one of its members lists it, as does one that
        // declares the type (which decides whether a dependency's members count).
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

    /// The type of the instance property `name` of `owner` that a key path to it has.
    func keyPathMember(_ name: String, of owner: String) -> String?? {
        declarations(declaring: name, in: owner) { $0.keyPathMember(name, of: owner) }
    }

    /// The static subscript of `owner` that the module declares, else a dependency (`Defaults[.key]`).
    func staticSubscript(of owner: String) -> StaticSubscriptTypes?? {
        declarations(declaring: owner) { $0.staticSubscript(of: owner) }
    }

    /// The type of the `EnvironmentValues` member `name` declared in a file of the module.
    func environmentValue(_ name: String) -> String?? {
        declarations(declaring: name, in: "EnvironmentValues") { $0.environmentValue(name, moduleConstructions: { self.uncertainConstructions }) }
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

    /// The declarations of the files that may declare each of `keys` (`DeclaringFiles`), each
    /// file read on first need. `file(i)` gives the module's files (with their tokens, if kept).
    /// A file that declares a name lists it, so these are all the files an answer depends on.
    mutating func read(
        declaring keys: [String], from file: (Int) -> (source: [UInt8], lexed: LexedSource?)?
    ) -> ModuleDeclarations {
        if let known = asked[keys] { return known }
        var declarations = ModuleDeclarations()
        for position in declaring.files(declaring: keys) ?? Array(0..<(moduleFiles + dependencies.count)) {
            if let read = files[position] {
                declarations.add(read)
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
