import DewrapSyntax
import Foundation
import Testing

/// `fixtures/syntax/<case>.swift` parses to exactly `<case>.tree` (the
/// `--emit-tree` form). Run with DEWRAP_UPDATE_FIXTURES=1 to rewrite the
/// goldens on purpose, then review the diff.
struct SyntaxFixtureTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures/syntax")

    static var cases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".swift") }.map { String($0.dropLast(".swift".count)) }.sorted()
    }

    @Test func everyConstructHasAFixture() {
        #expect(Self.cases.count >= 10)
    }

    @Test(arguments: cases)
    func treeMatchesGolden(_ name: String) throws {
        let source = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name + ".swift")))
        let tree = Parser.parse(source).dump(source: source)
        let golden = Self.folder.appendingPathComponent(name + ".tree")
        if ProcessInfo.processInfo.environment["DEWRAP_UPDATE_FIXTURES"] == "1" {
            try Data(tree.utf8).write(to: golden)
        }
        let expected = String(decoding: try Data(contentsOf: golden), as: UTF8.self)
        #expect(tree == expected)
    }
}
