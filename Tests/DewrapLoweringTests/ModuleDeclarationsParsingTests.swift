import DewrapSyntax
import DewrapTestSupport
import Foundation
import Testing

@testable import DewrapLowering

/// The module's declarations are read from a parse that steps over every body without a
/// declaration in it (`BodyParsing.declarationsOnly`): they must be what the parse lowering
/// makes gives, file by file, on every fixture and on this repository's own sources (real
/// code, with bodies of every kind).
struct ModuleDeclarationsParsingTests {
    static let files: [URL] = {
        let repository = Fixtures.root.deletingLastPathComponent()
        var found: [URL] = []
        for folder in ["fixtures", "Sources", "Tests"] {
            let enumerator = FileManager.default.enumerator(
                at: repository.appendingPathComponent(folder), includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            while let url = enumerator?.nextObject() as? URL {
                if url.pathExtension == "swift" || url.lastPathComponent.hasSuffix(".swift.dewrap") { found.append(url) }
            }
        }
        return found.sorted { $0.path < $1.path }
    }()

    @Test func thereAreFiles() {
        #expect(Self.files.count > 300)
    }

    @Test func sameDeclarationsAsTheLoweringParse() throws {
        var compared = 0
        for url in Self.files {
            let source = try [UInt8](Data(contentsOf: url))
            let stepping = ModuleDeclarations(reading: [source], dependencies: [], bodies: .declarationsOnly)
            let lowering = ModuleDeclarations(reading: [source], dependencies: [], bodies: .skippingPlain)
            #expect(ModuleSourcesTests.sameAnswers(stepping, lowering), "\(url.path)")
            compared += 1
        }
        #expect(compared == Self.files.count)
    }

    /// As a dependency (`--wrapper-sources`), only public declarations count: the same holds.
    @Test func sameDeclarationsOfADependency() throws {
        let sources = try Self.files.prefix(40).map { try [UInt8](Data(contentsOf: $0)) }
        let stepping = ModuleDeclarations(reading: [], dependencies: sources, bodies: .declarationsOnly)
        let lowering = ModuleDeclarations(reading: [], dependencies: sources, bodies: .skippingPlain)
        #expect(ModuleSourcesTests.sameAnswers(stepping, lowering))
    }

    /// What the mode is for: bodies lowering parses whole (an initializer's, one holding an
    /// attribute or a closure) are stepped over, and the declarations stay the same.
    @Test func bodiesLoweringReadsAreSteppedOver() {
        let source = Array(
            """
            struct Store {
                static let shared = Store(level: 3)
                var level: Int
                init(level: Int) {
                    @Clamped var x = level
                    self.level = [level].map { value in value * 2 }[0]
                }
                func label() -> String { "\\(level)" }
            }

            """.utf8)
        let stepping = Parser.parse(source, bodies: .declarationsOnly)
        #expect(stepping.steppedOver.count == 2)
        #expect(Parser.parse(source, bodies: .skippingPlain).steppedOver.count == 1)
        let declarations = ModuleDeclarations(reading: [source], dependencies: [], bodies: .declarationsOnly)
        #expect(declarations.value("shared", of: "Store") == .some("Store"))
        #expect(declarations.instanceValue("level", of: "Store") == .some("Int"))
        let lowering = ModuleDeclarations(reading: [source], dependencies: [], bodies: .skippingPlain)
        #expect(ModuleSourcesTests.sameAnswers(declarations, lowering))
    }
}
