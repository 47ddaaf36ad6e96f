import DewrapLowering
import Foundation
import Testing

/// Directive mode (`--line-directives`, the build plugin): the compiler reports a
/// problem in generated code at the line of the declaration it came from, and a
/// problem in the user's own expression that the generated code copies at that
/// expression's own line and column, as it reports it in the input.
struct LineDirectiveTests {
    /// Type errors in initial values and assigned values, each in a place where
    /// lowering copies the expression into generated code: a private property's
    /// storage (the case), a composition, `init()`'s body (an included
    /// property), a user init's first assignment, a wrapped local and its first
    /// assignment, a static property.
    static let source = """
        import SwiftUI

        @propertyWrapper struct Box<Value> {
            var wrappedValue: Value
        }

        struct CounterView: View {
            @State private var count: Int = "zero"
            @State @Box private var nested: Int = "nested"
            @State var step: Int = "one"
            @AppStorage("k") private var stored: Int = "two"
            @Box static var shared: Int = "static"

            var body: some View {
                let wrong: Int = "untouched"
                return Text("\\(count) \\(wrong)")
            }
        }

        struct Model {
            @Box var value: Int
            var other: Int

            init() {
                self.value =   "assigned"
                other = 0
            }

            func work() {
                @Box var local: Int = "local"
                @Box var later: Int
                later = "later"
                _ = (local, later)
            }
        }

        """

    /// `file:line:col` of each error swiftc reports (the file named as `name`).
    static func errorLocations(in text: String, name: String) throws -> [String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dewrap-columns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return Compiler.typeCheck(file).split(separator: "\n").compactMap { line -> String? in
            guard let end = line.range(of: ": error:") else { return nil }
            let location = String(line[..<end.lowerBound])
            return location.hasPrefix(folder.path + "/") ? String(location.dropFirst(folder.path.count + 1)) : location
        }
    }

    @Test func errorsInCopiedExpressionsKeepTheirLineAndColumn() throws {
        let original = try Self.errorLocations(in: Self.source, name: "Counter.swift.dewrap.swift")
            .map { $0.replacingOccurrences(of: "Counter.swift.dewrap.swift:", with: "Counter.swift.dewrap:") }
        let result = lower(
            Array(Self.source.utf8), fileName: "Counter.swift.dewrap",
            options: LoweringOptions(lineDirectives: "Counter.swift.dewrap"))
        #expect(result.diagnostics.isEmpty)
        let lowered = try Self.errorLocations(in: String(decoding: result.output, as: UTF8.self), name: "Generated.swift")
        // The case: `@State private var count: Int = "zero"`, the value at column 37
        // (the generated `private var _count: State<Int> = State(wrappedValue: "zero")` had it at 58).
        #expect(original.contains("Counter.swift.dewrap:8:37"))
        #expect(lowered.contains("Counter.swift.dewrap:8:37"))
        // Every error of the input is reported at the same place in the lowering. The lowering
        // also reports `step`'s value where the memberwise init's signature takes it as a
        // default (mapped to the struct's line, 7).
        let expected = [
            "Counter.swift.dewrap:8:37", "Counter.swift.dewrap:9:43", "Counter.swift.dewrap:10:28",
            "Counter.swift.dewrap:11:48", "Counter.swift.dewrap:12:35", "Counter.swift.dewrap:15:26",
            "Counter.swift.dewrap:25:24", "Counter.swift.dewrap:30:31", "Counter.swift.dewrap:32:17",
        ]
        #expect(original.sorted() == expected.sorted(), "the input's errors moved: \(original)")
        #expect(Set(lowered).subtracting(["Counter.swift.dewrap:7:22"]) == Set(expected), "lowered: \(lowered)")
    }

    /// Every lowering fixture's directive-mode output type-checks, as its plain output does.
    @Test(arguments: LoweringFixtureTests.cases)
    func directiveModeOutputTypeChecks(_ name: String) throws {
        let input = try Fixtures.read(name, ".swift")
        let result = lower(input, fileName: name + ".swift", options: LoweringOptions(lineDirectives: name + ".swift.dewrap"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dewrap-directives-\(UUID().uuidString).swift")
        try Data(result.output).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(Compiler.typeCheck(file) == "")
    }
}
