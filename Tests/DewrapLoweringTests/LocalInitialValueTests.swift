import DewrapLowering
import Testing

/// A wrapped local whose initial value is a name (`@Bindable var store = store`): its type is that
/// of the declaration the code around sees, where it is certain; anything else the scopes see under
/// that name leaves it as written.
struct LocalInitialValueTests {
    static let model = "final class Store { var on = false }\n"

    static func lowered(_ source: String) -> (output: String, messages: [String]) {
        let result = lower(Array((Self.model + source).utf8), fileName: "View.swift")
        return (String(decoding: result.output, as: UTF8.self), result.diagnostics.map(\.message))
    }

    @Test(arguments: [
        // A parameter with a written type.
        "struct V { func f(store: Store) { @Bindable var store = store; _ = $store } }",
        "struct V { init(_ given: Store) { @Bindable var store = given; _ = $store } }",
        // A property of the type: written type, initial value, a wrapped one's type; `self.`; from an extension.
        "struct V { let store: Store\n func f() { @Bindable var store = store; _ = $store } }",
        "struct V { var store = Store()\n func f() { @Bindable var local = self.store; _ = $local } }",
        "struct V { @Environment(Store.self) private var store\n func f() { @Bindable var store = store; _ = $store } }",
        "struct V {}\nextension V { var store: Store { Store() } }\nextension V { func f() { @Bindable var store = store; _ = $store } }",
    ])
    func readsTheNamedDeclaration(_ source: String) {
        readsTheNamedDeclaration(source, type: "Store")
    }

    /// A parameter's type with generic arguments: the comma between them does not end it.
    @Test func aGenericParameterTypeIsReadWhole() {
        let source =
            "final class Box<K, V> { var on = false }\nstruct V { func f(box: Box<String, [Int]>, other: Int) { @Bindable var box = box; _ = $box } }"
        let (output, messages) = Self.lowered(source)
        #expect(messages.isEmpty, "\(messages)")
        #expect(output.contains("var _box: Bindable<Box<String, [Int]>> = Bindable(wrappedValue: box)"), "\(output)")
    }

    func readsTheNamedDeclaration(_ source: String, type: String) {
        let (output, messages) = Self.lowered(source)
        #expect(messages.isEmpty, "\(messages)")
        #expect(output.contains(": Bindable<\(type)> = Bindable(wrappedValue: "), "\(output)")
    }

    @Test(arguments: [
        // A closure parameter without a type, a name bound by `if let`, a local declared before.
        "struct V { let store: Store\n func f() { [store].forEach { store in @Bindable var store = store; _ = $store } } }",
        "struct V { let maybe: Store?\n func f() { if let store = maybe { @Bindable var store = store; _ = $store } } }",
        "struct V { func f() { let store = Store(); @Bindable var other = store; _ = $other } }",
        // `inout`, and a static member's code (which sees static properties).
        "struct V { func f(store: inout Store) { @Bindable var local = store; _ = $local } }",
        "struct V { let store: Store\n static func f() { @Bindable var store = store; _ = $store } }",
        // No such property, or one declared in two `#if` branches.
        "struct V { func f() { @Bindable var store = store; _ = $store } }",
        "struct V {\n#if A\n let store: Store\n#else\n let store: Store?\n#endif\n func f() { @Bindable var local = store; _ = $local } }",
    ])
    func leavesAnUncertainNameAsWritten(_ source: String) {
        let (output, messages) = Self.lowered(source)
        #expect(output == Self.model + source)
        #expect(messages.count == 1 && messages[0].hasSuffix("its type cannot be read from the source; add a type annotation"), "\(messages)")
    }
}
