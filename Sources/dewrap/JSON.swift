// A small JSON reader (RFC 8259) for `--config`: the CLI has no Foundation,
// which keeps its start-up short. Every value keeps the byte offset where it
// starts, so that a message about it can name its line and column.

/// A JSON value and where it starts in the text.
struct JSONValue {
    enum Kind {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONValue])
        /// Members in the order written (duplicate names are a syntax error).
        case object([(name: String, nameOffset: Int, value: JSONValue)])
    }

    var kind: Kind
    var offset: Int
}

/// A syntax error at a byte offset.
struct JSONError: Error {
    var offset: Int
    var message: String
}

/// Reads one JSON value that makes up all of `bytes` (whitespace aside).
func parseJSON(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
    var reader = JSONReader(bytes: bytes)
    let value = try reader.value(depth: 0)
    reader.skipWhitespace()
    guard reader.index == bytes.count else { throw JSONError(offset: reader.index, message: "unexpected text after the value") }
    return value
}

private struct JSONReader {
    let bytes: [UInt8]
    var index = 0

    /// Nesting deeper than this is an error, not a stack overflow.
    static let depthLimit = 256

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func error(_ message: String) -> JSONError { JSONError(offset: index, message: message) }

    mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        skipWhitespace()
        guard depth < Self.depthLimit else { throw error("nested too deeply") }
        let start = index
        guard let byte = peek() else { throw error("expected a value, found the end") }
        switch byte {
        case UInt8(ascii: "{"): return JSONValue(kind: .object(try members(depth: depth)), offset: start)
        case UInt8(ascii: "["): return JSONValue(kind: .array(try elements(depth: depth)), offset: start)
        case UInt8(ascii: "\""): return JSONValue(kind: .string(try string()), offset: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONValue(kind: .bool(true), offset: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONValue(kind: .bool(false), offset: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONValue(kind: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(kind: .number(try number()), offset: start)
        default:
            throw error("expected a value")
        }
    }

    private mutating func literal(_ word: String) throws(JSONError) {
        let start = index
        for expected in word.utf8 {
            guard peek() == expected else { throw JSONError(offset: start, message: "expected '\(word)'") }
            index += 1
        }
    }

    private mutating func members(depth: Int) throws(JSONError) -> [(name: String, nameOffset: Int, value: JSONValue)] {
        index += 1 // {
        var members: [(name: String, nameOffset: Int, value: JSONValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return members }
        while true {
            skipWhitespace()
            let nameOffset = index
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            let name = try string()
            if members.contains(where: { $0.name == name }) {
                throw JSONError(offset: nameOffset, message: "'\(name)' is given twice")
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the member name") }
            index += 1
            members.append((name, nameOffset, try value(depth: depth + 1)))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return members
            default: throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func elements(depth: Int) throws(JSONError) -> [JSONValue] {
        index += 1 // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return elements }
        while true {
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return elements
            default: throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func string() throws(JSONError) -> String {
        index += 1 // "
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                utf8 += Array(String(Character(try escape())).utf8)
            case 0..<0x20:
                throw error("a control character in a string must be escaped")
            default:
                utf8.append(byte)
                index += 1
            }
        }
    }

    private mutating func escape() throws(JSONError) -> Unicode.Scalar {
        guard let byte = peek() else { throw error("unterminated string") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try hexQuad()
            if (0xD800..<0xDC00).contains(first), peek() == UInt8(ascii: "\\"),
                index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
            {
                index += 2
                let second = try hexQuad()
                if (0xDC00..<0xE000).contains(second),
                    let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                {
                    return scalar
                }
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("'\\u' names half of a surrogate pair") }
            return scalar
        default:
            index -= 1
            throw error("unknown escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hexQuad() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw error("expected four hexadecimal digits") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONError) -> Double {
        let start = index
        func digits() -> Int {
            let from = index
            while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index - from
        }
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw error("expected a digit")
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("expected a digit after '.'") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("expected a digit in the exponent") }
        }
        guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            throw JSONError(offset: start, message: "not a number")
        }
        return number
    }
}
