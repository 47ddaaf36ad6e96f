/// A region of the file where names can be declared.
public enum ScopeKind: String, Sendable {
    case file, type, function, accessor, closure, block
    /// The conditions and body of `if`/`while`/`guard`-less bindings, a `for` loop, a `catch`.
    case clause
    case switchCase
}

public enum NameKind: String, Sendable {
    /// A `let`/`var` declaration (member, local or global).
    case variable
    /// A function, initializer or subscript parameter.
    case parameter
    case closureParameter
    /// A name bound by a pattern: `if let x`, `for x in`, `case .a(let x)`, `catch let e`.
    case binding
    case function
    case type
    /// `newValue`, `oldValue`, `error`: declared by the language, not by a token.
    case implicit
}

/// A name declared in a scope.
public struct ScopeName: Sendable {
    /// The declaring token; for an implicit name, the accessor or `catch` keyword.
    public var token: Int
    public var kind: NameKind
    /// The first token that can see the name (locals are visible after their declaration).
    public var visibleFrom: Int
    /// The spelling of an implicit name.
    public var implicitName: String?
}

public struct Scope: Sendable {
    public var kind: ScopeKind
    public var span: TokenSpan
    public var parent: Int?
    public var children: [Int]
    public var names: [ScopeName]
}

extension SourceTree {
    /// The innermost scope whose span contains `token`.
    public func innermostScope(containing token: Int) -> Int {
        guard !scopes.isEmpty else { return 0 }
        var current = 0
        descend: while true {
            for child in scopes[current].children where scopes[child].span.contains(token) {
                current = child
                continue descend
            }
            return current
        }
    }

    /// The names visible at `token`, innermost scope first: type members
    /// everywhere in their type, locals from their declaration on.
    public func visibleNames(at token: Int) -> [ScopeName] {
        var result: [ScopeName] = []
        var scope: Int? = innermostScope(containing: token)
        while let current = scope {
            let isType = scopes[current].kind == .type
            for name in scopes[current].names where isType || name.visibleFrom <= token {
                result.append(name)
            }
            scope = scopes[current].parent
        }
        return result
    }

    /// The text of a token, as a String (for printing and tests).
    public func text(of token: Int, in bytes: [UInt8]) -> String {
        String(decoding: bytes[tokens[token].start..<tokens[token].end], as: UTF8.self)
    }
}
