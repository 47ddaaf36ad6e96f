// Developer checks that are not part of the product:
//   dewrap-dev roundtrip PATH…        lossless lexing and identity lowering over a corpus
//   dewrap-dev bench-lexer [--runs N] PATH…   lexer and lexer+parser throughput in MB/s (release build)
//   dewrap-dev parse PATH…            parser diagnostics (none on code that compiles) and throughput;
//                                     SHOW=N prints the first N diagnostics (default 40)
//   dewrap-dev attributes PATH…       attributed `var`s per attribute name: parser vs. a token scan
// PATH is a .swift file or a folder searched recursively for them.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    FileHandle.standardError.write(Data("usage: dewrap-dev roundtrip|bench-lexer [--runs N] PATH…\n".utf8))
    exit(64)
}
var rest = Array(arguments.dropFirst())
var runs = 5
if let index = rest.firstIndex(of: "--runs"), index + 1 < rest.count, let value = Int(rest[index + 1]) {
    runs = value
    rest.removeSubrange(index...index + 1)
}
let files = swiftFiles(under: rest)
switch command {
case "roundtrip":
    exit(roundTrip(files) ? 0 : 1)
case "parse":
    exit(parseCheck(files, showLimit: Int(ProcessInfo.processInfo.environment["SHOW"] ?? "") ?? 40) ? 0 : 1)
case "attributes":
    exit(attributeCount(files) ? 0 : 1)
case "bench-lexer":
    benchLexer(files, runs: runs)
default:
    FileHandle.standardError.write(Data("dewrap-dev: unknown command '\(command)'\n".utf8))
    exit(64)
}
