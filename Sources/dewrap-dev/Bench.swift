import DewrapSyntax
import Foundation

/// Lexes all files `runs` times and prints the median throughput.
func benchLexer(_ files: [String], runs: Int) {
    let inputs = files.map(readBytes)
    let totalBytes = inputs.reduce(0) { $0 + $1.count }
    var seconds: [Double] = []
    var tokenCount = 0
    for _ in 0..<max(runs, 1) {
        let start = DispatchTime.now().uptimeNanoseconds
        tokenCount = 0
        for input in inputs {
            tokenCount &+= Lexer.lex(input).tokens.count
        }
        seconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    seconds.sort()
    let median = seconds[seconds.count / 2]
    let rate = Double(totalBytes) / 1_000_000 / median
    print("lexer: \(files.count) files, \(megabytes(totalBytes)) MB, \(tokenCount) tokens, median of \(seconds.count) runs \(String(format: "%.3f", median)) s, \(String(format: "%.0f", rate)) MB/s")
}
