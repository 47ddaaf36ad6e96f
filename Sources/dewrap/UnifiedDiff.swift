// `--diff`: a unified diff of an input against its lowering, as `diff -u`
// prints it (GNU diffutils): the edit script of EditScript.swift, grouped
// into hunks with three lines of context. Lines are compared as bytes, line
// end included, so a last line without one differs from the same line with
// one, as in diff.

/// A unified diff of `old` against `new`, headed `--- a/OLDNAME` and `+++ b/NEWNAME`
/// (so that `patch -p1` applies it); empty when the two are the same.
func unifiedDiff(_ old: [UInt8], _ new: [UInt8], oldName: String, newName: String, context: Int = 3) -> [UInt8] {
    if old == new { return [] }
    let oldLines = splitLines(old), newLines = splitLines(new)
    var numbering = LineNumbering()
    let x = oldLines.map { numbering.number(of: old[$0]) }
    let y = newLines.map { numbering.number(of: new[$0]) }
    // As diff, compare only the lines between the equal beginning and end, and
    // `context` lines of each: a changed run can slide that far and no further.
    var prefix = 0
    while prefix < x.count && prefix < y.count && x[prefix] == y[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < x.count - prefix && suffix < y.count - prefix && x[x.count - 1 - suffix] == y[y.count - 1 - suffix] {
        suffix += 1
    }
    let skipped = prefix - min(prefix, context), kept = suffix - min(suffix, context)
    var edits = EditScript(Array(x[skipped..<x.count - kept]), Array(y[skipped..<y.count - kept]))
    edits.compare()
    edits.shiftBoundaries()
    let oldChanged = [Bool](repeating: false, count: skipped) + edits.changedX + [Bool](repeating: false, count: kept)
    let newChanged = [Bool](repeating: false, count: skipped) + edits.changedY + [Bool](repeating: false, count: kept)

    var out: [UInt8] = []
    out += "--- a/\(oldName)\n+++ b/\(newName)\n".utf8
    for hunk in hunks(oldChanged: oldChanged, newChanged: newChanged, context: context) {
        out += "@@ -\(rangeText(hunk.old)) +\(rangeText(hunk.new)) @@\n".utf8
        for line in hunk.lines {
            let (marker, bytes, range): (UInt8, [UInt8], Range<Int>) =
                switch line {
                case .same(let i): (UInt8(ascii: " "), old, oldLines[i])
                case .deleted(let i): (UInt8(ascii: "-"), old, oldLines[i])
                case .inserted(let j): (UInt8(ascii: "+"), new, newLines[j])
                }
            out.append(marker)
            out += bytes[range]
            if range.isEmpty || bytes[range.upperBound - 1] != UInt8(ascii: "\n") {
                out += "\n\\ No newline at end of file\n".utf8
            }
        }
    }
    return out
}

/// Each line's byte range, its `\n` included; the last one may have none.
private func splitLines(_ bytes: [UInt8]) -> [Range<Int>] {
    var lines: [Range<Int>] = []
    var start = 0
    for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
        lines.append(start..<index + 1)
        start = index + 1
    }
    if start < bytes.count { lines.append(start..<bytes.count) }
    return lines
}

/// Equal lines get equal numbers, in either file.
private struct LineNumbering {
    private var numbers: [ArraySlice<UInt8>: Int] = [:]

    mutating func number(of line: ArraySlice<UInt8>) -> Int {
        if let number = numbers[line] { return number }
        numbers[line] = numbers.count
        return numbers.count - 1
    }
}

/// `@@` ranges: `START,COUNT`, only `START` for one line, and for none the
/// line before the range (`0,0` at the top), as diff and patch expect.
private func rangeText(_ lines: Range<Int>) -> String {
    switch lines.count {
    case 0: return "\(lines.lowerBound),0"
    case 1: return "\(lines.lowerBound + 1)"
    default: return "\(lines.lowerBound + 1),\(lines.count)"
    }
}

// MARK: - Hunks

private enum DiffLine {
    case same(Int), deleted(Int), inserted(Int)
}

private struct Hunk {
    var old: Range<Int>
    var new: Range<Int>
    var lines: [DiffLine]
}

/// The changes, walked through both files at once, grouped as diff groups them:
/// `context` equal lines around each change, and two changes in one hunk when
/// at most `2 * context` equal lines lie between them. Flags as in `EditScript`.
private func hunks(oldChanged: [Bool], newChanged: [Bool], context: Int) -> [Hunk] {
    // Each change: where it starts in both files and how many lines it deletes and inserts.
    var changes: [(i: Int, j: Int, deleted: Int, inserted: Int)] = []
    let oldCount = oldChanged.count - 2, newCount = newChanged.count - 2
    var i = 0, j = 0
    while i < oldCount || j < newCount {
        if (i < oldCount && oldChanged[i + 1]) || (j < newCount && newChanged[j + 1]) {
            var deleted = 0, inserted = 0
            while i + deleted < oldCount && oldChanged[i + deleted + 1] { deleted += 1 }
            while j + inserted < newCount && newChanged[j + inserted + 1] { inserted += 1 }
            changes.append((i, j, deleted, inserted))
            i += deleted
            j += inserted
        } else {
            i += 1
            j += 1
        }
    }

    var result: [Hunk] = []
    var index = 0
    while index < changes.count {
        var last = index
        while last + 1 < changes.count
            && changes[last + 1].i - (changes[last].i + changes[last].deleted) <= 2 * context
        {
            last += 1
        }
        let first = changes[index], final = changes[last]
        let oldStart = max(0, first.i - context)
        let oldEnd = min(oldCount, final.i + final.deleted + context)
        let newStart = first.j - (first.i - oldStart)
        let newEnd = final.j + final.inserted + (oldEnd - (final.i + final.deleted))
        var lines: [DiffLine] = []
        var oldLine = oldStart
        for change in changes[index...last] {
            while oldLine < change.i { lines.append(.same(oldLine)); oldLine += 1 }
            for k in 0..<change.deleted { lines.append(.deleted(change.i + k)) }
            for k in 0..<change.inserted { lines.append(.inserted(change.j + k)) }
            oldLine += change.deleted
        }
        while oldLine < oldEnd { lines.append(.same(oldLine)); oldLine += 1 }
        result.append(Hunk(old: oldStart..<oldEnd, new: newStart..<newEnd, lines: lines))
        index = last + 1
    }
    return result
}
