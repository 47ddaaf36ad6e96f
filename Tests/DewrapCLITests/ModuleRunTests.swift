import Foundation
import Testing

/// All inputs of one run are one module (issue 21): `fixtures/module/Shelf` lowered in one run
/// gives the goldens of `Shelf.expected` (declarations, wrappers and `$x` across its files);
/// each file alone does not.
struct ModuleRunTests {
    let module = fixturesFolder.appendingPathComponent("module/Shelf")
    let expected = fixturesFolder.appendingPathComponent("module/Shelf.expected")

    var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: module.path)) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test func oneRunLowersTheModule() throws {
        let output = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let outcome = try runDewrap(["-o", output.path] + names.map { module.appendingPathComponent($0).path })
        #expect(outcome.status == 0 && outcome.stderr.isEmpty, "\(outcome.stderr)")
        #expect(names.count >= 3)
        for name in names {
            #expect(try bytes(of: output.appendingPathComponent(name)) == bytes(of: expected.appendingPathComponent(name)), "\(name)")
        }
    }

    @Test func fileByFileItIsNot() throws {
        let outcome = try runDewrap([module.appendingPathComponent("ShelfView.swift").path])
        #expect(outcome.stderr.contains("cannot lower"))
        let extras = try runDewrap([module.appendingPathComponent("ShelfExtras.swift").path])
        #expect(extras.stdout == (try bytes(of: module.appendingPathComponent("ShelfExtras.swift"))))
    }
}
