/// A 1-based line and column; the column counts UTF-8 bytes, as swiftc does.
public struct SourceLocation: Equatable, Sendable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// Offsets of line starts, built once, for turning byte offsets into line and
/// column. `\n`, `\r\n` and a lone `\r` each end a line.
public struct LineTable: Sendable {
    public private(set) var lineStarts: [Int] = [0]

    public init(_ bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        var i = endOfLine(bytes, from: 0) // eight bytes at a time
        while i < n {
            if bytes[i] == UInt8(ascii: "\r") && i + 1 < n && bytes[i + 1] == UInt8(ascii: "\n") { i += 1 }
            i += 1
            lineStarts.append(i)
            i = endOfLine(bytes, from: i)
        }
    }

    public init(_ bytes: [UInt8]) {
        self = bytes.withUnsafeBufferPointer { LineTable($0) }
    }

    public func location(of offset: Int) -> SourceLocation {
        // Last line start <= offset (binary search).
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return SourceLocation(line: low + 1, column: offset - lineStarts[low] + 1)
    }
}
