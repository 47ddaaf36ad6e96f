// The line edit script behind `--diff`, found as GNU diff finds it (its
// analyze.c and gnulib's diffseq.h, whose steps are named below), so that
// `dewrap --diff` prints what `diff -u` prints: among the many shortest edit
// scripts of two files, the same one.
// 1. `discard_confusing_lines`: lines that cannot be matched are set aside.
// 2. `compareseq` / `diag`: Myers' O(ND) algorithm in linear space, splitting
//    at the middle of a shortest path ("middle snake"), with diff's cut-off
//    for very costly stretches.
// 3. `shift_boundaries`: changed runs slid to where diff puts them.

/// Which lines of `x` are deleted and which lines of `y` inserted (lines as
/// numbers, equal lines equal numbers).
struct EditScript {
    let x: [Int], y: [Int]
    /// One flag per line, with an unchanged sentinel before the first and after
    /// the last line (index `i + 1` for line `i`), as `shiftBoundaries` reads them.
    private(set) var changedX: [Bool], changedY: [Bool]

    init(_ x: [Int], _ y: [Int]) {
        self.x = x
        self.y = y
        changedX = [Bool](repeating: false, count: x.count + 2)
        changedY = [Bool](repeating: false, count: y.count + 2)
    }

    /// diff's `compareseq`: trims the equal ends of a stretch, splits it at a
    /// middle snake and goes on with both halves, over the lines not set aside.
    mutating func compare() {
        let (keptX, keptY) = discardConfusingLines()
        var search = MiddleSnakeSearch(keptX.map { x[$0] }, keptY.map { y[$0] })
        let a = search.a, b = search.b
        var pending = [(0, a.count, 0, b.count, false)]
        // The recursion as a stack: deep inputs must not exhaust the thread's stack.
        while let (xLow, xHigh, yLow, yHigh, minimal) = pending.popLast() {
            var xoff = xLow, xlim = xHigh, yoff = yLow, ylim = yHigh
            while xoff < xlim && yoff < ylim && a[xoff] == b[yoff] { xoff += 1; yoff += 1 }
            while xoff < xlim && yoff < ylim && a[xlim - 1] == b[ylim - 1] { xlim -= 1; ylim -= 1 }
            if xoff == xlim {
                for j in yoff..<ylim { changedY[keptY[j] + 1] = true }
            } else if yoff == ylim {
                for i in xoff..<xlim { changedX[keptX[i] + 1] = true }
            } else {
                let split = search.split(xoff, xlim, yoff, ylim, minimal: minimal)
                // The lower half first, as diff does; the order changes nothing but speed.
                pending.append((split.x, xlim, split.y, ylim, split.highMinimal))
                pending.append((xoff, split.x, yoff, split.y, split.lowMinimal))
            }
        }
    }

    // MARK: - Lines set aside

    private enum Discard { case keep, certain, provisional }

    /// diff's `discard_confusing_lines`: a line with no equal in the other file
    /// is changed in every alignment; it is marked so and left out of the
    /// search. So is a line with very many equals there, but only amid such
    /// lines. Returns the indices of the lines left in.
    private mutating func discardConfusingLines() -> (x: [Int], y: [Int]) {
        var countsX: [Int: Int] = [:], countsY: [Int: Int] = [:]
        for line in x { countsX[line, default: 0] += 1 }
        for line in y { countsY[line, default: 0] += 1 }
        let marksX = Self.confirmed(Self.marks(x, against: countsY))
        let marksY = Self.confirmed(Self.marks(y, against: countsX))
        var keptX: [Int] = [], keptY: [Int] = []
        for (index, mark) in marksX.enumerated() {
            if mark == .keep { keptX.append(index) } else { changedX[index + 1] = true }
        }
        for (index, mark) in marksY.enumerated() {
            if mark == .keep { keptY.append(index) } else { changedY[index + 1] = true }
        }
        return (keptX, keptY)
    }

    /// Certain: no equal in the other file. Provisional: more equals there than
    /// 5 times about the square root of (the number of lines / 64).
    private static func marks(_ lines: [Int], against counts: [Int: Int]) -> [Discard] {
        var many = 5
        var rest = lines.count / 64
        while true {
            rest >>= 2
            if rest <= 0 { break }
            many *= 2
        }
        return lines.map { line in
            let matches = counts[line, default: 0]
            return matches == 0 ? .certain : matches > many ? .provisional : .keep
        }
    }

    /// A provisional discard stands only inside a run of discards that starts and
    /// ends with a certain one, where provisionals do not crowd the run.
    private static func confirmed(_ marks: [Discard]) -> [Discard] {
        var d = marks
        let end = d.count
        var i = 0
        while i < end {
            if d[i] == .provisional { d[i] = .keep }
            guard d[i] == .certain else {
                i += 1
                continue
            }
            var j = i, provisional = 0
            while j < end && d[j] != .keep {
                if d[j] == .provisional { provisional += 1 }
                j += 1
            }
            while j > i && d[j - 1] == .provisional {
                j -= 1
                d[j] = .keep
                provisional -= 1
            }
            let length = j - i
            if provisional * 4 > length {
                for k in i..<j where d[k] == .provisional { d[k] = .keep }
                i += 1 // the run's later certain discards are looked at again, as in diff
                continue
            }
            do {
                // A row of `minimum` provisionals or more stays in the search: two
                // from 16 lines, four from 64 (about the square root of length / 4).
                var minimum = 1
                var rest = length >> 2
                while true {
                    rest >>= 2
                    if rest <= 0 { break }
                    minimum <<= 1
                }
                minimum += 1
                var k = 0, consecutive = 0
                while k < length {
                    if d[i + k] != .provisional {
                        consecutive = 0
                    } else {
                        consecutive += 1
                        if minimum == consecutive {
                            k -= consecutive // back to the row's start, to keep it all
                        } else if minimum < consecutive {
                            d[i + k] = .keep
                        }
                    }
                    k += 1
                }
                // From either end, provisionals before three certain discards in a
                // row (or before a certain one 8 lines in or more) stay in.
                for (origin, direction) in [(i, 1), (i + length - 1, -1)] {
                    consecutive = 0
                    for step in 0..<length {
                        let index = origin + direction * step
                        if step >= 8 && d[index] == .certain { break }
                        switch d[index] {
                        case .provisional:
                            consecutive = 0
                            d[index] = .keep
                        case .keep:
                            consecutive = 0
                        case .certain:
                            consecutive += 1
                        }
                        if consecutive == 3 { break }
                    }
                }
            }
            i += length
        }
        return d
    }

    // MARK: - Sliding changed runs

    /// diff's `shift_boundaries`: among equally short edit scripts, a run of
    /// changed lines that could sit higher or lower (a line added among equal
    /// lines) is slid down as far as it goes, merged with neighbouring runs
    /// where it can be, and then back up to a changed run of the other file.
    mutating func shiftBoundaries() {
        changedX = Self.shifted(changedX, lines: x, other: changedY)
        changedY = Self.shifted(changedY, lines: y, other: changedX)
    }

    /// All indices are line numbers + 1 (the sentinels are 0 and count + 1).
    private static func shifted(_ flags: [Bool], lines: [Int], other: [Bool]) -> [Bool] {
        var changed = flags
        let end = lines.count + 1
        func same(_ a: Int, _ b: Int) -> Bool { lines[a - 1] == lines[b - 1] }
        var i = 1, j = 1
        while true {
            while i < end && !changed[i] {
                while other[j] { j += 1 }
                j += 1
                i += 1
            }
            if i == end { break }
            var start = i
            i += 1
            while changed[i] { i += 1 }
            while other[j] { j += 1 }
            var corresponding = end
            var runLength = 0
            repeat {
                runLength = i - start
                // Up, merging with earlier runs, while the line before the run equals its last.
                while start > 1 && same(start - 1, i - 1) {
                    start -= 1
                    changed[start] = true
                    i -= 1
                    changed[i] = false
                    while changed[start - 1] { start -= 1 }
                    j -= 1
                    while other[j] { j -= 1 }
                }
                corresponding = other[j - 1] ? i : end
                // Then down as far as it goes, merging with later runs.
                while i != end && same(start, i) {
                    changed[start] = false
                    start += 1
                    changed[i] = true
                    i += 1
                    while changed[i] { i += 1 }
                    j += 1
                    while other[j] {
                        j += 1
                        corresponding = i
                    }
                }
            } while runLength != i - start
            // Back up to where the other file's changes are, if the run reached them.
            while corresponding < i {
                start -= 1
                changed[start] = true
                i -= 1
                changed[i] = false
                j -= 1
                while other[j] { j -= 1 }
            }
        }
        return changed
    }
}

// MARK: - The middle snake

/// diff's `diag` over the lines left in (`a`, `b`), with its two arrays of
/// furthest-reaching points, shared by every split.
private struct MiddleSnakeSearch {
    let a: [Int], b: [Int]
    /// The furthest-reaching x on each diagonal `x - y`, offset by `b.count + 1`.
    private var forward: [Int], backward: [Int]
    /// Past this cost the search settles for a good split instead of the best
    /// one (diff's `too_expensive`: at least 4096, about the square root of the
    /// number of diagonals).
    private let tooExpensive: Int

    init(_ a: [Int], _ b: [Int]) {
        self.a = a
        self.b = b
        let diagonals = a.count + b.count + 3
        forward = [Int](repeating: 0, count: diagonals)
        backward = [Int](repeating: 0, count: diagonals)
        var expensive = 1
        var rest = diagonals
        while rest != 0 {
            expensive <<= 1
            rest >>= 2
        }
        tooExpensive = max(4096, expensive)
    }

    /// Searches from both corners at once, one edit step at a time, until the two
    /// searches meet on a diagonal; the stretch is split there.
    mutating func split(_ xoff: Int, _ xlim: Int, _ yoff: Int, _ ylim: Int, minimal: Bool)
        -> (x: Int, y: Int, lowMinimal: Bool, highMinimal: Bool)
    {
        let shift = b.count + 1 // diagonal d is at index d + shift
        let dmin = xoff - ylim, dmax = xlim - yoff
        let fmid = xoff - yoff, bmid = xlim - ylim
        var fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid
        let odd = (fmid - bmid) & 1 != 0
        forward[fmid + shift] = xoff
        backward[bmid + shift] = xlim
        var cost = 1
        while true {
            // One more edit step top-down on every reachable diagonal.
            if fmin > dmin { fmin -= 1; forward[fmin - 1 + shift] = -1 } else { fmin += 1 }
            if fmax < dmax { fmax += 1; forward[fmax + 1 + shift] = -1 } else { fmax -= 1 }
            var d = fmax
            while d >= fmin {
                let low = forward[d - 1 + shift], high = forward[d + 1 + shift]
                let start = low >= high ? low + 1 : high
                var i = start, j = start - d
                while i < xlim && j < ylim && a[i] == b[j] { i += 1; j += 1 }
                forward[d + shift] = i
                if odd && bmin <= d && d <= bmax && backward[d + shift] <= i {
                    return (i, j, true, true)
                }
                d -= 2
            }
            // And bottom-up.
            if bmin > dmin { bmin -= 1; backward[bmin - 1 + shift] = Int.max } else { bmin += 1 }
            if bmax < dmax { bmax += 1; backward[bmax + 1 + shift] = Int.max } else { bmax -= 1 }
            d = bmax
            while d >= bmin {
                let low = backward[d - 1 + shift], high = backward[d + 1 + shift]
                let start = low < high ? low : high - 1
                var i = start, j = start - d
                while xoff < i && yoff < j && a[i - 1] == b[j - 1] { i -= 1; j -= 1 }
                backward[d + shift] = i
                if !odd && fmin <= d && d <= fmax && i <= forward[d + shift] {
                    return (i, j, true, true)
                }
                d -= 2
            }
            if !minimal && cost >= tooExpensive {
                return settle(xoff, xlim, yoff, ylim, fmin: fmin, fmax: fmax, bmin: bmin, bmax: bmax)
            }
            cost += 1
        }
    }

    /// Too costly to finish: split at the furthest point either search reached
    /// (diff's "halfway between our best results so far"); that side is minimal.
    private func settle(_ xoff: Int, _ xlim: Int, _ yoff: Int, _ ylim: Int, fmin: Int, fmax: Int, bmin: Int, bmax: Int)
        -> (x: Int, y: Int, lowMinimal: Bool, highMinimal: Bool)
    {
        let shift = b.count + 1
        var forwardBest = -1, forwardX = 0
        var d = fmax
        while d >= fmin {
            var i = min(forward[d + shift], xlim), j = i - d
            if ylim < j { i = ylim + d; j = ylim }
            if forwardBest < i + j { forwardBest = i + j; forwardX = i }
            d -= 2
        }
        var backwardBest = Int.max, backwardX = 0
        d = bmax
        while d >= bmin {
            var i = max(xoff, backward[d + shift]), j = i - d
            if j < yoff { i = yoff + d; j = yoff }
            if i + j < backwardBest { backwardBest = i + j; backwardX = i }
            d -= 2
        }
        if (xlim + ylim) - backwardBest < forwardBest - (xoff + yoff) {
            return (forwardX, forwardBest - forwardX, true, false)
        }
        return (backwardX, backwardBest - backwardX, false, true)
    }
}
