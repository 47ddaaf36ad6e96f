import DewrapLowering
import Testing

/// `@Dependency(Key.self)` (swift-dependencies): the property's type is `Key.Value`, read from the
/// key's own declarations of the properties that witness the protocol's requirements of type
/// `Value`; where they do not make it certain, the property is left as written with a warning.
/// The wrapper and the protocol are another module's, as `--wrapper-sources` gives them.
struct AssociatedTypeWitnessTests {
    static let dependency = """
        public protocol TestDependencyKey {
            associatedtype Value = Self
            static var testValue: Value { get }
        }

        @propertyWrapper
        public struct Dependency<Value> {
            let read: () -> Value
            public init<Key: TestDependencyKey>(_ key: Key.Type, line: UInt = #line) where Key.Value == Value {
                read = { Key.testValue }
            }
            public var wrappedValue: Value { read() }
        }
        """

    /// `source` lowered as the first file of a module with `others`, the dependency as `--wrapper-sources`.
    static func lowered(_ source: String, module others: [String] = []) -> LoweringResult {
        Fixtures.lowered(source, module: others, dependencies: [dependency])
    }

    static let use = "struct Model {\n    @Dependency(Key.self) var value\n}\n"

    @Test(arguments: [
        ("struct Key: TestDependencyKey { static var testValue: Int { 1 } }", "Int"),
        ("enum Key: TestDependencyKey { static let testValue = \"a\" }", "String"),
        ("struct Key: TestDependencyKey { static var testValue: Self { Key() } }", "Key"),
        ("struct Key {}\nextension Key: TestDependencyKey { static let testValue = Key() }", "Key"),
    ])
    func readsTheWitness(_ key: String, _ type: String) {
        let result = Self.lowered(Self.use + key)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(String(decoding: result.output, as: UTF8.self).contains("private var _value: Dependency<\(type)>"))
    }

    /// The witness declared in another file of the module (in an extension there).
    @Test func readsAWitnessOfAnotherFile() {
        let result = Self.lowered(Self.use, module: ["struct Key {}\nextension Key: TestDependencyKey { static var testValue: Double { 1 } }"])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(String(decoding: result.output, as: UTF8.self).contains("private var _value: Dependency<Double>"))
    }

    /// A private key is its file's own: another file's type of that name does not make it uncertain.
    @Test func aPrivateKeyIsItsFilesOwn() {
        let result = Self.lowered(
            Self.use + "private struct Key: TestDependencyKey { static var testValue: Int { 1 } }",
            module: ["private struct Key: TestDependencyKey { static var testValue: String { \"\" } }"])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(String(decoding: result.output, as: UTF8.self).contains("private var _value: Dependency<Int>"))
    }

    @Test(
        arguments: [
            // A class may inherit its witness from a superclass.
            ("final class Key: TestDependencyKey { static var testValue: Int { 1 } }", []),
            // An explicit witness, which is not read.
            ("struct Key: TestDependencyKey { typealias Value = Int\n static var testValue: Int { 1 } }", []),
            // A witness whose type is not certain from the source.
            ("struct Key: TestDependencyKey { static let testValue = make() }", []),
            // No witness of its own: the protocol's default or an implementation elsewhere decides.
            ("struct Key: TestDependencyKey {}", []),
            // A nested type named `Value` is the witness (`Key.Value`), which `Value` outside it does not name.
            ("struct Key: TestDependencyKey { struct Value {}\n static var testValue: Value { Value() } }", []),
            // Another file's `typealias Value` may be one too.
            ("struct Key: TestDependencyKey { static var testValue: Int { 1 } }", ["extension Key { typealias Value = Int }"]),
            // Not a type of the module.
            ("", []),
        ] as [(String, [String])])
    func leavesAnUncertainKeyAsWritten(_ key: String, _ others: [String]) {
        let result = Self.lowered(Self.use + key, module: others)
        #expect(result.diagnostics.map(\.message) == ["cannot lower 'value': its type cannot be read from the source; add a type annotation"])
        #expect(String(decoding: result.output, as: UTF8.self) == Self.use + key)
    }
}
