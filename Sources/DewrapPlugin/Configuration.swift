// The build plugin's settings: a `.dewrap.json` file in the target's folder,
// or else in the package's folder, as swift-format reads `.swift-format`:
//
//     { "strict": true, "swiftVersion": 5, "wrapperSources": ["../Wrappers"] }
//
// dewrap reads it itself (`--config`) each time it lowers a file: SwiftPM asks
// a build-tool plugin for its commands only when it plans the build again (a
// target's files or a manifest changed), so settings the plugin read would go
// stale when the file is edited. Here the plugin only finds the file, names it
// as an input of every command (an edit lowers again), and names the wrapper
// sources it lists as inputs too, as far as it can read them; dewrap reports
// what is wrong with the file.
import Foundation

struct ConfigurationFile {
    static let name = ".dewrap.json"

    var url: URL

    /// The first `.dewrap.json` in `folders`, or nil.
    static func find(in folders: [URL]) -> ConfigurationFile? {
        for folder in folders {
            let url = folder.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: url.path) { return ConfigurationFile(url: url) }
        }
        return nil
    }

    var arguments: [String] { ["--config", url.path] }

    /// The file and the `.swift` files of its "wrapperSources" (a file, or a folder
    /// searched), which dewrap reads: a change to any of them lowers again.
    var inputFiles: [URL] {
        var files = [url]
        guard let data = FileManager.default.contents(atPath: url.path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let sources = object["wrapperSources"] as? [String]
        else { return files }
        let folder = url.deletingLastPathComponent()
        for source in sources where !source.isEmpty {
            let path = source.hasPrefix("/") ? URL(fileURLWithPath: source) : folder.appendingPathComponent(source)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) else { continue }
            guard isFolder.boolValue else {
                files.append(path)
                continue
            }
            let found =
                FileManager.default.enumerator(at: path, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            files += found.sorted { $0.path < $1.path }
        }
        return files
    }
}
