// dewrap [options] [FILE...]: see `usageText` in Arguments.swift.
import DewrapLowering
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

func main() -> ExitStatus {
    do throws(UsageError) {
        let invocation = try parseArguments(Array(CommandLine.arguments.dropFirst()))
        switch invocation.action {
        case .help:
            writeStandardOutputIgnoringFailure(usageText)
            return .success
        case .version:
            writeStandardOutputIgnoringFailure("dewrap \(version)\n")
            return .success
        case .lower, .emitTokens, .emitTree:
            var invocation = invocation
            if let path = invocation.configuration {
                do throws(ConfigurationError) {
                    invocation.apply(try readConfiguration(path))
                } catch {
                    writeStandardError(error.text)
                    return .failure
                }
            }
            let jobs = try plan(invocation)
            if case .path(let folder) = invocation.destination, writesIntoFolder(invocation) {
                do { try makeFolder(folder) } catch {
                    writeStandardError("dewrap: error: \(error.message)\n")
                    return .failure
                }
            }
            return run(jobs, invocation: invocation)
        }
    } catch {
        writeStandardError("dewrap: error: \(error.message)\nRun 'dewrap --help' for usage.\n")
        return .usage
    }
}

private func writeStandardOutputIgnoringFailure(_ text: String) {
    try? writeStandardOutput(Array(text.utf8))
}

exit(main().rawValue)
