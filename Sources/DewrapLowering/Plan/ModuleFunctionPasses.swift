#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's bytes and their lowering, kept until the module's run knows it is final.
public struct LoweredFile: Sendable {
    public var source: [UInt8]
    public var result: LoweringResult

    public init(source: [UInt8], result: LoweringResult) {
        self.source = source
        self.result = result
    }
}

/// Functions with wrapped parameters across the inputs of a module's run (issue 21): which ones
/// are lowered (declared by one input, every use in the other inputs a call they rewrite), which
/// are refused and why, and which inputs must be lowered again after a refusal.
public struct ModuleFunctionPasses {
    /// The lowerings not yet finished, by job (nil: finished or not lowered).
    public var held: [LoweredFile?]
    private let paths: [String]
    /// Refused functions by name, with the reason their declaring file's warning gives.
    private var refused: [String: String] = [:]
    /// The functions inputs declare and other inputs name, with the job declaring each.
    private var declared: [(function: ModuleFunction, job: Int)] = []
    /// Whether a job was lowered before the functions were known (`early`), and so must be lowered
    /// again if it names one of another file.
    private var loweredBlind: [Bool]

    /// `early`: the inputs that may declare such a function, lowered first.
    public init(early: [LoweredFile?], paths: [String]) {
        held = early
        self.paths = paths
        loweredBlind = early.map { $0 != nil }
        var declaring: [String: Int] = [:]
        for (job, lowered) in early.enumerated() {
            for function in lowered?.result.projections.functions ?? [] {
                if let other = declaring[function.name] {
                    refused[function.name] =
                        "'\(paths[other])' and '\(paths[job])' both declare a function '\(function.name)' with wrapped parameters, so its calls are not certain"
                } else {
                    declaring[function.name] = job
                    declared.append((function, job))
                }
            }
        }
    }

    /// What the inputs are lowered knowing now.
    public var calls: ModuleCalls {
        ModuleCalls(functions: declared.filter { refused[$0.function.name] == nil }.map(\.function), refused: refused)
    }

    /// Whether some input declares a function that other inputs name (else nothing is to be done).
    public var declaresFunctions: Bool { !declared.isEmpty }

    /// Refuses the functions that module source `path` names: it is read, never written.
    public mutating func refuseNamed(by source: [UInt8], path: String) {
        for (function, _) in declared
        where refused[function.name] == nil
            && wordOccurrences(of: Array(function.name.utf8), in: source) > 0
        {
            refused[function.name] = "the module source '\(path)' names it, and module sources are read, never written"
        }
    }

    /// The jobs to lower again with `calls`, after refusing every function some input has a use
    /// of that it cannot rewrite: those that declare or call a refused function, and those lowered
    /// before the functions were known that name one declared elsewhere.
    public mutating func staleFiles() -> [Int] {
        for (job, lowered) in held.enumerated() {
            guard let projections = lowered?.result.projections else { continue }
            // A declaration only this lowering found: other inputs were finished without knowing it.
            for function in projections.functions where !declared.contains(where: { $0.function.name == function.name }) {
                refused[function.name] =
                    refused[function.name]
                    ?? "dewrap saw it only after other files of the module were written (please report this input)"
            }
            for use in projections.unmatched where refused[use.name] == nil {
                refused[use.name] = "its use at \(paths[job]):\(use.line):\(use.column) cannot be rewritten: \(use.reason)"
            }
        }
        let lowered = Set(calls.functions.map(\.name))
        return held.indices.filter { job in
            guard let held = held[job] else { return false }
            let projections = held.result.projections
            if projections.functions.contains(where: { refused[$0.name] != nil }) { return true }
            if projections.called.contains(where: { !lowered.contains($0) }) { return true }
            guard loweredBlind[job] else { return false }
            return declared.contains { function, declaring in
                declaring != job && lowered.contains(function.name)
                    && wordOccurrences(of: Array(function.name.utf8), in: held.source) > 0
            }
        }
    }

    /// Records that `jobs` were lowered again knowing `calls`.
    public mutating func relowered(_ jobs: [Int]) {
        for job in jobs { loweredBlind[job] = false }
    }
}

/// Whether `source` may declare a function with a wrapped parameter, by its bytes: an attribute
/// `@Name` (its arguments skipped) followed by a name that is not a declaration's keyword or
/// modifier (`var`, `private`, `func`, …), as a parameter's label or name is; or by anything
/// unusual. A superset (closures' wrapped parameters too); what it misses, a parameter whose label
/// is such a word (`@W private x: Int`), is refused by the run rather than lowered wrong.
public func mayDeclareWrappedParameter(_ source: [UInt8]) -> Bool {
    source.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return false }
        // Read once: each use of a global checks that it is made.
        let declarationWords = declarationWords
        func skipSpace(_ index: inout Int) {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                index += 1
            }
        }
        func skipName(_ index: inout Int) {
            while index < bytes.count, isASCIINameByte(bytes[index]) || bytes[index] >= 0x80 { index += 1 }
        }
        var from = 0
        while from < bytes.count, let hit = memchr(base + from, Int32(UInt8(ascii: "@")), bytes.count - from) {
            var index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
            from = index
            let nameStart = index
            skipName(&index)
            guard index > nameStart else { continue }
            skipSpace(&index)
            // The attribute's arguments, `(…)`, with nested parentheses.
            if index < bytes.count && bytes[index] == UInt8(ascii: "(") {
                var depth = 0
                repeat {
                    if bytes[index] == UInt8(ascii: "(") { depth += 1 } else if bytes[index] == UInt8(ascii: ")") { depth -= 1 }
                    index += 1
                } while index < bytes.count && depth > 0
                skipSpace(&index)
            }
            guard index < bytes.count else { return false }
            let byte = bytes[index]
            // Another attribute is looked at on its own; a type's or closure's syntax follows no parameter name.
            if byte == UInt8(ascii: "@") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "{")
                || byte == UInt8(ascii: ")") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "&")
            {
                continue
            }
            guard isASCIINameByte(byte) || byte >= 0x80 else { return true }
            let wordStart = index
            skipName(&index)
            guard declarationWords.contains(UnsafeBufferPointer(rebasing: bytes[wordStart..<index])) else { return true }
            // Such a word as a label: `@W in: Int`.
            skipSpace(&index)
            if index < bytes.count && bytes[index] == UInt8(ascii: ":") { return true }
        }
        return false
    }
}

/// Words that follow an attribute of a declaration, a type or a closure, never a parameter's name.
private let declarationWords = NameSet(names: [
    "var", "let", "func", "class", "struct", "enum", "protocol", "extension", "actor", "typealias", "init", "deinit",
    "subscript", "static", "private", "fileprivate", "internal", "public", "open", "package", "final", "override",
    "mutating", "nonmutating", "lazy", "weak", "unowned", "dynamic", "required", "convenience", "nonisolated",
    "isolated", "async", "throws", "rethrows", "some", "any", "in", "case", "indirect", "prefix", "postfix", "infix",
    "borrowing", "consuming", "inout", "import", "macro", "associatedtype", "distributed", "default", "optional",
    "sending", "precedencegroup", "operator",
])
