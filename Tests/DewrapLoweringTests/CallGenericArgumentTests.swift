import DewrapLowering
import Testing

/// Generic parameters of a wrapper that `wrappedValue`'s type does not name (Fluent's `@Siblings`
/// `Through`, `@Timestamp`'s `Format`) are read from the attribute's call: a `T.self` argument, the
/// same-type requirements of the one init that takes the call's labels, or the declared type of
/// an implicit member of the parameter's generic type. Where none of them makes a parameter
/// certain, the property is left as written with a warning. The wrappers are another module's,
/// as `--wrapper-sources` gives them.
struct CallGenericArgumentTests {
    static let dependency = """
        public protocol Model: AnyObject {}

        public struct Plain {}
        public struct Clock {}

        public struct Factory<Format> {
            public init() {}
        }

        extension Factory {
            public static var clock: Factory<Clock> { .init() }
            public static func clock(hours: Bool) -> Factory<Clock> { .init() }
            public static var same: Factory<Format> { .init() }
        }

        @propertyWrapper
        public final class Stamp<Format> {
            public init(key: String, format: Factory<Format>) {}
            public var wrappedValue: Int? { nil }
        }

        extension Stamp where Format == Plain {
            public convenience init(key: String) { self.init(key: key, format: .init()) }
        }

        @propertyWrapper
        public final class Flag<Format> {
            public init(key: String, format: Factory<Format>) {}
            public var wrappedValue: Bool { false }
        }

        extension Flag where Format == Plain {
            public convenience init(key: String) { self.init(key: key, format: .init()) }
        }

        @propertyWrapper
        public final class Mark<Format> {
            public init(key: String, format: Factory<Format>) {}
            public var wrappedValue: Bool { false }
        }

        extension Mark where Format == Plain {
            public convenience init(key: String) { self.init(key: key, format: .init()) }
        }

        extension Mark where Format == Clock {
            public convenience init(key: String, counting: Int = 0) { self.init(key: key, format: .init()) }
        }

        @propertyWrapper
        public final class Link<To, Through> {
            public init(through: Through.Type, name: String) {}
            public var wrappedValue: [To] { [] }
        }
        """

    /// `source` lowered as the first file of a module with `others`, the dependency as `--wrapper-sources`.
    static func lowered(_ source: String, module others: [String] = [], dependency: String = dependency) -> LoweringResult {
        Fixtures.lowered(source, module: others, dependencies: [dependency])
    }

    @Test(arguments: [
        // A `T.self` argument for `Through.Type`; `To` from the property's type.
        ("@Link(through: Pivot.self, name: \"tags\") var tags: [Tag]", "Link<Tag, Pivot>"),
        // The one init that takes `key:` is declared where `Format == Plain`.
        ("@Stamp(key: \"created\") var created: Int?", "Stamp<Plain>"),
        ("@Stamp(key: \"created\") var created", "Stamp<Plain>"),
        // An implicit member of `Factory<Format>`: a static property's or function's declared type.
        ("@Stamp(key: \"updated\", format: .clock) var updated: Int?", "Stamp<Clock>"),
        ("@Stamp(key: \"updated\", format: .clock(hours: true)) var updated", "Stamp<Clock>"),
        // `wrappedValue` is `Bool` whatever the format: the property needs no type.
        ("@Flag(key: \"seen\") var seen", "Flag<Plain>"),
    ])
    func readsTheCall(_ declaration: String, _ storage: String) {
        let source = "final class Item: Model {\n    \(declaration)\n}\n"
        let result = Self.lowered(source)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(String(decoding: result.output, as: UTF8.self).contains(": \(storage) = "))
    }

    @Test(arguments: [
        // Two inits take `key:` alone, one where `Format == Plain`, one where `Format == Clock`.
        "@Mark(key: \"seen\") var seen: Bool",
        // The member's type names `Factory`'s own parameter: no one type.
        "@Stamp(key: \"updated\", format: .same) var updated: Int?",
        // Not a member the sources declare.
        "@Stamp(key: \"updated\", format: .iso) var updated: Int?",
        // Not a type: `.self` of a value is not read.
        "@Link(through: pivot.self.kind, name: \"tags\") var tags: [Tag]",
    ])
    func leavesAnUncertainCallAsWritten(_ declaration: String) {
        let source = "final class Item: Model {\n    \(declaration)\n}\n"
        let result = Self.lowered(source)
        #expect(result.diagnostics.map(\.message).allSatisfy { $0.hasPrefix("cannot lower") }, "\(result.diagnostics.map(\.message))")
        #expect(result.diagnostics.count == 1)
        #expect(String(decoding: result.output, as: UTF8.self) == source)
    }

    /// A `Factory` declared in the module too is not the one the wrapper's signature names: neither is read.
    @Test func aTypeDeclaredTwiceIsNotRead() {
        let source = "final class Item: Model {\n    @Stamp(key: \"updated\", format: .clock) var updated: Int?\n}\n"
        let result = Self.lowered(source, module: ["struct Factory<Format> { static var clock: Factory<Int> { .init() } }"])
        #expect(result.diagnostics.map(\.message) == ["cannot lower 'updated': the generic arguments of 'Stamp' cannot be read from its type"])
    }

    static let fields = """
        public protocol Fields: AnyObject {}
        public protocol Model: Fields {}

        extension Fields {
            public typealias Field<Value> = FieldProperty<Self, Value>
        }

        extension Model {
            public typealias Parent<To> = ParentProperty<Self, To>
        }

        @propertyWrapper
        public final class FieldProperty<Owner, Value> {
            public init(key: String) {}
            public var wrappedValue: Value { fatalError() }
            public var projectedValue: FieldProperty<Owner, Value> { self }
        }

        @propertyWrapper
        public final class ParentProperty<From, To> {
            @FieldProperty<From, Int> public var id: Int
            public init(key: String) { _id = FieldProperty(key: key) }
            public var wrappedValue: To { fatalError() }
            public var projectedValue: ParentProperty<From, To> { self }
        }
        """

    /// In a type inside a model, `Parent` is the model's alias (the inner type is no `Model`), whose `Self`
    /// is the model: the projection is spelled as the storage is, which the compiler reads the same way.
    @Test func aProjectionInANestedTypeIsSpelledAsItsStorage() {
        let source = """
            final class Orbit: Model {
                final class Key: Fields {
                    @Parent(key: "planet") var planet: Planet
                }
                @Parent(key: "star") var star: Star
            }

            """
        let result = Self.lowered(source, dependency: Self.fields)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let output = String(decoding: result.output, as: UTF8.self)
        #expect(output.contains("var _$planet: Parent<Planet> { _planet.projectedValue }"))
        #expect(output.contains("var _$star: ParentProperty<Orbit, Star> { _star.projectedValue }"))
    }

    /// `$star.$id`: `$star` is the wrapper itself, and `$id` its own wrapped `id`'s projection, which stays,
    /// while the model's own `id` is lowered: in the file that lowers `star`, and in another file of the module.
    @Test func aWrappersOwnProjectionStaysAfterItsProjection() {
        let model = """
            final class Planet: Model {
                @Field(key: "id") var id: Int
                @Parent(key: "star") var star: Star
                func keys() -> [Int] { [$id.hashValue, $star.$id.hashValue] }
            }

            """
        let result = Self.lowered(model, dependency: Self.fields)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        #expect(String(decoding: result.output, as: UTF8.self).contains("[_$id.hashValue, _$star.$id.hashValue]"))
        #expect(result.projections.projectionMembers == ["star": ["id"]])

        let use = "let path = \\Planet.$star.$id\nlet own = \\Planet.$id\n"
        var options = LoweringOptions()
        options.module = ModuleSources([Array(use.utf8)], dependencies: [])
        options.moduleProjections = ["id", "star"]
        options.moduleProjectionMembers = ["star": ["id"]]
        #expect(
            String(decoding: lower(Array(use.utf8), fileName: "Use.swift", options: options).output, as: UTF8.self)
                == "let path = \\Planet._$star.$id\nlet own = \\Planet._$id\n")
    }
}
