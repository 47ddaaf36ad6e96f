// libFuzzer entry over the core `lower` function (built by bin/fuzz, not by
// SwiftPM). Any trap is a finding; so is a broken property, checked here:
// diagnostics inside the input, untouched bytes kept, output lowered again
// unchanged.
import DewrapLowering

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLower(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let result = lower(input, fileName: "fuzz.swift")
    for diagnostic in result.diagnostics where diagnostic.offset < 0 || diagnostic.offset > input.count {
        fatalError("diagnostic outside the input at \(diagnostic.offset)")
    }
    guard result.output != input else { return 0 }
    var position = 0
    var outputIndex = 0
    for change in result.changes + [input.count..<input.count] {
        precondition(change.lowerBound >= position, "overlapping changes")
        let kept = input[position..<change.lowerBound]
        guard let found = firstIndex(of: kept, in: result.output, from: outputIndex) else {
            fatalError("untouched bytes \(position)..<\(change.lowerBound) are not in the output")
        }
        outputIndex = found + kept.count
        position = change.upperBound
    }
    precondition(lower(result.output, fileName: "fuzz.swift").output == result.output, "lowering the output changed it")
    return 0
}

private func firstIndex(of needle: ArraySlice<UInt8>, in haystack: [UInt8], from start: Int) -> Int? {
    guard !needle.isEmpty else { return start }
    var i = start
    while i + needle.count <= haystack.count {
        if haystack[i..<i + needle.count].elementsEqual(needle) { return i }
        i += 1
    }
    return nil
}
