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
        case .writeModuleIndex(let path):
            var invocation = invocation
            do throws(FileError) {
                if let configuration = invocation.configuration {
                    do throws(ConfigurationError) {
                        invocation.apply(try readConfiguration(configuration))
                    } catch {
                        writeStandardError(error.text)
                        return .failure
                    }
                }
                try writeModuleIndex(
                    path, moduleSources: moduleSourceFiles(invocation.moduleSources, inputs: []),
                    wrapperSources: wrapperSourceFiles(invocation.wrapperSources))
            } catch {
                writeStandardError("dewrap: error: \(error.message)\n")
                return .failure
            }
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
                if invocation.fileByFile && !invocation.moduleSources.isEmpty {
                    throw UsageError(message: "'--file-by-file' lowers each input alone; it cannot be used with the configuration's 'moduleSources'")
                }
            }
            let inputs = try expandInputs(invocation)
            let jobs = try plan(invocation, inputs: inputs)
            if case .path(let folder) = invocation.destination, writesIntoFolder(invocation, inputs: inputs) {
                do throws(FileError) {
                    try makeFolder(folder)
                    // The subfolders of files found in folder inputs, each made once.
                    var made: Set<String> = [folder]
                    for job in jobs {
                        guard case .file(let target) = job.output, let slash = target.lastIndex(of: "/") else { continue }
                        let parent = String(target[..<slash])
                        if made.insert(parent).inserted { try makeFolder(parent) }
                    }
                } catch {
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
