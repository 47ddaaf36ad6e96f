import DewrapSyntax
import Foundation

/// Lexes, then lexes and parses, all files `runs` times each; prints the
/// median throughput of both.
func benchLexer(_ files: [String], runs: Int) {
    let inputs = files.map(readBytes)
    let totalBytes = inputs.reduce(0) { $0 + $1.count }
    func median(_ work: ([UInt8]) -> Int) -> (seconds: Double, count: Int) {
        var seconds: [Double] = []
        var count = 0
        for _ in 0..<max(runs, 1) {
            let start = DispatchTime.now().uptimeNanoseconds
            count = 0
            for input in inputs { count &+= work(input) }
            seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return (seconds.sorted()[seconds.count / 2], count)
    }
    func report(_ what: String, _ result: (seconds: Double, count: Int), _ unit: String) {
        let rate = Double(totalBytes) / 1_000_000 / result.seconds
        print("\(what): \(files.count) files, \(megabytes(totalBytes)) MB, \(result.count) \(unit), median of \(max(runs, 1)) runs \(String(format: "%.3f", result.seconds)) s, \(String(format: "%.0f", rate)) MB/s")
    }
    report("lexer", median { Lexer.lex($0).tokens.count }, "tokens")
    report("lexer+parser", median { Parser.parse($0).scopes.count }, "scopes")
}
