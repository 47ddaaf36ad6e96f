/// How bad a diagnostic is.
public enum Severity: String, Sendable {
    case error, warning, note
}

/// A message about the source at a byte offset. Only the CLI turns the offset
/// into `path:line:col:`; the core never formats or prints.
public struct Diagnostic: Equatable, Sendable {
    public var severity: Severity
    /// UTF-8 byte offset into the input, `0...input.count`.
    public var offset: Int
    public var message: String

    public init(_ severity: Severity, at offset: Int, _ message: String) {
        self.severity = severity
        self.offset = offset
        self.message = message
    }
}
