@testable import DewrapLowering
import Foundation
import Testing

/// The built-in catalog (SPEC table T) and the reader of `@propertyWrapper`
/// declarations it shares with wrappers declared in the input.
struct WrapperShapeTests {
    static let tableT = [
        "State", "Binding", "StateObject", "ObservedObject", "EnvironmentObject", "Environment", "FocusState",
        "GestureState", "AppStorage", "SceneStorage", "Bindable", "Namespace", "ScaledMetric", "FocusedValue",
        "FetchRequest", "Query", "Published", "FocusState.Binding", "AccessibilityFocusState", "AccessibilityFocusState.Binding",
    ]

    @Test func theCatalogHoldsTableT() {
        #expect(Set(WrapperShapes.builtIn.byName.keys) == Set(Self.tableT))
    }

    /// The stand-in the fixtures compile against declares the same shapes as the catalog.
    @Test(arguments: tableT)
    func theStandInAgreesWithTheCatalog(_ name: String) throws {
        let standIn = WrapperShapes(readingDeclarationsIn: try Fixtures.read("standin/SwiftUI", ".swift"))
        #expect(standIn.byName[name]?.description == WrapperShapes.builtIn.byName[name]?.description)
    }

    /// A plain value type fills the cut texts; a projection of the storage's own type (`Binding`'s) is the same text.
    @Test func typesForPlainNames() throws {
        let shapes = WrapperShapes.builtIn
        let state = try #require(shapes.byName["State"]?.typesForPlainName("Bool"))
        #expect(state.storage == "State<Bool>" && state.projected == "Binding<Bool>")
        #expect(shapes.byName["State"]?.plainValueSlots?.projectedIsStorage == false)
        let binding = try #require(shapes.byName["Binding"]?.typesForPlainName("Entry0"))
        #expect(binding.storage == "Binding<Entry0>" && binding.projected == "Binding<Entry0>")
        #expect(shapes.byName["Binding"]?.plainValueSlots?.projectedIsStorage == true)
        #expect(shapes.byName["State"]?.typesForPlainName("[Int]") == nil)
    }

    @Test func catalogShapes() throws {
        let shapes = WrapperShapes.builtIn
        #expect(
            shapes.shape(named: "SwiftUI.State")?.description == """
                struct State<Value>
                init(wrappedValue:) true
                init() false, init(projectedValue:) false
                wrappedValue: Value get set nonmutating
                projectedValue: Binding<Value> get set none
                enclosing instance: none, sendable: whenArgumentsAre
                """)
        #expect(
            shapes.byName["StateObject"]?.description == """
                struct StateObject<ObjectType>
                init(wrappedValue:) true autoclosure
                init() false, init(projectedValue:) false
                wrappedValue: ObjectType get set none @preconcurrency @MainActor
                projectedValue: ObservedObject<ObjectType>.Wrapper get set none @preconcurrency @MainActor
                enclosing instance: none, sendable: always
                """)
        #expect(
            shapes.byName["ObservedObject"]?.description == """
                struct ObservedObject<ObjectType>
                init(wrappedValue:) true isolated
                init() false, init(projectedValue:) false
                wrappedValue: ObjectType get set mutating modify @preconcurrency @MainActor
                projectedValue: ObservedObject<ObjectType>.Wrapper get set none @preconcurrency @MainActor
                enclosing instance: none, sendable: always
                """)
        #expect(
            shapes.byName["FocusState"]?.description == """
                struct FocusState<Value>
                init(wrappedValue:) false
                init() true, init(projectedValue:) false
                wrappedValue: Value get set nonmutating
                projectedValue: FocusState<Value>.Binding get set none
                enclosing instance: none, sendable: unknown
                """)
        #expect(
            shapes.byName["Published"]?.description == """
                struct Published<Value>
                init(wrappedValue:) true
                init() false, init(projectedValue:) false
                wrappedValue: Value get set mutating
                projectedValue: Published<Value>.Publisher get mutating set mutating
                enclosing instance: nonmutating, sendable: unknown
                """)
    }

    /// The implicit `init()` of a wrapper whose stored properties all have values, among them a
    /// wrapped property given its value by its attribute's arguments (Swiftfin's `Router`, whose
    /// `@Environment(\\.self) private var environment` has none written) or by a built-in wrapper's
    /// `init()`; not where the attribute has no arguments and the wrapper no `init()`.
    @Test func storedPropertiesInitializedByTheirAttributes() {
        func description(_ attribute: String) -> String? {
            let source = """
                @propertyWrapper struct Router {
                    \(attribute) private var environment: EnvironmentValues
                    var wrappedValue: Int { 1 }
                }
                """
            return WrapperShapes(readingDeclarationsIn: Array(source.utf8)).byName["Router"]?.description
        }
        #expect(description("@Environment(\\.self)")?.contains("init() true") == true)
        #expect(description("@Environment")?.contains("init() false") == true)
        // A built-in wrapper's `init()` gives it a value (Swiftfin's `Toaster`); ObservedObject has none.
        #expect(description("@EnvironmentObject")?.contains("init() true") == true)
        #expect(description("@ObservedObject")?.contains("init() false") == true)
    }

    /// Implicit inits, stored and computed `wrappedValue`, class and enum wrappers.
    @Test func declaredShapes() {
        let source = """
            @propertyWrapper struct TwelveOrLess {
                private var number = 0
                var wrappedValue: Int { get { return number } set { number = min(newValue, 12) } }
            }
            @propertyWrapper struct Stored<T> { var wrappedValue: T; var projectedValue: Stored<T> { get { self } set { self = newValue } } }
            @propertyWrapper final class Shared<Value> {
                init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
                var wrappedValue: Value
            }
            @propertyWrapper enum Deferred<Value> {
                case pending(() -> Value)
                init(wrappedValue: @autoclosure @escaping () -> Value) { self = .pending(wrappedValue) }
                var wrappedValue: Value { mutating get { fatalError() } }
            }
            @propertyWrapper struct Constant { let wrappedValue: Int; init(_ value: Int) { wrappedValue = value } }
            @propertyWrapper struct Counted { var wrappedValue = 0 }
            @propertyWrapper struct Coroutine<T> { var stored: T; init(wrappedValue: T) { stored = wrappedValue }
                var wrappedValue: T { _read { yield stored } _modify { yield &stored } } }
            @propertyWrapper struct Scaled { var wrappedValue: Double; init(wrappedValue: Double = 1, by factor: Double = 2) { self.wrappedValue = wrappedValue * factor } }
            struct NotAWrapper { var wrappedValue: Int }
            """
        let shapes = WrapperShapes(readingDeclarationsIn: Array(source.utf8))
        #expect(Set(shapes.byName.keys) == ["TwelveOrLess", "Stored", "Shared", "Deferred", "Constant", "Counted", "Scaled", "Coroutine"])
        #expect(
            shapes.byName["TwelveOrLess"]?.description == """
                struct TwelveOrLess<>
                init(wrappedValue:) false
                init() true, init(projectedValue:) false
                wrappedValue: Int get set mutating
                projectedValue: none
                enclosing instance: none, sendable: unknown
                """)
        #expect(
            shapes.byName["Stored"]?.description == """
                struct Stored<T>
                init(wrappedValue:) true
                init() false, init(projectedValue:) false
                wrappedValue: T get set mutating modify
                projectedValue: Stored<T> get set mutating
                enclosing instance: none, sendable: unknown
                """)
        #expect(
            shapes.byName["Shared"]?.description == """
                class Shared<Value>
                init(wrappedValue:) true
                init() false, init(projectedValue:) false
                wrappedValue: Value get set nonmutating modify
                projectedValue: none
                enclosing instance: none, sendable: unknown
                """)
        #expect(
            shapes.byName["Deferred"]?.description == """
                enum Deferred<Value>
                init(wrappedValue:) true autoclosure
                init() false, init(projectedValue:) false
                wrappedValue: Value get mutating set none
                projectedValue: none
                enclosing instance: none, sendable: unknown
                """)
        #expect(
            shapes.byName["Constant"]?.description == """
                struct Constant<>
                init(wrappedValue:) false
                init() false, init(projectedValue:) false
                wrappedValue: Int get set none
                projectedValue: none
                enclosing instance: none, sendable: unknown
                """)
        // Defaults for every parameter make `Scaled()` valid, as swiftc counts `init()` (V-3b).
        #expect(
            shapes.byName["Scaled"]?.description == """
                struct Scaled<>
                init(wrappedValue:) true
                init() true, init(projectedValue:) false
                wrappedValue: Double get set mutating modify
                projectedValue: none
                enclosing instance: none, sendable: unknown
                """)
        // `_modify` without `set` is settable (swiftc synthesizes the setter); it keeps `_modify`.
        #expect(
            shapes.byName["Coroutine"]?.description == """
                struct Coroutine<T>
                init(wrappedValue:) true
                init() false, init(projectedValue:) false
                wrappedValue: T get set mutating modify
                projectedValue: none
                enclosing instance: none, sendable: unknown
                """)
        // An inferred type; the implicit memberwise `init(wrappedValue:)` and `init()`.
        #expect(
            shapes.byName["Counted"]?.description == """
                struct Counted<>
                init(wrappedValue:) true
                init() true, init(projectedValue:) false
                wrappedValue: Int get set mutating modify
                projectedValue: none
                enclosing instance: none, sendable: unknown
                """)
    }
}

/// K-1 needs to know that a type is `Decodable`: through protocols declared in
/// the wrapper sources (swift-argument-parser's `ParsableCommand`).
struct CodingProtocolTests {
    static let library = """
        @propertyWrapper public struct Option<Value>: Decodable {
            public init(wrappedValue: Value) { fatalError() }
            public init(from decoder: Decoder) throws { fatalError() }
            public var wrappedValue: Value { get { fatalError() } set {} }
        }
        public protocol ParsableArguments: Swift.Decodable, _SendableMetatype {}
        public protocol ParsableCommand: ParsableArguments {}
        public protocol AsyncParsableCommand: ParsableCommand {}
        """

    static let input = """
        struct Run: AsyncParsableCommand {
            @Option var count: Int = 1
        }

        """

    @Test func keysAddedForACommandOfTheLibrary() {
        let shapes = WrapperShapes(readingDeclarationsIn: Array(Self.library.utf8))
        let result = lower(Array(Self.input.utf8), fileName: "Run.swift", options: LoweringOptions(wrapperShapes: shapes))
        #expect(result.diagnostics.isEmpty)
        #expect(
            String(decoding: result.output, as: UTF8.self).hasSuffix(
                """

                    private enum CodingKeys: String, CodingKey {
                        case _count = "count"
                    }
                }

                """))
    }

    @Test func noKeysForATypeThatIsNotCodable() {
        let shapes = WrapperShapes(readingDeclarationsIn: Array(Self.library.utf8))
        let input = Self.input.replacingOccurrences(of: "AsyncParsableCommand", with: "Sendable")
        let result = lower(Array(input.utf8), fileName: "Run.swift", options: LoweringOptions(wrapperShapes: shapes))
        #expect(!String(decoding: result.output, as: UTF8.self).contains("CodingKeys"))
        #expect(String(decoding: result.output, as: UTF8.self).contains("private var _count: Option<Int>"))
    }

    /// A dotted attribute name: a framework's wrapper (`SwiftUI.State`), one declared in a type
    /// (`FocusState.Binding`, also after `SwiftUI.`), or a member of a type dewrap does not know,
    /// never SwiftUI's wrapper of the last name (`Accessibility.Binding` is not `Binding`).
    @Test(
        arguments: [
            ("@SwiftUI.State private var x = 1", "private var _x: State<Int>"),
            ("@FocusState.Binding var x: Bool", "private var _x: FocusState<Bool>.Binding"),
            ("@SwiftUI.FocusState.Binding var x: Bool", "private var _x: FocusState<Bool>.Binding"),
            ("@FocusState<Int?>.Binding var x: Int?", "private var _x: FocusState<Int?>.Binding"),
            ("@AccessibilityFocusState.Binding var x: Bool", "private var _x: AccessibilityFocusState<Bool>.Binding"),
            ("@Accessibility.Binding var x: Bool", nil),
            ("@Other.State var x = 1", nil),
            ("@FocusState.Value var x = 1", nil),
        ] as [(String, String?)])
    func dottedAttributeNames(_ declaration: String, _ storage: String?) {
        let source = "import SwiftUI\nstruct V: View {\n    \(declaration)\n    var body: some View { Text(\"\") }\n}\n"
        let result = lower(Array(source.utf8), fileName: "V.swift")
        let output = String(decoding: result.output, as: UTF8.self)
        if let storage {
            #expect(result.diagnostics.isEmpty && output.contains(storage), "\(output)")
        } else {
            #expect(output == source)
            #expect(result.diagnostics.map(\.message).first?.contains("is left as written: dewrap does not have") == true)
        }
    }

    @Test func inheritedNames() {
        #expect(
            WrapperShapes(readingDeclarationsIn: Array("protocol P: @unchecked Sendable, Swift.Encodable & Decodable {}".utf8))
                .protocolParents == ["P": ["Sendable", "Encodable", "Decodable"]])
    }
}
