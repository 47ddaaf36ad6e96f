/// The built-in wrappers (SPEC table T, Decision 7): the shapes of SwiftUI's,
/// Combine's `Published` and SwiftData's `Query`, written as the Swift
/// declarations they are and read by the same reader as wrappers declared in
/// the input. Only what lowering depends on is declared: the inits' labels
/// (and `@autoclosure`), the mutability of `wrappedValue` and
/// `projectedValue`, their types, isolation, `Sendable`, nested types that
/// member types name, and the enclosing-instance subscript. The stand-in
/// `fixtures/standin/SwiftUI.swift` declares the same shapes.
enum WrapperCatalog {
    static let shapes = WrapperShapes(readingDeclarationsIn: Array(declarations.utf8))

    static let declarations = #"""
        // MARK: SwiftUI

        @frozen @propertyWrapper
        public struct State<Value>: DynamicProperty {
            public init(wrappedValue value: Value)
            public init(initialValue value: Value)
            public var wrappedValue: Value { get nonmutating set }
            public var projectedValue: Binding<Value> { get }
        }
        extension State: @unchecked Sendable where Value: Sendable {}

        @frozen @propertyWrapper @dynamicMemberLookup
        public struct Binding<Value> {
            public init(projectedValue: Binding<Value>)
            public var wrappedValue: Value { get nonmutating set }
            public var projectedValue: Binding<Value> { get }
        }
        extension Binding: @unchecked Sendable where Value: Sendable {}

        @MainActor @preconcurrency @frozen @propertyWrapper
        public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
            nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType)
            public var wrappedValue: ObjectType { get }
            public var projectedValue: ObservedObject<ObjectType>.Wrapper { get }
        }

        @MainActor @preconcurrency @propertyWrapper @frozen
        public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
            @MainActor @preconcurrency @dynamicMemberLookup @frozen
            public struct Wrapper {}
            public init(initialValue: ObjectType)
            public init(wrappedValue: ObjectType)
            public var wrappedValue: ObjectType
            public var projectedValue: ObservedObject<ObjectType>.Wrapper { get }
        }

        @MainActor @preconcurrency @frozen @propertyWrapper
        public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty {
            @MainActor @preconcurrency @dynamicMemberLookup @frozen
            public struct Wrapper {}
            nonisolated public init()
            public var wrappedValue: ObjectType { get }
            public var projectedValue: EnvironmentObject<ObjectType>.Wrapper { get }
        }

        @frozen @propertyWrapper
        public struct Environment<Value>: DynamicProperty {
            public init(_ keyPath: KeyPath<EnvironmentValues, Value>)
            public init(_ objectType: Value.Type) where Value: AnyObject
            public var wrappedValue: Value { get }
        }

        @frozen @propertyWrapper
        public struct FocusState<Value: Hashable>: DynamicProperty {
            @frozen @propertyWrapper
            public struct Binding {}
            public init() where Value == Bool
            public init<T: Hashable>() where Value == T?
            public var wrappedValue: Value { get nonmutating set }
            public var projectedValue: FocusState<Value>.Binding { get }
        }

        @frozen @propertyWrapper
        public struct GestureState<Value>: DynamicProperty {
            public init(wrappedValue: Value)
            public init(initialValue: Value)
            public var wrappedValue: Value { get }
            public var projectedValue: GestureState<Value> { get }
        }

        @frozen @propertyWrapper
        public struct AppStorage<Value>: DynamicProperty {
            public init(wrappedValue: Value, _ key: String)
            public var wrappedValue: Value { get nonmutating set }
            public var projectedValue: Binding<Value> { get }
        }

        @frozen @propertyWrapper
        public struct SceneStorage<Value>: DynamicProperty {
            public init(wrappedValue: Value, _ key: String)
            public var wrappedValue: Value { get nonmutating set }
            public var projectedValue: Binding<Value> { get }
        }

        @dynamicMemberLookup @propertyWrapper
        public struct Bindable<Value> {
            public var wrappedValue: Value
            public var projectedValue: Bindable<Value> { get }
            public init(wrappedValue: Value)
            public init(_ wrappedValue: Value)
            public init(projectedValue: Bindable<Value>)
        }

        @frozen @propertyWrapper
        public struct Namespace: DynamicProperty {
            @frozen public struct ID: Hashable {}
            public init()
            public var wrappedValue: Namespace.ID { get }
        }

        @propertyWrapper
        public struct ScaledMetric<Value: BinaryFloatingPoint>: DynamicProperty {
            public init(wrappedValue: Value)
            public var wrappedValue: Value { get }
        }

        @propertyWrapper
        public struct FocusedValue<Value>: DynamicProperty {
            public init(_ keyPath: KeyPath<FocusedValues, Value?>)
            public var wrappedValue: Value? { get }
        }

        @propertyWrapper
        public struct FetchRequest<Result: NSFetchRequestResult>: DynamicProperty {
            public struct Configuration {}
            public init(sortDescriptors: [NSSortDescriptor])
            public var wrappedValue: FetchedResults<Result> { get }
            public var projectedValue: Binding<FetchRequest<Result>.Configuration> { get }
        }

        // MARK: SwiftData

        @propertyWrapper
        public struct Query<Element, Result>: DynamicProperty {
            public init() where Result == [Element]
            public init(sort keyPath: KeyPath<Element, some Comparable>) where Result == [Element]
            public var wrappedValue: Result { get }
        }

        // MARK: Combine

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
}
