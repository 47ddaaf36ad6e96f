import Foundation
import Testing

/// The code's comments cite the rules by name (`M-8`, `K-1`, `V-3a`, `Decision 5`,
/// `table T`, the Oracle, the Corrections); a reader of the comment must find each
/// name in `docs/`. And every link into the docs, from the README or between
/// pages, names a page and a heading that exist.
struct RuleNameTests {
    static let repository = Fixtures.root.deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The `.swift` files under `folder` (relative to the repository), sorted.
    static func swiftFiles(under folder: String) -> [String] {
        let root = repository.appendingPathComponent(folder)
        let found =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return found.map { folder + String($0.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count)) }.sorted()
    }

    /// The text of every `//` comment in `source`, one entry a line.
    static func comments(in source: String) -> [Substring] {
        source.split(separator: "\n").compactMap { line in
            line.range(of: "//").map { line[$0.upperBound...] }
        }
    }

    /// Rule names in `text`: a family letter, `-`, a number and maybe a letter (`S-1`, `V-3a`),
    /// `Decision N`, `table T`, and the words `Oracle` and `Corrections`.
    static func ruleNames(in text: Substring) -> Set<String> {
        var names: Set<String> = []
        let characters = Array(text)
        func isWordCharacter(_ index: Int) -> Bool {
            index >= 0 && index < characters.count && (characters[index].isLetter || characters[index].isNumber || characters[index] == "_")
        }
        for index in characters.indices where "SAVMNPDXIKL".contains(characters[index]) {
            guard !isWordCharacter(index - 1), index + 2 < characters.count, characters[index + 1] == "-",
                characters[index + 2].isASCII, characters[index + 2].isNumber
            else { continue }
            var end = index + 2
            while end < characters.count && characters[end].isASCII && characters[end].isNumber { end += 1 }
            if end < characters.count && "abc".contains(characters[end]) && !isWordCharacter(end + 1) { end += 1 }
            guard !isWordCharacter(end) else { continue }
            names.insert(String(characters[index..<end]))
        }
        var rest = text[...]
        while let found = rest.range(of: "Decision ") {
            let digits = rest[found.upperBound...].prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty { names.insert("Decision " + digits) }
            rest = rest[found.upperBound...]
        }
        for word in ["table T", "Oracle", "Corrections"] where text.contains(word) { names.insert(word) }
        return names
    }

    static func docs() throws -> String {
        try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { try text("docs/" + $0) }.joined(separator: "\n")
    }

    @Test func everyRuleNameTheCodeCitesIsInTheDocs() throws {
        let docs = try Self.docs()
        var cited: [String: String] = [:] // name: the first file citing it
        for file in Self.swiftFiles(under: "Sources") + Self.swiftFiles(under: "Tests") {
            for comment in Self.comments(in: try Self.text(file)) {
                for name in Self.ruleNames(in: comment) where cited[name] == nil { cited[name] = file }
            }
        }
        // The scan finds what it should: names from several families and the forms above.
        #expect(cited["M-8"] != nil && cited["K-1"] != nil && cited["V-3a"] != nil && cited["Decision 5"] != nil)
        #expect(cited["table T"] != nil && cited.count > 40, "\(cited.keys.sorted())")
        for (name, file) in cited.sorted(by: { $0.key < $1.key }) {
            #expect(Self.ruleNames(in: docs[...]).contains(name), "\(file) cites \(name), which docs/ does not have")
        }
    }

    @Test func theScanReadsRuleNamesOnly() {
        #expect(
            Self.ruleNames(in: "M-4, M-5: (SPEC K-1; V-3a/b) N-1…N-4, Decision 7 and table T") == [
                "M-4", "M-5", "K-1", "V-3a", "N-1", "N-4", "Decision 7", "table T",
            ])
        #expect(Self.ruleNames(in: "UTF-8, x-1, AB-1, A-1b2, SE-0289, views-1000").isEmpty)
    }

    /// GitHub's anchor for a heading: lower case, letters, digits, `-` and `_` kept, spaces made `-`.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            })
    }

    static func anchors(in markdown: String) -> Set<String> {
        var inCode = false
        var result: Set<String> = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode, line.hasPrefix("#") else { continue }
            result.insert(anchor(String(line.drop { $0 == "#" }.drop { $0 == " " })))
        }
        return result
    }

    /// `](target)` links in `markdown`.
    static func links(in markdown: String) -> [String] {
        var result: [String] = []
        var rest = markdown[...]
        while let open = rest.range(of: "](") {
            let target = rest[open.upperBound...].prefix { $0 != ")" && $0 != " " && $0 != "\n" }
            result.append(String(target))
            rest = rest[open.upperBound...]
        }
        return result
    }

    @Test func linksIntoTheDocsLeadSomewhere() throws {
        let pages = ["README.md", "docs/RULES.md", "docs/ARCHITECTURE.md"]
        var checked = 0
        for page in pages {
            let folder = (page as NSString).deletingLastPathComponent
            for link in Self.links(in: try Self.text(page)) where !link.hasPrefix("http") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let file = parts[0].isEmpty ? page : (folder.isEmpty ? "" : folder + "/") + parts[0]
                let target = Self.repository.appendingPathComponent(file).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: target), "\(page): no file for \(link)")
                if parts.count == 2, file.hasSuffix(".md") {
                    #expect(
                        Self.anchors(in: try String(contentsOfFile: target, encoding: .utf8)).contains(String(parts[1])),
                        "\(page): no heading for \(link)")
                }
                checked += 1
            }
        }
        #expect(checked > 50)
    }
}
