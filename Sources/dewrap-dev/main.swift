// Developer checks that are not part of the product:
//   dewrap-dev roundtrip PATH…        lossless lexing and identity lowering over a corpus
//   dewrap-dev bench --dewrap EXE --swiftc EXE --work DIR [--packages DIR] [--sizes N,N…] [--runs N]
//                                     the throughput table of bin/bench (release build)
//   dewrap-dev bench-lex [--runs N] PATH…  lexer and lexer+parser MB/s only, in process (for profiling)
//   dewrap-dev realworld --dewrap EXE --swiftc EXE --work DIR [--in-place-timing] [--runs N] CORPUS
//                                     each repository folder of CORPUS lowered by one `dewrap -i` run on a
//                                     copy: wrappers before and after, warnings by cause, parse errors (bin/realworld)
//   dewrap-dev generate-views N DIR   the SwiftUI-style benchmark corpus with N wrapped declarations
//   dewrap-dev parse PATH…            parser diagnostics (none on code that compiles) and throughput;
//                                     SHOW=N prints the first N diagnostics (default 40)
//   dewrap-dev attributes PATH…       attributed `var`s per attribute name: parser vs. a token scan
//   dewrap-dev differential --dewrap EXE --swiftc EXE --work DIR --standin FILE [--seed N] [--count N]
//                     [--index I] [--batch N] [--jobs N] [--emit DIR] [--verdicts]
//                                     generated programs built as written and lowered, run and compared
//                                     (bin/differential); --emit DIR only writes the programs;
//                                     --verdicts prints each program's verdict
// PATH is a .swift file or a folder searched recursively for them.
import DewrapSyntax
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    FileHandle.standardError.write(Data("usage: dewrap-dev roundtrip|parse|attributes|bench|realworld|generate-views|differential …\n".utf8))
    exit(64)
}
var rest = Array(arguments.dropFirst())

/// Removes `--name VALUE` from `rest` and returns VALUE.
@MainActor func option(_ name: String) -> String? {
    guard let index = rest.firstIndex(of: name), index + 1 < rest.count else { return nil }
    defer { rest.removeSubrange(index...index + 1) }
    return rest[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("dewrap-dev: \(message)\n".utf8))
    exit(1)
}

switch command {
case "bench":
    var settings = BenchSettings()
    guard let dewrap = option("--dewrap"), let swiftc = option("--swiftc"), let work = option("--work") else {
        fail("bench needs --dewrap, --swiftc and --work")
    }
    (settings.dewrap, settings.swiftc, settings.work) = (dewrap, swiftc, work)
    var isFolder: ObjCBool = false
    let shm = FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder) && isFolder.boolValue
    settings.output = (shm ? "/dev/shm" : work) + "/dewrap-bench-out-\(getpid())"
    settings.packages = option("--packages")
    if let sizes = option("--sizes") { settings.sizes = sizes.split(separator: ",").compactMap { Int($0) } }
    if let runs = option("--runs").flatMap(Int.init) { settings.runs = runs }
    do { try bench(settings) } catch let error as BenchError { fail(error.message) } catch { fail("\(error)") }
    exit(0)
case "bench-lex":
    let runs = option("--runs").flatMap(Int.init) ?? 5
    let inputs = swiftFiles(under: rest).map(readBytes)
    let bytes = Double(inputs.reduce(0) { $0 + $1.count })
    let lex = medianSeconds(runs: runs) { timed { for input in inputs { _ = Lexer.lex(input).tokens.count } } }
    let parse = medianSeconds(runs: runs) { timed { for input in inputs { _ = Parser.parse(input).items.count } } }
    print(
        "\(inputs.count) files, \(megabytes(Int(bytes))) MB: lex \(Int(bytes / 1e6 / lex)) MB/s, lex+parse \(Int(bytes / 1e6 / parse)) MB/s (median of \(runs))"
    )
    exit(0)
case "differential":
    var settings = DifferentialSettings()
    if let seed = option("--seed") { settings.seed = UInt64(seed) ?? 1 }
    if let count = option("--count").flatMap(Int.init) { settings.count = count }
    settings.only = option("--index").flatMap(Int.init)
    if let batch = option("--batch").flatMap(Int.init) { settings.batchSize = max(1, batch) }
    if let jobs = option("--jobs").flatMap(Int.init) { settings.jobs = max(1, jobs) }
    settings.emit = option("--emit")
    if let index = rest.firstIndex(of: "--verdicts") {
        settings.verdicts = true
        rest.remove(at: index)
    }
    if settings.emit == nil {
        guard let dewrap = option("--dewrap"), let swiftc = option("--swiftc"), let work = option("--work"),
            let standIn = option("--standin")
        else { fail("differential needs --dewrap, --swiftc, --work and --standin") }
        (settings.dewrap, settings.swiftc, settings.work, settings.standIn) = (dewrap, swiftc, work, standIn)
    }
    do { exit(try differential(settings) ? 0 : 1) } catch let error as DifferentialError { fail(error.message) } catch { fail("\(error)") }
case "realworld":
    var settings = RealWorldSettings()
    guard let dewrap = option("--dewrap"), let swiftc = option("--swiftc"), let work = option("--work") else {
        fail("realworld needs --dewrap, --swiftc and --work")
    }
    (settings.dewrap, settings.swiftc, settings.work) = (dewrap, swiftc, work)
    if let runs = option("--runs").flatMap(Int.init) { settings.runs = max(1, runs) }
    if let index = rest.firstIndex(of: "--in-place-timing") {
        settings.inPlaceTiming = true
        rest.remove(at: index)
    }
    guard rest.count == 1 else { fail("usage: dewrap-dev realworld --dewrap EXE --swiftc EXE --work DIR [--in-place-timing] [--runs N] CORPUS") }
    settings.corpus = rest[0]
    do { exit(try realWorld(settings) ? 0 : 1) } catch let error as RealWorldError { fail(error.message) } catch { fail("\(error)") }
case "generate-views":
    guard rest.count == 2, let count = Int(rest[0]) else { fail("usage: dewrap-dev generate-views N DIR") }
    do { _ = try ViewCorpus.generate(declarations: count, into: rest[1]) } catch { fail("\(error)") }
    exit(0)
default:
    break
}

let files = swiftFiles(under: rest)
switch command {
case "roundtrip":
    exit(roundTrip(files) ? 0 : 1)
case "parse":
    exit(parseCheck(files, showLimit: Int(ProcessInfo.processInfo.environment["SHOW"] ?? "") ?? 40) ? 0 : 1)
case "attributes":
    exit(attributeCount(files) ? 0 : 1)
default:
    FileHandle.standardError.write(Data("dewrap-dev: unknown command '\(command)'\n".utf8))
    exit(64)
}
