import Synchronization

/// The built-in wrappers (SPEC table T, Decision 7): the shapes of SwiftUI's,
/// Combine's `Published` and SwiftData's `Query`, written as the Swift
/// declarations they are and read by the same reader as wrappers declared in
/// the input. Only what lowering depends on is declared: the inits' labels
/// (and `@autoclosure`), the mutability of `wrappedValue` and
/// `projectedValue`, their types, isolation, `Sendable`, nested types that
/// member types name, and the enclosing-instance subscript. The stand-in
/// `fixtures/standin/SwiftUI.swift` declares the same shapes.
enum WrapperCatalog {
    /// Each wrapper's declaration with its extensions, by name: a file reads
    /// only the ones it names (reading all of them cost more than lowering a
    /// typical view file).
    static let declarations: [(name: String, text: String)] = [
        // MARK: SwiftUI
        (
            "State",
            #"""
            @frozen @propertyWrapper
            public struct State<Value>: DynamicProperty {
                public init(wrappedValue value: Value)
                public init(initialValue value: Value)
                public var wrappedValue: Value { get nonmutating set }
                public var projectedValue: Binding<Value> { get }
            }
            extension State: @unchecked Sendable where Value: Sendable {}
            """#
        ),
        (
            "Binding",
            #"""
            @frozen @propertyWrapper @dynamicMemberLookup
            public struct Binding<Value> {
                public init(projectedValue: Binding<Value>)
                public var wrappedValue: Value { get nonmutating set }
                public var projectedValue: Binding<Value> { get }
            }
            extension Binding: @unchecked Sendable where Value: Sendable {}
            """#
        ),
        (
            "StateObject",
            #"""
            @MainActor @preconcurrency @frozen @propertyWrapper
            public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
                nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType)
                public var wrappedValue: ObjectType { get }
                public var projectedValue: ObservedObject<ObjectType>.Wrapper { get }
            }
            """#
        ),
        (
            "ObservedObject",
            #"""
            @MainActor @preconcurrency @propertyWrapper @frozen
            public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
                @MainActor @preconcurrency @dynamicMemberLookup @frozen
                public struct Wrapper {}
                public init(initialValue: ObjectType)
                public init(wrappedValue: ObjectType)
                public var wrappedValue: ObjectType
                public var projectedValue: ObservedObject<ObjectType>.Wrapper { get }
            }
            """#
        ),
        (
            "EnvironmentObject",
            #"""
            @MainActor @preconcurrency @frozen @propertyWrapper
            public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty {
                @MainActor @preconcurrency @dynamicMemberLookup @frozen
                public struct Wrapper {}
                nonisolated public init()
                public var wrappedValue: ObjectType { get }
                public var projectedValue: EnvironmentObject<ObjectType>.Wrapper { get }
            }
            """#
        ),
        (
            "Environment",
            #"""
            @frozen @propertyWrapper
            public struct Environment<Value>: DynamicProperty {
                public init(_ keyPath: KeyPath<EnvironmentValues, Value>)
                public init(_ objectType: Value.Type) where Value: AnyObject
                public var wrappedValue: Value { get }
            }
            """#
        ),
        ("FocusState", focusState),
        // Declared inside `FocusState` (a child view's `@FocusState.Binding var isFocused: Bool`), read from its text.
        ("FocusState.Binding", focusState),
        ("AccessibilityFocusState", accessibilityFocusState),
        ("AccessibilityFocusState.Binding", accessibilityFocusState),
        (
            "GestureState",
            #"""
            @frozen @propertyWrapper
            public struct GestureState<Value>: DynamicProperty {
                public init(wrappedValue: Value)
                public init(initialValue: Value)
                public var wrappedValue: Value { get }
                public var projectedValue: GestureState<Value> { get }
            }
            """#
        ),
        (
            "AppStorage",
            #"""
            @frozen @propertyWrapper
            public struct AppStorage<Value>: DynamicProperty {
                public init(wrappedValue: Value, _ key: String)
                public var wrappedValue: Value { get nonmutating set }
                public var projectedValue: Binding<Value> { get }
            }
            """#
        ),
        (
            "SceneStorage",
            #"""
            @frozen @propertyWrapper
            public struct SceneStorage<Value>: DynamicProperty {
                public init(wrappedValue: Value, _ key: String)
                public var wrappedValue: Value { get nonmutating set }
                public var projectedValue: Binding<Value> { get }
            }
            """#
        ),
        (
            "Bindable",
            #"""
            @dynamicMemberLookup @propertyWrapper
            public struct Bindable<Value> {
                public var wrappedValue: Value
                public var projectedValue: Bindable<Value> { get }
                public init(wrappedValue: Value)
                public init(_ wrappedValue: Value)
                public init(projectedValue: Bindable<Value>)
            }
            """#
        ),
        (
            "Namespace",
            #"""
            @frozen @propertyWrapper
            public struct Namespace: DynamicProperty {
                @frozen public struct ID: Hashable {}
                public init()
                public var wrappedValue: Namespace.ID { get }
            }
            """#
        ),
        (
            "ScaledMetric",
            #"""
            @propertyWrapper
            public struct ScaledMetric<Value: BinaryFloatingPoint>: DynamicProperty {
                public init(wrappedValue: Value)
                public var wrappedValue: Value { get }
            }
            """#
        ),
        (
            "FocusedValue",
            #"""
            @propertyWrapper
            public struct FocusedValue<Value>: DynamicProperty {
                public init(_ keyPath: KeyPath<FocusedValues, Value?>)
                public var wrappedValue: Value? { get }
            }
            """#
        ),
        (
            "FetchRequest",
            #"""
            @propertyWrapper
            public struct FetchRequest<Result: NSFetchRequestResult>: DynamicProperty {
                public struct Configuration {}
                public init(sortDescriptors: [NSSortDescriptor])
                public var wrappedValue: FetchedResults<Result> { get }
                public var projectedValue: Binding<FetchRequest<Result>.Configuration> { get }
            }
            """#
        ),
        // MARK: SwiftData
        (
            "Query",
            #"""
            @propertyWrapper
            public struct Query<Element, Result>: DynamicProperty {
                public init() where Result == [Element]
                public init(sort keyPath: KeyPath<Element, some Comparable>) where Result == [Element]
                public var wrappedValue: Result { get }
            }
            """#
        ),
        // MARK: Combine
        (
            "Published",
            #"""
            @propertyWrapper
            public struct Published<Value> {
                public init(wrappedValue: Value)
                public init(initialValue: Value)
                @available(*, unavailable, message: "@Published is only available on properties of classes")
                public var wrappedValue: Value { get set }
                public struct Publisher {}
                public var projectedValue: Published<Value>.Publisher { mutating get set }
                public static subscript<EnclosingSelf: AnyObject>(
                    _enclosingInstance object: EnclosingSelf,
                    wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
                    storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
                ) -> Value { get set }
            }
            """#
        ),
    ]

    /// `FocusState` with its nested wrapper `Binding`, which has no init a module can call (its
    /// storage is SwiftUI's own): a property of it gets its value from an init's argument, `$focus`.
    private static let focusState = #"""
        @frozen @propertyWrapper
        public struct FocusState<Value: Hashable>: DynamicProperty {
            @frozen @propertyWrapper
            public struct Binding {
                internal init(storage: Never)
                public var wrappedValue: Value { get nonmutating set }
                public var projectedValue: FocusState<Value>.Binding { get }
            }
            public init() where Value == Bool
            public init<T: Hashable>() where Value == T?
            public var wrappedValue: Value { get nonmutating set }
            public var projectedValue: FocusState<Value>.Binding { get }
        }
        """#

    /// `FocusState`'s twin for the focus of VoiceOver and other accessibility technologies.
    private static let accessibilityFocusState = #"""
        @frozen @propertyWrapper
        public struct AccessibilityFocusState<Value: Hashable>: DynamicProperty {
            @frozen @propertyWrapper
            public struct Binding {
                internal init(storage: Never)
                public var wrappedValue: Value { get nonmutating set }
                public var projectedValue: AccessibilityFocusState<Value>.Binding { get }
            }
            public init() where Value == Bool
            public init(for technologies: AccessibilityTechnologies) where Value == Bool
            public init<T: Hashable>() where Value == T?
            public init<T: Hashable>(for technologies: AccessibilityTechnologies) where Value == T?
            public var wrappedValue: Value { get nonmutating set }
            public var projectedValue: AccessibilityFocusState<Value>.Binding { get }
        }
        """#

    /// Every built-in wrapper, read at once (the tests compare them with the stand-in).
    static var shapes: WrapperShapes {
        var shapes = WrapperShapes()
        for declaration in declarations {
            shapes.merge(WrapperShapes(readingDeclarationsIn: Array(declaration.text.utf8)))
        }
        return shapes
    }

    /// The wrappers read so far, by their index in `declarations`, shared by the worker threads.
    /// By index, not by name: a few names are compared at once, where a process's first
    /// dictionaries of these types cost it type metadata and hashing.
    private static let read = Mutex<[WrapperShape?]>([WrapperShape?](repeating: nil, count: declarations.count))

    /// Whether `name` is a built-in wrapper's.
    static func declares(_ name: String) -> Bool {
        declarations.contains { $0.name == name }
    }

    /// The built-in wrapper named `name`, read from its declaration the first time it is asked for.
    static func shape(named name: String) -> WrapperShape? {
        guard let index = declarations.firstIndex(where: { $0.name == name }) else { return nil }
        if let known = read.withLock({ $0[index] }) { return known }
        let shape = WrapperShapes.shape(named: name, declaredIn: Array(declarations[index].text.utf8))
        read.withLock { $0[index] = shape }
        return shape
    }
}
