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

    /// A function with wrapped parameters that another file of the run calls keeps them: its
    /// signature would change, and the other file's calls are not rewritten (found lowering two
    /// files: the caller's `show(level: 42)` no longer compiled).
    /// Calls of a function with wrapped parameters in the run's other files are rewritten with it; a
    /// use one of them cannot rewrite, or one in a module source (never written), leaves it as written
    /// everywhere, and the warning says where that use is.
    @Test func wrappedParameterCallsInOtherFilesAreRewritten() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(
            """
            @propertyWrapper struct Clamped {
                var wrappedValue: Int
                init(wrappedValue: Int) { self.wrappedValue = min(wrappedValue, 10) }
            }
            func show(@Clamped level: Int) -> Int { level }

            """, to: folder.appendingPathComponent("A.swift"))
        try write("func use() -> Int { show(level: 42) }\n", to: folder.appendingPathComponent("B.swift"))
        try write("let shown: (Int) -> Int = show\n", to: folder.appendingPathComponent("C.swift"))
        func text(_ path: String) throws -> String {
            String(decoding: try bytes(of: folder.appendingPathComponent(path)), as: UTF8.self)
        }

        let both = try runDewrap(["A.swift", "B.swift", "-o", "both"], in: folder)
        #expect(both.status == 0 && both.stderr.isEmpty, "\(both.stderr)")
        #expect(try text("both/A.swift").contains("func show(level _level: Clamped) -> Int {"))
        #expect(try text("both/B.swift") == "func use() -> Int { show(level: Clamped(wrappedValue: 42)) }\n")

        let unmatched = try runDewrap(["A.swift", "B.swift", "C.swift", "-o", "unmatched"], in: folder)
        #expect(unmatched.status == 0)
        #expect(
            unmatched.stderr.contains(
                "A.swift:5:6: warning: cannot lower the wrapped parameters of 'show': its use at C.swift:1:27 cannot be rewritten: this use is not a call dewrap can match to its parameters"
            ), "\(unmatched.stderr)")
        #expect(try text("unmatched/A.swift").contains("func show(@Clamped level: Int)"))
        #expect(try text("unmatched/B.swift") == "func use() -> Int { show(level: 42) }\n")

        let readOnly = try runDewrap(["A.swift", "--module-sources", "B.swift", "-o", "readOnly.swift"], in: folder)
        #expect(readOnly.status == 0)
        #expect(
            readOnly.stderr.contains(
                "cannot lower the wrapped parameters of 'show': the module source 'B.swift' names it, and module sources are read, never written"),
            "\(readOnly.stderr)")
        #expect(try text("readOnly.swift").contains("func show(@Clamped level: Int)"))

        // Alone, the file is the module: its function is lowered.
        let alone = try runDewrap(["A.swift"], in: folder)
        #expect(alone.stdoutText.contains("func show(level _level: Clamped) -> Int {"))
    }

    /// A `$x` that a file leaves as written, where `x` is lowered in one file of the run and left as
    /// written in another, may name either property (found lowering fluent-kit, whose `\.$id` named a
    /// lowered `ParentProperty.id` while two models left their `id`): each such use is reported.
    @Test func aProjectionLoweredInOneFileAndLeftInAnotherIsReported() throws {
        let folder = try makeScratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try write(
            """
            @propertyWrapper struct Box<T> {
                var wrappedValue: T
                var projectedValue: Box<T> { self }
            }
            final class Parent {
                @Box var id: Int = 0
            }

            """, to: folder.appendingPathComponent("A.swift"))
        // The file that leaves its `id` uses its own `$id` (most likely): nothing is said there.
        try write(
            """
            struct Log {
                @Box var id = ProcessInfo.processInfo.processIdentifier
                func box() -> Box<Int32> { self.$id }
            }

            """, to: folder.appendingPathComponent("B.swift"))
        try write("func box(of parent: Parent) -> Box<Int> { parent.$id }\n", to: folder.appendingPathComponent("C.swift"))

        let run = try runDewrap(["A.swift", "B.swift", "C.swift", "-o", "out"], in: folder)
        #expect(run.status == 0)
        #expect(
            run.stderr.contains(
                "C.swift:1:50: warning: '$id' is left as written, but 'id' is lowered in 'A.swift' and left as written in 'B.swift': which of them it names cannot be told without types, and the lowered module may not compile"
            ), "\(run.stderr)")
        #expect(!run.stderr.contains("B.swift:3"), "\(run.stderr)")
        // Without the property left as written, the use is rewritten, and nothing is said about it.
        let two = try runDewrap(["A.swift", "C.swift", "-o", "two"], in: folder)
        #expect(two.status == 0 && two.stderr.isEmpty, "\(two.stderr)")
        #expect(String(decoding: try bytes(of: folder.appendingPathComponent("two/C.swift")), as: UTF8.self).contains("parent._$id"))
    }
}
