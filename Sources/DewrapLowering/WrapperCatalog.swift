/// What lowering needs to know about a wrapper type (SPEC table T). The
/// catalog holds SwiftUI's `State` and `Binding`; other wrappers are left as
/// written for now.
struct WrapperInfo {
    enum Setter {
        case nonmutating, mutating, none
    }

    var name: String
    /// `init(wrappedValue:)` exists: `= e` becomes `W(wrappedValue: e)` and the
    /// memberwise parameter has the wrapped type.
    var hasInitWrappedValue: Bool
    var setter: Setter
    /// The type of `projectedValue` for wrapped type `T`, or nil without one.
    var projectedType: ((String) -> String)?
}

enum WrapperCatalog {
    static func info(for name: String) -> WrapperInfo? {
        switch name {
        case "State", "SwiftUI.State":
            return WrapperInfo(name: "State", hasInitWrappedValue: true, setter: .nonmutating, projectedType: { "Binding<\($0)>" })
        case "Binding", "SwiftUI.Binding":
            return WrapperInfo(name: "Binding", hasInitWrappedValue: false, setter: .nonmutating, projectedType: { "Binding<\($0)>" })
        default:
            return nil
        }
    }
}
