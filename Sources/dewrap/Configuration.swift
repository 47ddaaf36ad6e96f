// `--config FILE`: settings from a JSON file, the build plugin's `.dewrap.json`
// (README, "Configuration"). It is read when dewrap runs, not when the plugin
// plans the build, so that an edit to it takes effect at the next build.
//
//     { "strict": true, "swiftVersion": 5, "wrapperSources": ["../Wrappers"], "moduleSources": ["Models"] }
import DewrapSyntax

/// The settings a configuration file may hold; each is optional.
struct Configuration: Equatable {
    static let keys = ["strict", "swiftVersion", "wrapperSources", "moduleSources"]

    /// `--strict`.
    var strict: Bool?
    /// `--swift-version`.
    var swiftVersion: Int?
    /// `--wrapper-sources`, each resolved against the file's folder.
    var wrapperSources: [String] = []
    /// `--module-sources`, each resolved against the file's folder.
    var moduleSources: [String] = []
}

/// What is wrong with a configuration file, as the lines to print.
struct ConfigurationError: Error {
    var text: String
}

/// Reads the configuration file at `path`. A syntax error, an unknown key or a
/// value of the wrong kind is an error at its line and column, naming the key.
func readConfiguration(_ path: String) throws(ConfigurationError) -> Configuration {
    let bytes: [UInt8]
    do throws(FileError) {
        bytes = try readInput(path)
    } catch {
        throw ConfigurationError(text: "dewrap: error: \(error.message)\n")
    }
    func problem(_ offset: Int, _ message: String) -> ConfigurationError {
        ConfigurationError(text: formatDiagnostics([Diagnostic(.error, at: offset, message)], source: bytes, path: path))
    }

    let root: JSONValue
    do throws(JSONError) {
        root = try parseJSON(bytes)
    } catch {
        throw problem(error.offset, "not valid JSON: \(error.message)")
    }
    guard case .object(let members) = root.kind else {
        throw problem(root.offset, "a configuration is a JSON object, { \"key\": value, … }")
    }
    var configuration = Configuration()
    for member in members {
        let value = member.value
        switch member.name {
        case "strict":
            guard case .bool(let strict) = value.kind else { throw problem(value.offset, "'strict' must be true or false") }
            configuration.strict = strict
        case "swiftVersion":
            guard case .number(let number) = value.kind, number == 5 || number == 6 else {
                throw problem(value.offset, "'swiftVersion' must be 5 or 6")
            }
            configuration.swiftVersion = Int(number)
        case "wrapperSources", "moduleSources":
            let message = "'\(member.name)' must be an array of paths (relative to this file's folder)"
            guard case .array(let items) = value.kind else { throw problem(value.offset, message) }
            for item in items {
                guard case .string(let source) = item.kind, !source.isEmpty else { throw problem(item.offset, message) }
                if member.name == "wrapperSources" {
                    configuration.wrapperSources.append(resolve(source, against: path))
                } else {
                    configuration.moduleSources.append(resolve(source, against: path))
                }
            }
        default:
            let known = Configuration.keys.map { "'\($0)'" }.joined(separator: ", ")
            throw problem(member.nameOffset, "unknown key '\(member.name)' (the keys are \(known))")
        }
    }
    return configuration
}

/// `relative` as seen from the folder of the file at `path`.
private func resolve(_ relative: String, against path: String) -> String {
    if relative.hasPrefix("/") { return relative }
    guard let slash = path.lastIndex(of: "/") else { return relative }
    return String(path[...slash]) + relative
}

extension Invocation {
    /// The file's settings where the command line gives none: `--strict` or
    /// `"strict": true` is strict; `--swift-version` wins over `"swiftVersion"`;
    /// wrapper sources and module sources from both are read.
    mutating func apply(_ configuration: Configuration) {
        if configuration.strict == true { strict = true }
        if swiftVersion == nil { swiftVersion = configuration.swiftVersion }
        wrapperSources += configuration.wrapperSources
        moduleSources += configuration.moduleSources
    }
}
