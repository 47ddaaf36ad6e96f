import DewrapSyntax
import Foundation

/// Parses every file: prints each parser diagnostic (the corpus compiles, so
/// every one is a parser bug) and a summary with lexer + parser throughput.
/// Also parses each file the way lowering does (`BodyParsing.skippingPlain`)
/// and checks that what lowering reads is the same: every `$name` reference
/// with its qualifier, the census, the type declarations, no diagnostics.
func parseCheck(_ files: [String], showLimit: Int = 40) -> Bool {
    var totalBytes = 0
    var diagnosticCount = 0
    var failingFiles = 0
    var seconds = 0.0
    var skippingDiffers = 0
    for path in files {
        let bytes = readBytes(path)
        totalBytes += bytes.count
        let start = DispatchTime.now().uptimeNanoseconds
        let tree = Parser.parse(bytes)
        seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if let difference = skippingDifference(bytes, full: tree) {
            skippingDiffers += 1
            if skippingDiffers <= showLimit { print("\(path): parsing as lowering does differs: \(difference)") }
        }
        guard !tree.diagnostics.isEmpty else { continue }
        failingFiles += 1
        let lines = LineTable(bytes)
        for diagnostic in tree.diagnostics {
            diagnosticCount += 1
            if diagnosticCount <= showLimit {
                let location = lines.location(of: diagnostic.offset)
                print("\(path):\(location.line):\(location.column): \(diagnostic.message)")
            }
        }
    }
    let rate = Double(totalBytes) / 1_000_000 / max(seconds, 1e-9)
    print(
        "parse: \(files.count) files, \(megabytes(totalBytes)) MB, \(diagnosticCount) parser diagnostics in \(failingFiles) files, lexer+parser \(String(format: "%.0f", rate)) MB/s"
    )
    print("parse stepping over plain bodies: \(skippingDiffers) files differ from the full parse in what lowering reads")
    return diagnosticCount == 0 && skippingDiffers == 0
}

/// What differs in what lowering reads between the full parse and the lowering's.
private func skippingDifference(_ bytes: [UInt8], full: SourceTree) -> String? {
    let skipping = Parser.parse(bytes, bodies: .skippingPlain)
    func references(_ tree: SourceTree) -> [String] { tree.dollarReferences.map { "\($0.token) \($0.qualifier)" } }
    if references(skipping) != references(full) { return "$ references" }
    if skipping.census != full.census { return "census" }
    if skipping.typeDeclarations.map(\.keyword) != full.typeDeclarations.map(\.keyword) { return "type declarations" }
    if skipping.diagnostics.count != full.diagnostics.count { return "diagnostics" }
    return nil
}
