import DewrapSyntax
import Foundation

/// `dewrap-dev realworld` (bin/realworld): dewrap on real apps. Each repository folder of the
/// corpus is copied and lowered in place by one `dewrap -i COPY` run (one module, as a user
/// would), and a row says what that did: wrapped declarations before and after (attribute
/// occurrences), warnings and notes by cause, errors, outputs with new `swiftc -frontend -parse`
/// errors, time. `--in-place-timing` then also times that run on one core, user and system time,
/// against `swiftc -frontend -parse` of the same files: each timed run on its own fresh copy, all
/// the copies made and synced to disk before the first timed run.
struct RealWorldSettings {
    var dewrap = ""
    var swiftc = ""
    var work = ""
    var corpus = ""
    var inPlaceTiming = false
    var runs = 3
}

/// SwiftUI's and Combine's wrappers (SPEC table T, `@Published`) and SwiftData's `@Query`: what
/// "all SwiftUI/Combine wrappers" counts. The app-delegate adaptors are not lowered by design.
let platformWrappers = [
    "State", "Binding", "StateObject", "ObservedObject", "EnvironmentObject", "Environment", "FocusState",
    "GestureState", "AppStorage", "SceneStorage", "Bindable", "Namespace", "ScaledMetric", "FocusedValue",
    "FocusedBinding", "FocusedObject", "FetchRequest", "SectionedFetchRequest", "AccessibilityFocusState",
    "Published", "Query",
]

/// Attributes on `var` declarations that are not property wrappers (the compiler's, result
/// builders, macros, Objective-C and Interface Builder markers): left out of "other wrappers".
private let notWrappers: Set<String> = [
    "MainActor", "NSManaged", "Previewable", "IBOutlet", "IBInspectable", "GKInspectable", "NSCopying",
    "Sendable", "UIApplicationMain", "ObservationIgnored", "ObservationTracked", "Transient", "Attribute",
    "Relationship", "Model", "Observable", "Entry", "Test",
]

/// The counts of one repository (or the total).
private struct RepositoryRow {
    var name: String
    var files = 0
    var bytes = 0
    var changed = 0
    /// `@Name` attribute tokens by name (comments and strings are not tokens), before and after.
    var before: [String: Int] = [:]
    var after: [String: Int] = [:]
    /// Attribute names found on a `var` declaration of the input (by the parser): what "other
    /// wrappers" counts, so that a macro (`@CasePathable`) or builder is not taken for one.
    var onVariables: Set<String> = []
    var warnings: [String: Int] = [:]
    var notes: [String: Int] = [:]
    var errors: [String: Int] = [:]
    /// Changed files whose output has more `swiftc -frontend -parse` errors than the input.
    var newParseErrors: [String] = []
    var status: Int32 = 0
    var seconds = 0.0
    /// `--in-place-timing`: user and system seconds of each side (medians).
    var timing: Timing?
    /// `--in-place-timing`: the files as found (paths relative to the copy) and the changed ones as
    /// dewrap wrote them, for the file system's share of the run (`inPlaceFloorUsage`).
    var paths: [String] = []
    var lowered: [(path: String, bytes: [UInt8])] = []

    mutating func add(_ other: RepositoryRow) {
        files += other.files
        bytes += other.bytes
        changed += other.changed
        before.merge(other.before, uniquingKeysWith: +)
        onVariables.formUnion(other.onVariables)
        after.merge(other.after, uniquingKeysWith: +)
        warnings.merge(other.warnings, uniquingKeysWith: +)
        notes.merge(other.notes, uniquingKeysWith: +)
        errors.merge(other.errors, uniquingKeysWith: +)
        newParseErrors += other.newParseErrors
        status = max(status, other.status)
        seconds += other.seconds
        if let timing = other.timing {
            let sum = self.timing ?? Timing()
            self.timing = Timing(dewrap: sum.dewrap + timing.dewrap, swiftc: sum.swiftc + timing.swiftc, floor: sum.floor + timing.floor)
        }
    }

    func count(_ counts: [String: Int], _ names: [String]) -> Int { names.reduce(0) { $0 + (counts[$1] ?? 0) } }
}

private struct Usage {
    var user = 0.0
    var system = 0.0
    var total: Double { user + system }
    static func + (a: Usage, b: Usage) -> Usage { Usage(user: a.user + b.user, system: a.system + b.system) }
}

private struct Timing {
    var dewrap = Usage()
    var swiftc = Usage()
    /// The file system's share of the dewrap run (`inPlaceFloorUsage`).
    var floor = Usage()
}

struct RealWorldError: Error {
    var message: String
}

/// Runs the whole report; false if a repository had errors or new parse errors.
func realWorld(_ settings: RealWorldSettings) throws -> Bool {
    let manager = FileManager.default
    let repositories = try manager.contentsOfDirectory(atPath: settings.corpus)
        .filter { !$0.hasPrefix(".") && isFolder(settings.corpus + "/" + $0) }.sorted()
    guard !repositories.isEmpty else { throw RealWorldError(message: "no repository folders in '\(settings.corpus)'") }
    let work = settings.work
    try manager.createDirectory(atPath: work, withIntermediateDirectories: true)

    print("dewrap on real apps: \(settings.corpus), each repository lowered by one `dewrap -i COPY` run (release build)")
    print("counts are `@Name` attribute tokens (not in comments or strings), before and after, of SwiftUI's, Combine's and SwiftData's")
    print("wrappers and of other names found on a `var` (macros, builders and the compiler's own left out); lowered = (before - after) / before")
    print("")
    var rows: [RepositoryRow] = []
    for repository in repositories {
        let row = try lowerRepository(repository, settings)
        rows.append(row)
        FileHandle.standardError.write(Data("realworld: \(repository): \(row.files) files, \(String(format: "%.2f", row.seconds)) s\n".utf8))
    }
    if settings.inPlaceTiming { try timeInPlace(&rows, settings) }
    var total = RepositoryRow(name: "total")
    for row in rows { total.add(row) }

    let stateBinding = ["State", "Binding"]
    func lowered(_ row: RepositoryRow, _ names: [String]) -> String {
        let before = row.count(row.before, names), after = row.count(row.after, names)
        guard before > 0 else { return "-" }
        return "\(before) → \(after) (\(fixed(Double(before - after) / Double(before) * 100, 1))%)"
    }
    func sum(_ counts: [String: Int]) -> Int { counts.values.reduce(0, +) }
    let header = [
        "repository", "files", "MB", "changed", "@State/@Binding", "SwiftUI/Combine", "other wrappers", "warnings", "notes",
        "errors", "new parse errors", "status", "time s",
    ]
    var table: [[String]] = []
    for row in rows + [total] {
        let others = row.before.keys.filter { !platformWrappers.contains($0) && row.onVariables.contains($0) }.sorted()
        table.append([
            row.name, String(row.files), megabytes(row.bytes), String(row.changed), lowered(row, stateBinding),
            lowered(row, platformWrappers), lowered(row, others), String(sum(row.warnings)), String(sum(row.notes)),
            String(sum(row.errors)), String(row.newParseErrors.count), String(row.status), fixed(row.seconds, 2),
        ])
    }
    printTable(header, table)

    print("")
    print("wrapped declarations per wrapper (attribute occurrences), before → after:")
    let names = total.before.keys.filter { platformWrappers.contains($0) || total.onVariables.contains($0) }.sorted {
        (total.before[$0]!, $1) > (total.before[$1]!, $0)
    }
    printTable(
        ["wrapper"] + rows.map(\.name) + ["total"],
        names.map { name in
            ["@" + name]
                + (rows + [total]).map { row in
                    let before = row.before[name] ?? 0
                    return before == 0 ? "-" : "\(before) → \(row.after[name] ?? 0)"
                }
        })
    for (title, causes) in [("warnings", total.warnings), ("notes", total.notes), ("errors", total.errors)] where !causes.isEmpty {
        print("")
        print("\(title) by cause ('…' stands for a name), per repository and total:")
        let ordered = causes.keys.sorted { (causes[$0]!, $1) > (causes[$1]!, $0) }
        let perRepository: (RepositoryRow) -> [String: Int] = { title == "warnings" ? $0.warnings : title == "notes" ? $0.notes : $0.errors }
        printTable(
            rows.map(\.name) + ["total", "cause"],
            ordered.map { cause in
                rows.map { String(perRepository($0)[cause] ?? 0) } + [String(causes[cause]!), cause]
            }, left: [rows.count + 1])
    }
    if !total.newParseErrors.isEmpty {
        print("")
        print("outputs with new swiftc -frontend -parse errors:")
        for line in total.newParseErrors { print("  " + line) }
    }
    if settings.inPlaceTiming {
        print("")
        print("in-place timing: one core (taskset -c 0 where available), user + system seconds, median of \(settings.runs):")
        print("`dewrap -j 1 -i COPY` (the changed files flushed to disk together before their renames) against `swiftc -frontend -parse` of the")
        print("same files; each dewrap run on its own copy, all made and synced before the first run; MB/s of user + system;")
        print("ratio = swiftc / dewrap, user + system. The file system's share: the same run's system calls (each file looked up and")
        print("read; each changed file's temporary created, written, flushed with one syncfs and renamed over it) made in process with")
        print("the lowered bytes in memory and no lowering, on copies of their own; the highest ratio this machine's file system allows")
        printTable(
            [
                "repository", "files", "MB", "dewrap user s", "sys s", "MB/s", "swiftc user s", "sys s", "MB/s", "ratio",
                "file system user s", "sys s", "ratio at most",
            ],
            (rows + [total]).compactMap { row in
                guard let timing = row.timing else { return nil }
                let megabytes = Double(row.bytes) / 1e6
                return [
                    row.name, String(row.files), fixed(megabytes, 1),
                    fixed(timing.dewrap.user, 3), fixed(timing.dewrap.system, 3), fixed(megabytes / timing.dewrap.total),
                    fixed(timing.swiftc.user, 3), fixed(timing.swiftc.system, 3), fixed(megabytes / timing.swiftc.total, 1),
                    fixed(timing.swiftc.total / timing.dewrap.total, 1) + "×",
                    fixed(timing.floor.user, 3), fixed(timing.floor.system, 3), fixed(timing.swiftc.total / timing.floor.total, 1) + "×",
                ]
            })
    }
    return total.status == 0 && total.errors.isEmpty && total.newParseErrors.isEmpty
}

// MARK: - One repository

private func lowerRepository(_ repository: String, _ settings: RealWorldSettings) throws -> RepositoryRow {
    let source = settings.corpus + "/" + repository
    let copy = settings.work + "/" + repository
    try freshCopy(of: source, at: copy)
    let relativePaths = swiftFilesAsDewrapFindsThem(in: copy)
    var row = RepositoryRow(name: repository)
    row.files = relativePaths.count
    var originals: [[UInt8]] = []
    for path in relativePaths {
        let bytes = readBytes(copy + "/" + path)
        originals.append(bytes)
        row.bytes += bytes.count
        row.before.merge(attributeTokens(bytes), uniquingKeysWith: +)
        let tree = Parser.parse(bytes)
        tree.forEachItem { item in
            guard case .variable(let variable) = item, tree.text(of: variable.keyword, in: bytes) == "var" else { return }
            for attribute in variable.prefix.attributes { row.onVariables.insert(tree.text(of: attribute.name.lower, in: bytes)) }
        }
    }

    let run = runChild(settings.dewrap, ["-i", copy], timeout: 3600)
    row.status = run.status
    row.seconds = run.seconds
    let prefix = copy + "/"
    for line in run.errors.split(separator: "\n") {
        let text = String(line)
        for (marker, keyPath) in [(": warning: ", \RepositoryRow.warnings), (": note: ", \RepositoryRow.notes), (": error: ", \RepositoryRow.errors)]
        {
            guard let range = text.range(of: marker) else { continue }
            row[keyPath: keyPath][cause(of: String(text[range.upperBound...])), default: 0] += 1
            break
        }
    }

    var changedPaths: [String] = []
    for (path, original) in zip(relativePaths, originals) {
        let lowered = readBytes(prefix + path)
        row.after.merge(attributeTokens(lowered), uniquingKeysWith: +)
        if lowered != original {
            changedPaths.append(path)
            if settings.inPlaceTiming { row.lowered.append((path, lowered)) }
        }
    }
    if settings.inPlaceTiming { row.paths = relativePaths }
    row.changed = changedPaths.count

    // `swiftc -frontend -parse` on each changed file as it was and as lowered: one call for each side.
    if !changedPaths.isEmpty {
        let originalsFolder = settings.work + "/" + repository + ".before"
        try? FileManager.default.removeItem(atPath: originalsFolder)
        let byPath = Dictionary(uniqueKeysWithValues: zip(relativePaths, originals))
        for path in changedPaths {
            let url = URL(fileURLWithPath: originalsFolder + "/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(byPath[path]!).write(to: url)
        }
        let before = parseErrors(settings.swiftc, folder: originalsFolder, paths: changedPaths)
        let after = parseErrors(settings.swiftc, folder: copy, paths: changedPaths)
        for path in changedPaths where (after.counts[path] ?? 0) > (before.counts[path] ?? 0) {
            row.newParseErrors.append("\(repository)/\(path): \(after.first[path] ?? "")")
        }
        try? FileManager.default.removeItem(atPath: originalsFolder)
    }

    try? FileManager.default.removeItem(atPath: copy)
    return row
}

// MARK: - In-place timing

/// `--in-place-timing`: sets each row's timing. Every timed `dewrap -i` run gets its own copy
/// (`REPOSITORY.runN`), and so does every run of its file system's share (`REPOSITORY.floorN`,
/// `inPlaceFloorUsage`), all of them made and synced before the first run and removed after the
/// last: on ext4, creating files right after deleting many costs more than dewrap itself, so a
/// delete-and-copy just before each run made the timing mostly noise.
private func timeInPlace(_ rows: inout [RepositoryRow], _ settings: RealWorldSettings) throws {
    let runs = max(settings.runs, 1)
    let manager = FileManager.default
    func runCopy(_ repository: String, _ run: Int) -> String { "\(settings.work)/\(repository).run\(run)" }
    func floorCopy(_ repository: String, _ run: Int) -> String { "\(settings.work)/\(repository).floor\(run)" }
    defer {
        for row in rows {
            for run in 0..<runs {
                try? manager.removeItem(atPath: runCopy(row.name, run))
                try? manager.removeItem(atPath: floorCopy(row.name, run))
            }
        }
    }
    for row in rows {
        for run in 0..<runs {
            try freshCopy(of: settings.corpus + "/" + row.name, at: runCopy(row.name, run))
            try freshCopy(of: settings.corpus + "/" + row.name, at: floorCopy(row.name, run))
        }
    }
    // The copying and deleting written to disk, and a moment for writeback to settle: no run pays for them.
    sync()
    Thread.sleep(forTimeInterval: 1)

    let pin = manager.isExecutableFile(atPath: "/usr/bin/taskset") ? ["/usr/bin/taskset", "-c", "0"] : []
    func usage(_ command: [String]) -> Usage {
        let usage = runWithUsage(pin + command)
        return Usage(user: usage.user, system: usage.system)
    }
    for index in rows.indices {
        let repository = rows[index].name
        let dewrapTimes = (0..<runs).map { run in usage([settings.dewrap, "-j", "1", "-i", runCopy(repository, run)]) }
        let source = settings.corpus + "/" + repository
        let parse = [settings.swiftc, "-frontend", "-parse"] + swiftFilesAsDewrapFindsThem(in: source).map { source + "/" + $0 }
        let swiftcTimes = (0..<runs).map { _ in usage(parse) }
        let floorTimes = (0..<runs).map { run in
            let usage = inPlaceFloorUsage(folder: floorCopy(repository, run), paths: rows[index].paths, changed: rows[index].lowered)
            return Usage(user: usage.user, system: usage.system)
        }
        rows[index].timing = Timing(dewrap: median(dewrapTimes), swiftc: median(swiftcTimes), floor: median(floorTimes))
        FileHandle.standardError.write(Data("realworld: \(repository): timed\n".utf8))
    }
}

/// A message with the names in it (between single quotes) replaced by `…`, so that messages
/// of one cause fall together.
private func cause(of message: String) -> String {
    var result = ""
    var quoted = false
    var previous: Character = " "
    for character in message {
        if character == "'" && (!quoted ? !(previous.isLetter || previous.isNumber) : true) {
            if !quoted { result += "'…'" }
            quoted.toggle()
        } else if !quoted {
            result.append(character)
        }
        previous = character
    }
    // "… and 12 more warnings (…)": one cause, whatever the count.
    if result.hasPrefix("… and ") { return "(a repeated message, counted once a file from its 21st)" }
    return result
}

/// `@Name` attribute tokens by name.
private func attributeTokens(_ bytes: [UInt8]) -> [String: Int] {
    let tokens = Lexer.lex(bytes).tokens
    var counts: [String: Int] = [:]
    var index = 0
    while index + 1 < tokens.count {
        if tokens[index].kind == .atSign && tokens[index + 1].kind.isWord && tokens[index + 1].start == tokens[index].end {
            let name = String(decoding: bytes[tokens[index + 1].start..<tokens[index + 1].end], as: UTF8.self)
            if let first = name.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(first), !notWrappers.contains(name),
                !name.hasSuffix("Builder"), !name.hasSuffix("Actor")
            {
                counts[name, default: 0] += 1
            }
        }
        index += 1
    }
    return counts
}

/// Error lines per file from one `swiftc -frontend -parse` of `paths` (relative to `folder`).
private func parseErrors(_ swiftc: String, folder: String, paths: [String]) -> (counts: [String: Int], first: [String: String]) {
    let run = runChild(swiftc, ["-frontend", "-parse"] + paths, in: folder, timeout: 3600)
    var counts: [String: Int] = [:]
    var first: [String: String] = [:]
    let known = Set(paths)
    for line in run.errors.split(separator: "\n") where line.contains(": error: ") {
        var path = String(line.prefix { $0 != ":" })
        if path.hasPrefix(folder + "/") { path = String(path.dropFirst(folder.count + 1)) }
        guard known.contains(path) else { continue }
        counts[path, default: 0] += 1
        if first[path] == nil { first[path] = String(line.drop { $0 != ":" }.dropFirst()) }
    }
    return (counts, first)
}

/// The files `dewrap FOLDER` lowers: `.swift` files, entries starting with `.` skipped.
private func swiftFilesAsDewrapFindsThem(in folder: String) -> [String] {
    var files: [String] = []
    func walk(_ relative: String) {
        let path = relative.isEmpty ? folder : folder + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names.sorted() where !name.hasPrefix(".") {
            let child = relative.isEmpty ? name : relative + "/" + name
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + child)
            let type = attributes?[.type] as? FileAttributeType
            if type == .typeDirectory {
                walk(child)
            } else if name.hasSuffix(".swift") && type == .typeRegular {
                files.append(child)
            }
        }
    }
    walk("")
    return files
}

private func freshCopy(of source: String, at copy: String) throws {
    try? FileManager.default.removeItem(atPath: copy)
    try FileManager.default.copyItem(atPath: source, toPath: copy)
}

private func isFolder(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
}

/// The run whose user + system time is the median.
private func median(_ values: [Usage]) -> Usage {
    let sorted = values.sorted { $0.total < $1.total }
    return sorted.isEmpty ? Usage() : sorted[sorted.count / 2]
}

/// User and system seconds of one child process (`wait4`'s resource usage), output discarded.
func runWithUsage(_ command: [String]) -> (user: Double, system: Double, status: Int32) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    guard posix_spawn(&pid, command[0], &actions, nil, argv, environ) == 0 else { return (0, 0, -1) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    return (seconds(of: usage.ru_utime), seconds(of: usage.ru_stime), (status >> 8) & 0xFF)
}
