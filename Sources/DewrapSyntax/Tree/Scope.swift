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
    /// The spelling of an implicit name. A `StaticString` keeps the whole
    /// struct trivial: the parser's name tables are then filled and copied
    /// without retaining anything.
    public var implicitName: StaticString?
}

/// A scope's children and names are ranges of two tables of the tree,
/// `scopeChildren` and `scopeNames`, not arrays of its own: an array each
/// cost an allocation per scope to build and a release and free per scope
/// to tear down.
public struct Scope: Sendable {
    public var kind: ScopeKind
    public var span: TokenSpan
    public var parent: Int?
    /// The scopes directly inside, in source order: a range of `SourceTree.scopeChildren`.
    public var children: Range<Int>
    /// The names declared here, in declaration order: a range of `SourceTree.scopeNames`.
    public var names: Range<Int>
}

extension SourceTree {
    /// The innermost scope whose span contains `token`. Children are in source
    /// order and disjoint, so each level is a binary search: a file with
    /// thousands of types costs a few steps per look-up, not thousands.
    public func innermostScope(containing token: Int) -> Int {
        guard !scopes.isEmpty else { return 0 }
        var current = 0
        while true {
            let children = scopes[current].children
            var low = children.lowerBound, high = children.upperBound
            while low < high {
                let mid = (low + high) / 2
                if scopes[scopeChildren[mid]].span.upper <= token { low = mid + 1 } else { high = mid }
            }
            guard low < children.upperBound, scopes[scopeChildren[low]].span.contains(token) else { return current }
            current = scopeChildren[low]
        }
    }

    /// The names visible at `token`, innermost scope first: type members
    /// everywhere in their type, locals from their declaration on.
    public func visibleNames(at token: Int) -> [ScopeName] {
        var result: [ScopeName] = []
        var scope: Int? = innermostScope(containing: token)
        while let current = scope {
            let isType = scopes[current].kind == .type
            for name in scopeNames[scopes[current].names] where isType || name.visibleFrom <= token {
                result.append(name)
            }
            scope = scopes[current].parent
        }
        return result
    }

    /// The nearest name visible at `token` that `matches`, among the names
    /// declared inside the code around it: parameters and locals of functions,
    /// closures and blocks, up to (not including) the enclosing type or the
    /// file. A local can only be seen from code in its own function, so these
    /// are the names that can shadow a member; no array is built.
    public func nearestLocalName(at token: Int, where matches: (ScopeName) -> Bool) -> ScopeName? {
        var scope: Int? = innermostScope(containing: token)
        while let current = scope, scopes[current].kind != .type, scopes[current].kind != .file {
            for name in scopeNames[scopes[current].names] where name.visibleFrom <= token && matches(name) {
                return name
            }
            scope = scopes[current].parent
        }
        return nil
    }

    /// The text of a token, as a String (for printing and tests).
    public func text(of token: Int, in bytes: [UInt8]) -> String {
        String(decoding: bytes[tokens[token].start..<tokens[token].end], as: UTF8.self)
    }
}
