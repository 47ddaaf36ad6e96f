import Foundation

/// The initializers `swiftc -print-ast` shows, synthesized ones included (SPEC
/// "Oracle"), and the two known, allowed ways in which the compiler's own
/// differ from dewrap's written-out ones. Shared by the fixture tests and
/// `dewrap-dev differential`, so that both judge inits the same way.
public enum InitializerSignatures {
    /// The initializer declarations in `printedAST`, one signature per line, in order.
    public static func lines(in printedAST: String) -> [String] {
        printedAST.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            // Declarations only: nothing but attributes and modifiers before `init(`.
            guard let range = trimmed.range(of: "init("),
                !trimmed[..<range.lowerBound].contains(where: { "=.(".contains($0) })
            else { return nil }
            return String(trimmed.hasSuffix(" {") ? trimmed.dropLast(2) : trimmed)
        }
    }

    /// The initializer signatures of each top-level type and its extensions (`-print-ast` writes top-level
    /// declarations unindented), by type name.
    public static func byType(in printedAST: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var current: String?
        for line in printedAST.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.first != " " && line.first != "}" {
                let words = line.split(separator: " ")
                current = nil
                if let keyword = words.firstIndex(where: { ["struct", "class", "actor", "enum", "extension"].contains($0) }),
                    keyword + 1 < words.count
                {
                    current = String(words[keyword + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                }
                continue
            }
            if let current, let signature = lines(in: String(line)).first { result[current, default: []].append(signature) }
        }
        return result
    }

    /// SPEC Corrections, I-4: the written-out form of a compiler's `nonisolated` memberwise init that dewrap
    /// leaves isolated, as `-print-ast` prints the type's isolation (`@MainActor @preconcurrency` inferred
    /// from `View`, `@MainActor` written on the type); nil when `signature` is not `nonisolated`.
    public static func keptIsolated(_ signature: String, isolation: String = "@MainActor @preconcurrency") -> String? {
        guard signature.hasPrefix("nonisolated ") else { return nil }
        return isolation + " " + signature.dropFirst("nonisolated ".count)
    }

    /// Signatures compared as multisets: `-print-ast` puts a synthesized `init(from:)` (K-1) before the
    /// implicit memberwise init, but after a written-out one.
    public static func sorted(_ signatures: [String]) -> [String] {
        signatures.sorted()
    }

    /// The labels of a signature's parameters, `init(a: Int = 1, b: …)` → `["a", "b"]`.
    public static func labels(_ signature: String) -> [String] {
        guard let open = signature.firstIndex(of: "(") else { return [] }
        var labels: [String] = []
        var depth = 0
        var start = signature.index(after: open)
        var index = start
        var previous: Character = " "
        while index < signature.endIndex {
            let character = signature[index]
            defer { previous = character }
            if "([<{".contains(character) { depth += 1 }
            // The `>` of a function type's `->` closes nothing.
            if ")]}".contains(character) || (character == ">" && previous != "-") {
                if depth == 0 {
                    let piece = signature[start..<index]
                    if let colon = piece.firstIndex(of: ":") { labels.append(piece[..<colon].trimmingCharacters(in: .whitespaces)) }
                    break
                }
                depth -= 1
            }
            if character == "," && depth == 0 {
                let piece = signature[start..<index]
                if let colon = piece.firstIndex(of: ":") { labels.append(piece[..<colon].trimmingCharacters(in: .whitespaces)) }
                start = signature.index(after: index)
            }
            index = signature.index(after: index)
        }
        return labels
    }
}
