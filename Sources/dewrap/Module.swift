import DewrapLowering

/// All inputs of one run are one module (issue 21): their declarations (read when a file first
/// needs them) give each file the types that initial values and `@Environment` keys name in the
/// others, and a wrapper declared in one input is known in all. Inputs that cannot be read are
/// left out here; their jobs report them.
/// Also gives back what it read of each input (nil for standard input or a file it could not read),
/// which the run's first pass lowers.
func readModule(_ inputs: [String], wrapperShapes: inout WrapperShapes) -> (ModuleSources, [[UInt8]?])? {
    guard inputs.filter({ $0 != "-" }).count > 1 else { return nil }
    let read = inputs.map { $0 == "-" ? nil : try? readInput($0) }
    let sources = read.compactMap { $0 }
    // The inputs' own wrappers win over `--wrapper-sources`, as a file's own do.
    wrapperShapes.merge(WrapperShapes(readingModule: sources))
    return (ModuleSources(sources), read)
}
