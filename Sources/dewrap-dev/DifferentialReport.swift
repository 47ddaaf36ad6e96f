import Foundation

/// Runs `dewrap-dev differential`: generates the programs, runs them batch by
/// batch, saves every program that is not the same (original, lowering,
/// driver, what differed, how to reproduce it) and prints the summary.
/// Returns whether none is different or not compiling.
func differential(_ settings: DifferentialSettings) throws -> Bool {
    let generator = ProgramGenerator(seed: settings.seed)
    let indices = settings.only.map { [$0] } ?? Array(0..<settings.count)
    let programs = indices.map(generator.program)
    if let folder = settings.emit {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for program in programs {
            try Data(program.source.utf8).write(to: URL(fileURLWithPath: "\(folder)/P\(program.index).swift"))
            if let companion = program.companion {
                try Data(companion.utf8).write(to: URL(fileURLWithPath: "\(folder)/P\(program.index).more.swift"))
            }
        }
        return true
    }

    let start = Date()
    let runner = try DifferentialRunner(settings: settings)
    var outcomes: [ProgramOutcome] = []
    let batches = stride(from: 0, to: programs.count, by: settings.batchSize).map {
        Array(programs[$0..<min($0 + settings.batchSize, programs.count)])
    }
    for (number, batch) in batches.enumerated() {
        let batchStart = Date()
        outcomes += try runner.run(batch)
        let seconds = Int(Date().timeIntervalSince(batchStart))
        FileHandle.standardError.write(
            Data(
                "batch \(number + 1)/\(batches.count): programs \(batch.first!.index)…\(batch.last!.index), \(seconds) s (\(runner.clock.takeSummary()))\n"
                    .utf8))
    }

    // A program saved by an earlier run that is now the same is saved no longer.
    for outcome in outcomes where outcome.verdict == .same {
        try? FileManager.default.removeItem(atPath: "\(settings.work)/seed\(settings.seed)-P\(outcome.program.index)")
    }
    func count(_ verdict: ProgramOutcome.Verdict) -> Int { outcomes.filter { $0.verdict == verdict }.count }
    print(
        "\(outcomes.count) programs, \(count(.same)) same, \(count(.leftWithWarning)) left with a warning, "
            + "\(count(.different)) different, \(count(.notCompiling)) not compiling (seed \(settings.seed), "
            + "\(Int(Date().timeIntervalSince(start))) s)")
    if settings.verdicts {
        for outcome in outcomes { print("P\(outcome.program.index): \(outcome.verdict.rawValue)") }
    }
    for outcome in outcomes where outcome.verdict == .different || outcome.verdict == .notCompiling {
        let folder = try save(outcome, settings: settings)
        let first = outcome.reasons.first?.split(separator: "\n").prefix(2).joined(separator: " ") ?? ""
        let kind = outcome.originalFails ? "not compiling (the original: a generator bug)" : outcome.verdict.rawValue
        print("  seed \(settings.seed) index \(outcome.program.index): \(kind): \(first)")
        print("    \(folder)")
    }
    for outcome in outcomes where outcome.verdict == .leftWithWarning {
        let folder = try save(outcome, settings: settings)
        let first = outcome.diagnostics.first { $0.contains(": warning: ") } ?? ""
        print("  seed \(settings.seed) index \(outcome.program.index): left with a warning: \(first)")
        print("    \(folder)")
    }

    // Warnings by cause: the message with the quoted names left out.
    var causes: [String: [Int]] = [:]
    for outcome in outcomes {
        var seen: Set<String> = []
        for diagnostic in outcome.diagnostics {
            guard let severity = diagnostic.range(of: ": warning: ") ?? diagnostic.range(of: ": note: ") ?? diagnostic.range(of: ": error: ") else {
                continue
            }
            let cause = String(diagnostic[diagnostic.index(severity.lowerBound, offsetBy: 2)...]).replacingQuotedNames()
            if seen.insert(cause).inserted { causes[cause, default: []].append(outcome.program.index) }
        }
    }
    if !causes.isEmpty {
        print("dewrap's diagnostics by cause (programs):")
        for (cause, programs) in causes.sorted(by: { $0.value.count > $1.value.count || ($0.value.count == $1.value.count && $0.key < $1.key) }) {
            print("  \(programs.count)  \(cause)  [e.g. \(programs.prefix(5).map(String.init).joined(separator: ", "))]")
        }
    }
    return count(.different) == 0 && count(.notCompiling) == 0
}

/// Saves a program that is not the same under `<work>/seed<S>-P<index>/`; returns that folder.
private func save(_ outcome: ProgramOutcome, settings: DifferentialSettings) throws -> String {
    let program = outcome.program
    let folder = "\(settings.work)/seed\(settings.seed)-P\(program.index)"
    let manager = FileManager.default
    try? manager.removeItem(atPath: folder)
    try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
    func write(_ name: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(name)")) }
    try write("original.swift", program.source)
    if let companion = program.companion { try write("original.more.swift", companion) }
    if let lowered = outcome.lowered { try write("lowered.swift", lowered) }
    try write(
        "main.swift",
        """
        // The driver: runs program \(program.index) of seed \(settings.seed) (its declarations and its driver
        // function are in original.swift and lowered.swift).
        import SwiftUI

        wrapperTrace = { print("  [trace] " + $0) }
        await \(program.driver)()

        """)
    try write(
        "reproduce.sh",
        """
        #!/usr/bin/env bash
        # Builds program \(program.index) of seed \(settings.seed) as written and as lowered against the SwiftUI stand-in and runs both.
        # The same program again through the whole check: bin/differential --seed \(settings.seed) --index \(program.index)
        set -u
        cd "$(dirname "$0")"
        standin=\(settings.work)/standin
        for side in original lowered; do
            mkdir -p "$side" && cat "$side.swift" $([[ -f "$side.more.swift" ]] && echo "$side.more.swift") > "$side/Program.swift" \\
                && cp main.swift "$side/main.swift"
            swiftc -swift-version 6 -I "$standin" -L "$standin" -lSwiftUI "$side/Program.swift" "$side/main.swift" -o "$side/program" \\
                && "$side/program" > "$side.out"
        done
        diff original.out lowered.out && echo SAME

        """)
    _ = chmod("\(folder)/reproduce.sh", 0o755)
    var report = "program \(program.index) of seed \(settings.seed): \(outcome.verdict.rawValue)\n\n"
    report += outcome.reasons.joined(separator: "\n\n") + "\n"
    if !outcome.diagnostics.isEmpty {
        report += "\ndewrap's diagnostics (original.swift):\n" + outcome.diagnostics.map { "  " + $0 + "\n" }.joined()
    }
    if let original = outcome.originalOutput, let lowered = outcome.loweredOutput, original != lowered {
        report += "\nthe runs, from the first line that differs:\n" + firstDifference(original, lowered)
        try write("original.out", original)
        try write("lowered.out", lowered)
    }
    try write("report.txt", report)
    return folder
}

/// A few lines of each text around the first line where they differ.
private func firstDifference(_ a: String, _ b: String) -> String {
    let left = a.split(separator: "\n", omittingEmptySubsequences: false)
    let right = b.split(separator: "\n", omittingEmptySubsequences: false)
    let first = (0..<min(left.count, right.count)).first { left[$0] != right[$0] } ?? min(left.count, right.count)
    let from = max(0, first - 2)
    var text = "  as written:\n"
    text += left[from..<min(left.count, first + 4)].map { "    \($0)\n" }.joined()
    text += "  as lowered:\n"
    text += right[from..<min(right.count, first + 4)].map { "    \($0)\n" }.joined()
    return text
}

extension String {
    /// The text with every `'…'` or `"…"` quoted name replaced by `…`, so that messages group by cause.
    func replacingQuotedNames() -> String {
        var result = ""
        var quote: Character?
        var previous: Character = " "
        for character in self {
            // A quote opens after a space or a bracket (not an apostrophe: "type's").
            let opens = quote == nil && (character == "'" || character == "\"") && (previous == " " || previous == "(")
            if opens || (quote != nil && character == quote) {
                result += quote == nil ? String(character) : "…" + String(character)
                quote = quote == nil ? character : nil
            } else if quote == nil {
                result.append(character)
            }
            previous = character
        }
        return result
    }
}
