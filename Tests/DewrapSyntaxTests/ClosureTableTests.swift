import DewrapSyntax
import Foundation
import Testing

/// `SourceTree.closures` reads the closures' table: the same closures as a walk of the tree
/// finds, on every fixture and every source file of this repository, read whole and with
/// plain bodies stepped over (lowering's way).
struct ClosureTableTests {
    static var sources: [String] {
        let root = CensusTests.fixtures.deletingLastPathComponent()
        return ["Sources", "Tests"].flatMap { folder -> [String] in
            let enumerator = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
        }.sorted()
    }

    @Test func theFilesHoldClosures() throws {
        let count = try CensusTests.files.map { try Parser.parse(CensusTests.read($0)).closures.count }.reduce(0, +)
        #expect(count > 100)
    }

    @Test(arguments: CensusTests.files)
    func fixtureClosuresAreThoseOfAWalk(_ file: String) throws {
        try expectSameClosures(CensusTests.read(file))
    }

    @Test func sourceClosuresAreThoseOfAWalk() throws {
        let root = CensusTests.fixtures.deletingLastPathComponent()
        for file in Self.sources {
            try expectSameClosures([UInt8](Data(contentsOf: root.appendingPathComponent(file))), file)
        }
    }

    private func expectSameClosures(_ bytes: [UInt8], _ file: String = "") throws {
        for bodies in [BodyParsing.all, .skippingPlain] {
            let tree = Parser.parse(bytes, bodies: bodies)
            #expect(tree.closures.map(\.open) == Self.walked(tree).sorted(), "\(file) \(bodies)")
        }
    }

    /// The opening braces of the closures a walk of the tree reaches.
    static func walked(_ tree: SourceTree) -> [Int] {
        var opens: [Int] = []
        func add(_ closures: SyntaxList<Closure>) { opens += closures.map(\.open) }
        tree.forEachItem { item in
            switch item {
            case .variable(let variable):
                for binding in variable.bindings { add(binding.closures) }
            case .function(let function):
                add(function.closures)
            case .statement(let statement):
                add(statement.closures)
                for switchCase in statement.cases { add(switchCase.closures) }
            case .other(let other):
                add(other.closures)
            case .type, .ifConfig:
                break
            }
        }
        return opens
    }
}
