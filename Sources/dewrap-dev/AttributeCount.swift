import DewrapSyntax
import Foundation

/// Checks that the parser finds every wrapped declaration: counts attributed
/// `var` declarations per attribute name twice, once from the parser's tree
/// and once by an independent scan of the raw tokens, and compares.
func attributeCount(_ files: [String]) -> Bool {
    var fromTree: [String: Int] = [:]
    var fromTokens: [String: Int] = [:]
    for path in files {
        let bytes = readBytes(path)
        let tree = Parser.parse(bytes)
        var fileTree: [String: Int] = [:]
        tree.forEachItem { item in
            guard case .variable(let variable) = item, tree.text(of: variable.keyword, in: bytes) == "var" else { return }
            for attribute in variable.prefix.attributes {
                fileTree[tree.text(of: attribute.name.lower, in: bytes), default: 0] += 1
            }
        }
        let fileTokens = attributedVarsByTokens(bytes, tree.tokens)
        if fileTree != fileTokens {
            print("attributes: \(path): parser \(fileTree.sorted { $0.key < $1.key }), token scan \(fileTokens.sorted { $0.key < $1.key })")
        }
        fromTree.merge(fileTree, uniquingKeysWith: +)
        fromTokens.merge(fileTokens, uniquingKeysWith: +)
    }
    var agree = true
    let names = Set(fromTree.keys).union(fromTokens.keys).sorted {
        (fromTree[$0] ?? 0, $1) > (fromTree[$1] ?? 0, $0)
    }
    var shown: [String] = []
    for name in names {
        let parsed = fromTree[name] ?? 0
        let scanned = fromTokens[name] ?? 0
        if parsed != scanned {
            agree = false
            print("attributes: @\(name): parser \(parsed), token scan \(scanned)")
        } else {
            shown.append("@\(name) \(parsed)")
        }
    }
    let total = fromTree.values.reduce(0, +)
    print(
        "attributes: \(total) attributes on var declarations, \(names.count) names; "
            + (agree ? "parser and token scan agree" : "MISMATCH") + "; top: " + shown.prefix(16).joined(separator: ", "))
    return agree
}

/// The independent count: `@Name` (with optional `.Member`, `<…>` and
/// `(…)`), more attributes or modifier words, then the keyword `var`.
/// It knows nothing of declarations, scopes or expressions.
private func attributedVarsByTokens(_ bytes: [UInt8], _ tokens: [Token]) -> [String: Int] {
    let modifiers: Set<String> = [
        "public", "private", "fileprivate", "internal", "open", "package", "static", "class", "final", "override",
        "mutating", "nonmutating", "lazy", "weak", "unowned", "optional", "required", "dynamic", "nonisolated",
        "isolated", "distributed", "indirect", "__setter_access", "_const",
    ]
    func text(_ i: Int) -> String { String(decoding: bytes[tokens[i].start..<tokens[i].end], as: UTF8.self) }
    func attached(_ i: Int) -> Bool { tokens[i].start == tokens[i - 1].end }
    /// From an opening token, the index after its partner.
    func skipGroup(_ i: Int, open: (Token) -> Int) -> Int {
        var depth = 0
        var k = i
        repeat {
            depth += open(tokens[k])
            k += 1
        } while depth > 0 && k < tokens.count - 1
        return k
    }
    var counts: [String: Int] = [:]
    var i = 0
    while i < tokens.count - 1 {
        guard tokens[i].kind == .atSign else {
            i += 1
            continue
        }
        var names: [String] = []
        var k = i
        while k < tokens.count - 1 {
            if tokens[k].kind == .atSign && tokens[k + 1].kind.isWord {
                names.append(text(k + 1))
                k += 2
                while tokens[k].kind == .period && tokens[k + 1].kind.isWord { k += 2 }
                if attached(k) && text(k).hasPrefix("<") {
                    k = skipGroup(k) { token in
                        let spelling = String(decoding: bytes[token.start..<token.end], as: UTF8.self)
                        return spelling.filter { $0 == "<" }.count - spelling.filter { $0 == ">" }.count
                    }
                }
                if tokens[k].kind == .leftParen && attached(k) {
                    k = skipGroup(k) { token in
                        switch token.kind {
                        case .leftParen, .leftSquare, .leftBrace, .interpolationStart: return 1
                        case .rightParen, .rightSquare, .rightBrace, .interpolationEnd: return -1
                        default: return 0
                        }
                    }
                }
            } else if tokens[k].kind == .poundKeyword && ["#if", "#elseif", "#else", "#endif"].contains(text(k)) {
                // A directive among attributes (`@A #if X @B #endif var`): skip it and its condition line.
                k += 1
                while k < tokens.count - 1 && !tokens[k].flags.contains(.atStartOfLine) { k += 1 }
            } else if tokens[k].kind.isWord && modifiers.contains(text(k)) {
                k += 1
                if tokens[k].kind == .leftParen && attached(k) { k += 3 } // `private(set)`
            } else {
                break
            }
        }
        if tokens[k].kind == .keyword && text(k) == "var" {
            for name in names { counts[name, default: 0] += 1 }
        }
        i = max(k, i + 1)
    }
    return counts
}
