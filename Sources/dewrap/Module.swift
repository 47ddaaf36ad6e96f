import DewrapLowering

/// All inputs of one run are one module (issue 21): their declarations (read when a file first
/// needs them) give each file the types that initial values and `@Environment` keys name in the
/// others, and a wrapper declared in one input is known in all. Inputs that cannot be read are
/// left out here; their jobs report them. Nothing read is kept: a run holds no more files in
/// memory than it lowers at once.
func readModule(_ inputs: [String], wrapperShapes: inout WrapperShapes) -> ModuleSources? {
    let paths = inputs.filter { $0 != "-" }
    guard paths.count > 1 else { return nil }
    for path in paths {
        // The inputs' own wrappers win over `--wrapper-sources`, as a file's own do.
        guard let source = try? readInput(path) else { continue }
        wrapperShapes.merge(WrapperShapes(readingModule: [source]))
    }
    return ModuleSources { paths.compactMap { try? readInput($0) } }
}
