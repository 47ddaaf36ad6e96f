import DewrapLowering
import DewrapSyntax
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// All inputs of one run are one module (issue 21), and so are the `--module-sources` files
/// (the plain `.swift` files beside a build plugin's `.swift.dewrap` ones): their declarations
/// (read when a file first needs them) give each file the types that initial values and
/// `@Environment` keys name in the others, and a wrapper declared in one is known in all.
/// Inputs that cannot be read are left out here; their jobs report them. What is read is kept in
/// `kept` as far as its budget goes (`KeptInputs`), for the run's later passes. With a module
/// index, only the module sources it says spell `@propertyWrapper`, or extend a wrapper of another
/// module source, are read for wrappers and their extensions.
/// The `--wrapper-sources` files (`dependencies`) are other modules: their public declarations
/// are read with the module's, under the names the module does not declare.
///
/// `declaringInputs` is set to the inputs that may declare a function with wrapped parameters
/// (`mayDeclareWrappedParameter`) when every input was read here, so that the run need not read
/// them again to find out.
func readModule(
    _ inputs: [String], moduleSources: [String], dependencies: [String] = [],
    moduleIndex: [ModuleIndexEntry]? = nil, wrapperShapes: inout WrapperShapes,
    declaringInputs: inout Set<String>?, keeping kept: KeptInputs = KeptInputs()
) -> ModuleSources? {
    let paths = inputs.filter { $0 != "-" } + moduleSources
    guard paths.count > 1 || !moduleSources.isEmpty || !dependencies.isEmpty else { return nil }
    let inputCount = paths.count - moduleSources.count
    var declaring: Set<String>? = []
    // What `T(…)` needs of every file, made while the files are read here, so that no file is read
    // again for it: the module sources' from the index when there is one, else by their bytes as the
    // inputs' and the dependencies' are.
    var constructions = UncertainConstructions()
    if let moduleIndex {
        for entry in moduleIndex { constructions.formUnion(entry.constructions) }
    }
    for dependency in dependencies {
        if let source = try? readInput(dependency) { constructions.formUnion(uncertainConstructionNames(in: source)) }
    }
    kept.reserve(paths.count)
    // The module's wrappers, each read again at the end with its extensions in the other files.
    var module = WrapperFileReading()
    for (position, path) in paths.enumerated() {
        // The index has an entry for each module source (in their order), none for an input.
        guard position < inputCount || moduleIndex?[position - inputCount].readForWrappers ?? true else {
            if position < inputCount { declaring = nil }
            continue
        }
        // The module's own wrappers win over `--wrapper-sources`, as a file's own do.
        guard let source = try? readInput(path) else { continue }
        kept.keep(source, of: path)
        module.add(source, declaring: WrapperShapes(readingModule: [source]))
        if position < inputCount && mayDeclareWrappedParameter(source) { declaring?.insert(path) }
        if position < inputCount || moduleIndex == nil { constructions.formUnion(uncertainConstructionNames(in: source)) }
    }
    wrapperShapes.merge(module.withExtensions())
    declaringInputs = declaring
    return ModuleSources(
        count: paths.count, file: { try? kept.read(paths[$0]) },
        dependencies: { dependencies.compactMap { try? readInput($0) } },
        uncertainConstructions: constructions)
}

/// The `.swift` files the `--module-sources` paths name (a folder is searched as a folder input
/// is), without those that are inputs of the run too: an input is lowered, whatever else names
/// it. A path that does not exist is an error, as for `--wrapper-sources`.
func moduleSourceFiles(_ paths: [String], inputs: [String]) throws(FileError) -> [String] {
    guard !paths.isEmpty else { return [] }
    var seen = Set(inputs.compactMap { $0 == "-" ? nil : FileIdentity(path: $0) })
    seen.reserveCapacity(inputs.count + paths.count)
    var files: [String] = []
    files.reserveCapacity(paths.count)
    for path in paths {
        // One `stat` for a file (a build plugin names hundreds of them), given the path's own
        // bytes (a String passed as a C string is copied into a new array first).
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { throw FileError("read", path) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            if seen.insert(FileIdentity(info)).inserted { files.append(path) }
            continue
        }
        for file in swiftFiles(inFolder: path).map({ joined(path, $0) }) {
            guard let identity = FileIdentity(path: file), seen.insert(identity).inserted else { continue }
            files.append(file)
        }
    }
    return files
}

// MARK: - Module sources' `$x`

/// What the module sources tell the run's `$x` across files: the member properties they keep
/// wrapped (they are never lowered), which count as left as written, so that no file rewrites a
/// `$x` that may mean one of them; and, as notes, their own uses of a `$x` the run lowers, which
/// would need rewriting but are not written.
struct ModuleSourceUses {
    /// Names of member properties the module sources declare with a wrapper: those the run lowers
    /// (the only names asked about), and with no module index, possibly more.
    var wrapped: [String] = []
    /// Notes by module source, in their order: the file, its bytes and the notes.
    var notes: [(path: String, source: [UInt8], diagnostics: [Diagnostic])] = []

    /// `LoweringResult.Projections.acrossFiles` over the inputs' first lowerings, with the names
    /// the module sources keep wrapped counted as left as written (as if they were one more file
    /// that left them): the names every input rewrites `$x` of, and which inputs must be lowered
    /// again knowing them.
    func acrossFiles(_ run: [LoweringResult.Projections?]) -> (names: Set<String>, relower: [Bool]) {
        let across = LoweringResult.Projections.acrossFiles(run)
        guard !wrapped.isEmpty else { return across }
        let names = across.names.subtracting(wrapped)
        let relower = run.map { file in
            guard let file, !names.isEmpty else { return false }
            return file.unread || file.unresolved.contains(where: names.contains)
        }
        return (names, relower)
    }
}

/// Reads the module sources for what `ModuleSourceUses` holds, as cheaply as the run allows:
/// nothing when the run lowered no member property; otherwise a byte scan of each file for `$name`
/// of a lowered name, and only when one is found somewhere (or an input has a `$name` of one it
/// did not rewrite) the files that spell one of those names are lowered, in memory, as if they
/// were inputs that know the run's lowered names (`moduleProjections`). A `$x` that lowering
/// rewrites there, and that is not the file's own, is a use to report. With a module index
/// (`--module-index`), which lists each file's wrapped names and the `$name`s it does not resolve
/// itself, only the files that use a lowered name are read, and lowered.
///
/// `run` holds each input's first lowering (nil for one that was not lowered), `runPaths` their
/// paths; `options` are the run's (the module's declarations and wrappers included).
func moduleSourceUses(
    _ files: [String], moduleIndex: [ModuleIndexEntry]? = nil, run: [LoweringResult.Projections?],
    runPaths: [String], options: LoweringOptions
) -> ModuleSourceUses {
    var uses = ModuleSourceUses()
    guard !files.isEmpty else { return uses }
    let lowered = LoweringResult.Projections.loweredAcrossFiles(run)
    guard !lowered.isEmpty else { return uses }
    // Names an input may still have to rewrite, and names a module source spells as `$name`.
    var asked = Set(run.compactMap { $0?.unresolved }.joined()).intersection(lowered)
    var spelled = Array(repeating: false, count: files.count)
    var indexed: Set<String>?
    if let moduleIndex {
        // The index's entries are the files', in their order. Its names are read as bytes, and
        // only the lowered ones matter (`acrossFiles` and the notes below ask about no other).
        let loweredNames = NameLookup(lowered)
        var isWrapped = [Bool](repeating: false, count: loweredNames.names.count)
        for (position, entry) in moduleIndex.enumerated() where position < files.count {
            entry.wrapped.forEach { name in
                if let index = loweredNames.index(of: name) { isWrapped[index] = true }
            }
            spelled[position] = entry.uses.contains { loweredNames.index(of: $0) != nil }
        }
        let wrapped = Set(loweredNames.names.indices.filter { isWrapped[$0] }.map { loweredNames.names[$0] })
        indexed = wrapped
        uses.wrapped = wrapped.sorted()
        guard spelled.contains(true) else { return uses }
    } else {
        for (position, file) in files.enumerated() {
            guard let source = try? readInput(file) else { continue }
            let names = dollarNames(in: source, among: lowered)
            spelled[position] = !names.isEmpty
            asked.formUnion(names)
        }
        guard !asked.isEmpty else { return uses }
    }

    var loweredIn: [String: String] = [:]
    for (index, projections) in run.enumerated() {
        for name in projections?.lowered ?? [] where loweredIn[name] == nil { loweredIn[name] = runPaths[index] }
    }
    var wrapped = Set<String>()
    var candidates: [(path: String, source: [UInt8], rewritten: [(offset: Int, name: String)])] = []
    for (index, file) in files.enumerated() {
        // With an index, only the files that use a lowered name; without, those that spell one.
        if indexed != nil && !spelled[index] { continue }
        guard let source = try? readInput(file), notSwiftSource(source) == nil,
            spelled[index] || asked.contains(where: { bytes(source, contain: $0) })
        else { continue }
        var fileOptions = options
        fileOptions.lineDirectives = nil
        fileOptions.strict = false
        fileOptions.moduleProjections = lowered
        let result = lower(source, fileName: file, options: fileOptions)
        let own = Set(result.projections.lowered + result.projections.left)
        wrapped.formUnion(own)
        // A `$x` rewritten is one change over exactly its token; declarations' changes are longer.
        var rewritten: [(offset: Int, name: String)] = []
        for change in result.changes where change.count > 1 && source[change.lowerBound] == UInt8(ascii: "$") {
            let name = String(decoding: source[change.lowerBound + 1..<change.upperBound], as: UTF8.self)
            if lowered.contains(name) && !own.contains(name) && isIdentifier(name) {
                rewritten.append((change.lowerBound, name))
            }
        }
        if !rewritten.isEmpty { candidates.append((file, source, rewritten)) }
    }
    if let indexed { wrapped = indexed } else { uses.wrapped = wrapped.sorted() }
    for candidate in candidates {
        let diagnostics = candidate.rewritten.filter { !wrapped.contains($0.name) }.map { use in
            Diagnostic(
                .note, at: use.offset,
                "'$\(use.name)' would need rewriting to '_$\(use.name)': '\(use.name)' is lowered in '\(loweredIn[use.name] ?? "another input")'; this file is a module source, read but not written"
            )
        }
        if !diagnostics.isEmpty { uses.notes.append((candidate.path, candidate.source, diagnostics)) }
    }
    return uses
}

/// The names in `names` (all names, without it) that `source` spells right after a `$` (a byte
/// scan: in comments and string literals too; lowering decides what is a use). `$0` is not one.
func dollarNames(in source: [UInt8], among names: Set<String>? = nil) -> Set<String> {
    var found = Set<String>()
    source.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return }
        var from = 0
        while from < bytes.count, let hit = memchr(base + from, Int32(UInt8(ascii: "$")), bytes.count - from) {
            let start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
            var end = start
            while end < bytes.count && isNameByte(bytes[end]) { end += 1 }
            if end > start && !(bytes[start] >= UInt8(ascii: "0") && bytes[start] <= UInt8(ascii: "9")) {
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                if names?.contains(name) ?? true { found.insert(name) }
            }
            from = end
        }
    }
    return found
}

private func isIdentifier(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.allSatisfy { isNameByte($0) }
}

/// The member names that one input lowers and another leaves as written, each with an input of
/// each kind (the first, in job order), from each input's first lowering (`run`, nil for one not
/// lowered; `paths`, their names). (Names kept wrapped in module sources, which their own runs
/// lower, are not counted.)
func ambiguousProjections(_ run: [LoweringResult.Projections?], paths: [String]) -> [String: AmbiguousProjection] {
    // The names left as written first: most runs leave none, and then no lowered name is looked at.
    var leftIn: [String: String] = [:]
    for (index, file) in run.enumerated() {
        for name in file?.left ?? [] where leftIn[name] == nil { leftIn[name] = paths[index] }
    }
    guard !leftIn.isEmpty else { return [:] }
    var ambiguous: [String: AmbiguousProjection] = [:]
    for (index, file) in run.enumerated() {
        for name in file?.lowered ?? [] where ambiguous[name] == nil {
            if let left = leftIn[name] { ambiguous[name] = AmbiguousProjection(loweredIn: paths[index], leftIn: left) }
        }
    }
    return ambiguous
}
