import DewrapLowering

/// All inputs of one run are one module (issue 21): their declarations, read before any of them
/// is lowered, give each file the types that initial values and `@Environment` keys name in the
/// others, and a wrapper declared in one input is known in all. Inputs that cannot be read are
/// left out here; their jobs report them.
func readModule(_ inputs: [String], wrapperShapes: inout WrapperShapes) -> ModuleDeclarations? {
    let paths = inputs.filter { $0 != "-" }
    guard paths.count > 1 else { return nil }
    let sources = paths.compactMap { try? readInput($0) }
    // The inputs' own wrappers win over `--wrapper-sources`, as a file's own do.
    wrapperShapes.merge(WrapperShapes(readingModule: sources))
    return ModuleDeclarations(reading: sources)
}
