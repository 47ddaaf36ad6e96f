import Foundation

/// The `.swift` files named by `paths` (files as given, folders searched), sorted.
func swiftFiles(under paths: [String]) -> [String] {
    var result: [String] = []
    for path in paths {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            FileHandle.standardError.write(Data("dewrap-dev: no such file or folder '\(path)'\n".utf8))
            exit(1)
        }
        if !isDirectory.boolValue {
            result.append(path)
            continue
        }
        let enumerator = FileManager.default.enumerator(atPath: path)
        var found: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".swift"), enumerator?.fileAttributes?[.type] as? FileAttributeType == .typeRegular {
                found.append(path + "/" + relative)
            }
        }
        result += found.sorted()
    }
    return result
}

func readBytes(_ path: String) -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("dewrap-dev: cannot read '\(path)'\n".utf8))
        exit(1)
    }
    return [UInt8](data)
}

func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f", Double(bytes) / 1_000_000)
}
