import DewrapSyntax
import Foundation
import Testing

/// The parser's census agrees with a walk of the tree it built, on every
/// fixture: lowering skips whole-file searches on its word.
struct CensusTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fixtures")

    static var files: [String] {
        let enumerator = FileManager.default.enumerator(atPath: fixtures.path)
        return (enumerator?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test func thereAreFilesOfEachKind() throws {
        let censuses = try Self.files.map { try Parser.parse(Self.read($0)).census }
        #expect(censuses.contains { $0.attributedParameter })
        #expect(censuses.contains { $0.closureSignature })
        #expect(censuses.contains { $0.attributedVariableOutsideTypes })
        #expect(censuses.contains { $0.typeInCode })
        #expect(censuses.contains { $0 == SyntaxCensus() })
    }

    @Test(arguments: files)
    func censusMatchesAWalk(_ file: String) throws {
        let tree = Parser.parse(try Self.read(file))
        #expect(tree.census == Self.walked(tree))
    }

    static func read(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(file)))
    }

    /// The census found the slow way.
    static func walked(_ tree: SourceTree) -> SyntaxCensus {
        var census = SyntaxCensus()
        var members = Set<Int>()
        var declaredTypes = Set<Int>()
        func collectDeclaredTypes(_ items: SyntaxList<Item>) {
            for item in items {
                if case .type(let type) = item {
                    declaredTypes.insert(type.keyword)
                    collectDeclaredTypes(type.members)
                }
                if case .ifConfig(let ifConfig) = item { ifConfig.clauses.forEach { collectDeclaredTypes($0.items) } }
            }
        }
        collectDeclaredTypes(tree.items)
        func collectMembers(_ items: SyntaxList<Item>) {
            for item in items {
                if case .variable(let variable) = item { members.insert(variable.keyword) }
                if case .type(let type) = item, !type.prefix.attributes.isEmpty { census.attributedMemberType = true }
                if case .ifConfig(let ifConfig) = item { ifConfig.clauses.forEach { collectMembers($0.items) } }
            }
        }
        tree.forEachItem { item in
            switch item {
            case .type(let type):
                collectMembers(type.members)
                if !declaredTypes.contains(type.keyword) { census.typeInCode = true }
            case .function(let function):
                if function.parameters.contains(where: { !$0.attributes.isEmpty }) { census.attributedParameter = true }
            default:
                break
            }
        }
        func noteClosures(_ closures: SyntaxList<Closure>) {
            if closures.contains(where: { $0.signature != nil }) { census.closureSignature = true }
        }
        tree.forEachItem { item in
            switch item {
            case .variable(let variable):
                if !variable.prefix.attributes.isEmpty && !members.contains(variable.keyword) {
                    census.attributedVariableOutsideTypes = true
                }
                variable.bindings.forEach { noteClosures($0.closures) }
            case .function(let function):
                noteClosures(function.closures)
            case .statement(let statement):
                noteClosures(statement.closures)
                statement.cases.forEach { noteClosures($0.closures) }
            case .other(let other):
                noteClosures(other.closures)
            case .type, .ifConfig:
                break
            }
        }
        return census
    }
}
