import DewrapLowering
import Foundation
import Testing

/// Every fixture with a `<case>.driver.swift` is built twice, as written and
/// lowered, against the same SwiftUI stand-in, run, and the two outputs
/// (driver prints plus the stand-in's wrapper trace) must be identical.
struct EquivalenceTests {
    static let cases = Fixtures.cases(in: ["examples", "lowering"]).filter {
        FileManager.default.fileExists(atPath: Fixtures.url($0, ".driver.swift").path)
    }

    @Test func thereAreDrivers() {
        #expect(Self.cases.count >= 25)
    }

    @Test(arguments: cases)
    func originalAndLoweringBehaveTheSame(_ name: String) throws {
        let input = try Fixtures.read(name, ".swift")
        let driver = Fixtures.url(name, ".driver.swift")
        let original = Equivalence.run(source: input, driver: driver)
        let lowered = Equivalence.run(source: lower(input, fileName: name).output, driver: driver)
        #expect(!original.isEmpty && !original.contains("build failed") && !original.contains("exit status"), "\(original)")
        #expect(lowered == original)
    }

    /// A subset again in Swift 5 mode, where isolation problems are warnings
    /// and the compiler infers isolation differently (SPEC I-2).
    @Test(arguments: [
        "examples/PlayerView", "lowering/Counter", "lowering/MixedMembers", "lowering/Initializers",
        "lowering/Observers", "lowering/RootClassInit", "lowering/KeyPathsAndMirror",
        "lowering/ObservableModel", "lowering/DeclaredWrappers", "lowering/Composition",
        "lowering/LocalVariables", "lowering/WrappedParameters", "lowering/ForEachBindings",
    ])
    func swift5ModeBehavesTheSame(_ name: String) throws {
        let input = try Fixtures.read(name, ".swift")
        let driver = Fixtures.url(name, ".driver.swift")
        let original = Equivalence.run(source: input, driver: driver, swiftVersion: "5")
        #expect(!original.contains("build failed") && !original.contains("exit status"), "\(original)")
        #expect(Equivalence.run(source: lower(input, fileName: name).output, driver: driver, swiftVersion: "5") == original)
    }

    /// SPEC I-2: lowered with `--swift-version 5` and run in Swift 5 mode.
    @Test(arguments: LoweringFixtureTests.swift5Cases)
    func swift5LoweringBehavesTheSame(_ name: String) throws {
        let input = try Fixtures.read(name, ".swift")
        let driver = Fixtures.url(name, ".driver.swift")
        let original = Equivalence.run(source: input, driver: driver, swiftVersion: "5")
        #expect(!original.isEmpty && !original.contains("build failed") && !original.contains("exit status"), "\(original)")
        let lowered = lower(input, fileName: name, options: LoweringOptions(swiftVersion: .swift5)).output
        #expect(Equivalence.run(source: lowered, driver: driver, swiftVersion: "5") == original)
    }

    /// The stand-in covers every wrapper of SPEC table T, `ForEach($items) { $item in }` included.
    @Test func standInSupportsEveryWrapper() throws {
        let output = Equivalence.run(source: try Fixtures.read("standin/Smoke", ".swift"), driver: Fixtures.url("standin/Smoke", ".driver.swift"))
        #expect(
            output == """
                Text(0 -1 5 0 0 0 en_US false 0 0 ) TextField(Item 1: one) TextField(Item 2: two) Button(Change)
                will change
                Text(1 -1 6 1 1 0 en_US true 0 1 ) TextField(Item 1: one) TextField(Item 2: TWO) Button(Change) 6

                """)
    }

    /// The harness must be able to fail: a lowering whose setter forgets to
    /// store (a plausible bug) is told apart from the original.
    @Test func aWrongLoweringIsCaught() throws {
        let input = try Fixtures.read("lowering/Counter", ".swift")
        let right = String(decoding: lower(input, fileName: "Counter").output, as: UTF8.self)
        let wrong = right.replacingOccurrences(of: "nonmutating set { _value.wrappedValue = newValue }", with: "nonmutating set { _ = newValue }")
        #expect(wrong != right)
        let driver = Fixtures.url("lowering/Counter", ".driver.swift")
        #expect(Equivalence.run(source: Array(wrong.utf8), driver: driver) != Equivalence.run(source: input, driver: driver))
    }

    /// N-2: assigning through the setter in an init, instead of initializing
    /// the storage, does not even build; the runner reports it.
    @Test func theSetterInsteadOfReinitializationIsCaught() throws {
        let input = try Fixtures.read("lowering/Initializers", ".swift")
        let right = String(decoding: lower(input, fileName: "Initializers").output, as: UTF8.self)
        let wrong = right.replacingOccurrences(of: "self._count = State(wrappedValue: count)", with: "self.count = count")
        #expect(wrong != right)
        let driver = Fixtures.url("lowering/Initializers", ".driver.swift")
        #expect(Equivalence.run(source: Array(wrong.utf8), driver: driver).contains("build failed"))
    }
}
