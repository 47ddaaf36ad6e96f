import DewrapSyntax
import Synchronization

/// The static members and enum cases of SDK value types that apps use as initial values
/// (`@State private var size = CGSize.zero`, `= Color.red`, `= EditMode.inactive`, `= Date.now`,
/// `= Angle.degrees(90)`), so that such a property has its certain type (SPEC Decision 5, revised):
/// each member with the type Apple's documentation declares, kept as Swift declarations and read by
/// the same parser as the input, each type's once per process, the first time a file asks.
///
/// Sources: the pages of Apple's documentation as mirrored in Markdown by the repository
/// Averyy/apple-dev-docs (developer.apple.com/documentation/…), each page as stored at one of the
/// commits 2b67f464, 18463ea5, 011eba44, bef8048e, 85608b77, 4b51090c, b080135b and 8e18c896:
/// - SwiftUI: `documentation/SwiftUI/<type>.md` for `color`, `font`, `alignment`,
///   `horizontalalignment`, `verticalalignment`, `unitpoint`, `angle`, `animation`,
///   `navigationsplitviewvisibility`, `presentationdetent` (their "Topics" lists, which give each
///   member's declaration: `static let red: Color`, `static var accentColor: Color`,
///   `static func degrees(Double) -> Angle`), and for the enumerations `editmode`, `colorscheme`,
///   `scenephase`, `userinterfacesizeclass`, `dynamictypesize`, `controlsize`, `layoutdirection`,
///   `textalignment`, `axis`, `edge`, `visibility`, `contentmode` (each "Kind: enum", its topics the
///   cases; `colorscheme/light.md`, `edge/top.md`, `visibility/hidden.md` checked: `case light`).
/// - Core Graphics types (documented under Core Foundation): `documentation/CoreFoundation/cgsize.md`
///   and `cgsize/zero.md` (`static var zero: CGSize { get }`), `cgpoint.md`, `cgrect.md` and
///   `cgrect/null.md`. `CGFloat`'s are the `FloatingPoint` and `AdditiveArithmetic` requirements
///   (`documentation/Swift/floatingpoint/pi.md`: `static var pi: Self { get }`), which `CGFloat`
///   implements as `Float` and `Double` do (developer.apple.com/documentation/corefoundation/cgfloat-swift.struct).
/// - Foundation: `documentation/Foundation/date.md` and `date/now.md` (`static var now: Date { get }`).
/// - The standard library: `documentation/Swift/int/max.md` (`static var max: Self { get }`),
///   `double/zero.md` (`static var zero: Self { get }`), `double/infinity.md`,
///   `double/greatestfinitemagnitude.md` and `float/infinity.md` with their "See Also" lists
///   (`static var pi: Double { get }`, …). `Self` is read as the extended type.
///
/// Left out:
/// - `Font.default` and `Animation.default`: `default` after a period is lexed as a keyword, which
///   `declaredType(of:)` does not read as a member name;
/// - members whose type is another module's typealias (`Animation.systemOverlayDisappearanceDelay:
///   TimeInterval`), and `TimeInterval.zero` (a typealias of `Double`, whose members its page lists);
/// - nested types (`Edge.Set.all`, `Font.Weight.bold`): only `Type.member` with a one-word type is read;
/// - types with constructors only (`ScrollPosition`, `NavigationPath`, `UUID`): `T(…)` is read already.
///
/// Which `Color` a file means: a name resolves to the SDK's type only where the file sees that type
/// and declares nothing of that name itself. So a member is used only when the file imports, at its
/// top level outside `#if` or in a `#if` branch that holds the use too, one of the modules of its
/// framework (none for the standard library's):
/// SwiftUI's types need `SwiftUI`; Core Graphics' `CoreGraphics` or a module that re-exports them
/// (`Foundation`, `SwiftUI`, `UIKit`, `AppKit`); `Date` needs `Foundation`, `FoundationEssentials`
/// or one of `SwiftUI`, `UIKit`, `AppKit`, which re-export Foundation. And never when the file
/// declares a type, typealias, associated type or generic parameter of that name anywhere
/// (`DeclarationIndex.declaresType(named:context:)`), nor when another file of the module declares
/// a type or typealias of that name (`ModuleDeclarations.declaresType(named:)`; dewrap knows the module's other
/// files when one run lowers them together), nor when the file's own extension, or another file's,
/// declares the member (that declaration decides it).
enum SDKStaticMemberCatalog {
    /// Where a type comes from, for the imports that make its name the SDK's in a file.
    enum Framework: Sendable {
        case swiftUI, coreGraphics, foundation, standardLibrary

        /// Any one of them imported makes the type's name resolve to the SDK's (none: the standard
        /// library's, seen everywhere).
        var modules: [String] {
            switch self {
            case .swiftUI: ["SwiftUI"]
            case .coreGraphics: ["CoreGraphics", "Foundation", "SwiftUI", "UIKit", "AppKit"]
            case .foundation: ["Foundation", "FoundationEssentials", "SwiftUI", "UIKit", "AppKit"]
            case .standardLibrary: []
            }
        }
    }

    /// One type's members: an `enum` with its cases, or an `extension` with static members (or
    /// both). A struct, not a tuple: an array of tuples makes the run time build the tuple's type
    /// metadata on first use.
    struct Declarations: Sendable {
        var type: StaticString
        var framework: Framework
        var text: String

        init(_ type: StaticString, _ framework: Framework, _ text: String) {
            self.type = type
            self.framework = framework
            self.text = text
        }
    }

    /// The declarations, one entry per type: a file reads only those of the types it names a
    /// member of (the catalog is large, and a file names members of few of its types).
    static let declarations: [Declarations] = [
        Declarations(
            "Color", .swiftUI,
            #"""
            extension Color {
                // Getting standard colors
                public static let black: Color
                public static let blue: Color
                public static let brown: Color
                public static let clear: Color
                public static let cyan: Color
                public static let gray: Color
                public static let green: Color
                public static let indigo: Color
                public static let mint: Color
                public static let orange: Color
                public static let pink: Color
                public static let purple: Color
                public static let red: Color
                public static let teal: Color
                public static let white: Color
                public static let yellow: Color
                // Getting semantic colors
                public static var accentColor: Color { get }
                public static let primary: Color
                public static let secondary: Color
            }
            """#),
        Declarations(
            "Font", .swiftUI,
            #"""
            extension Font {
                // Getting standard fonts
                public static let extraLargeTitle2: Font
                public static let extraLargeTitle: Font
                public static let largeTitle: Font
                public static let title: Font
                public static let title2: Font
                public static let title3: Font
                public static let headline: Font
                public static let subheadline: Font
                public static let body: Font
                public static let callout: Font
                public static let caption: Font
                public static let caption2: Font
                public static let footnote: Font
                // Getting system fonts, creating custom fonts (and the deprecated overloads)
                public static func system(_ style: Font.TextStyle, design: Font.Design?, weight: Font.Weight?) -> Font
                public static func system(size: CGFloat, weight: Font.Weight?, design: Font.Design?) -> Font
                public static func system(_ style: Font.TextStyle, design: Font.Design) -> Font
                public static func system(size: CGFloat, weight: Font.Weight, design: Font.Design) -> Font
                public static func custom(_ name: String, fixedSize: CGFloat) -> Font
                public static func custom(_ name: String, size: CGFloat, relativeTo textStyle: Font.TextStyle) -> Font
                public static func custom(_ name: String, size: CGFloat) -> Font
            }
            """#),
        Declarations(
            "Alignment", .swiftUI,
            #"""
            extension Alignment {
                public static let topLeading: Alignment
                public static let top: Alignment
                public static let topTrailing: Alignment
                public static let leading: Alignment
                public static let center: Alignment
                public static let trailing: Alignment
                public static let bottomLeading: Alignment
                public static let bottom: Alignment
                public static let bottomTrailing: Alignment
                public static var leadingFirstTextBaseline: Alignment { get }
                public static var centerFirstTextBaseline: Alignment { get }
                public static var trailingFirstTextBaseline: Alignment { get }
                public static var leadingLastTextBaseline: Alignment { get }
                public static var centerLastTextBaseline: Alignment { get }
                public static var trailingLastTextBaseline: Alignment { get }
            }
            """#),
        Declarations(
            "HorizontalAlignment", .swiftUI,
            #"""
            extension HorizontalAlignment {
                public static let leading: HorizontalAlignment
                public static let center: HorizontalAlignment
                public static let trailing: HorizontalAlignment
                public static let listRowSeparatorLeading: HorizontalAlignment
                public static let listRowSeparatorTrailing: HorizontalAlignment
            }
            """#),
        Declarations(
            "VerticalAlignment", .swiftUI,
            #"""
            extension VerticalAlignment {
                public static let top: VerticalAlignment
                public static let center: VerticalAlignment
                public static let bottom: VerticalAlignment
                public static let firstTextBaseline: VerticalAlignment
                public static let lastTextBaseline: VerticalAlignment
            }
            """#),
        Declarations(
            "UnitPoint", .swiftUI,
            #"""
            extension UnitPoint {
                public static let zero: UnitPoint
                public static let topLeading: UnitPoint
                public static let top: UnitPoint
                public static let topTrailing: UnitPoint
                public static let leading: UnitPoint
                public static let center: UnitPoint
                public static let trailing: UnitPoint
                public static let bottomLeading: UnitPoint
                public static let bottom: UnitPoint
                public static let bottomTrailing: UnitPoint
            }
            """#),
        Declarations(
            "Angle", .swiftUI,
            #"""
            extension Angle {
                public static var zero: Angle { get }
                public static func degrees(_ degrees: Double) -> Angle
                public static func radians(_ radians: Double) -> Angle
            }
            """#),
        Declarations(
            "Animation", .swiftUI,
            #"""
            extension Animation {
                public static var linear: Animation { get }
                public static func linear(duration: TimeInterval) -> Animation
                public static var easeIn: Animation { get }
                public static func easeIn(duration: TimeInterval) -> Animation
                public static var easeOut: Animation { get }
                public static func easeOut(duration: TimeInterval) -> Animation
                public static var easeInOut: Animation { get }
                public static func easeInOut(duration: TimeInterval) -> Animation
                public static var bouncy: Animation { get }
                public static func bouncy(duration: TimeInterval, extraBounce: Double) -> Animation
                public static var smooth: Animation { get }
                public static func smooth(duration: TimeInterval, extraBounce: Double) -> Animation
                public static var snappy: Animation { get }
                public static func snappy(duration: TimeInterval, extraBounce: Double) -> Animation
                public static var spring: Animation { get }
                public static func spring(_ spring: Spring, blendDuration: TimeInterval) -> Animation
                public static func spring(duration: TimeInterval, bounce: Double, blendDuration: Double) -> Animation
                public static func spring(response: Double, dampingFraction: Double, blendDuration: TimeInterval) -> Animation
                public static var interactiveSpring: Animation { get }
                public static func interactiveSpring(response: Double, dampingFraction: Double, blendDuration: TimeInterval) -> Animation
                public static func interactiveSpring(duration: TimeInterval, extraBounce: Double, blendDuration: TimeInterval) -> Animation
                public static var interpolatingSpring: Animation { get }
                public static func interpolatingSpring(_ spring: Spring, initialVelocity: Double) -> Animation
                public static func interpolatingSpring(duration: TimeInterval, bounce: Double, initialVelocity: Double) -> Animation
                public static func interpolatingSpring(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) -> Animation
                public static func timingCurve(_ curve: UnitCurve, duration: TimeInterval) -> Animation
                public static func timingCurve(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double, duration: TimeInterval) -> Animation
            }
            """#),
        Declarations(
            "NavigationSplitViewVisibility", .swiftUI,
            #"""
            extension NavigationSplitViewVisibility {
                public static var automatic: NavigationSplitViewVisibility { get }
                public static var all: NavigationSplitViewVisibility { get }
                public static var doubleColumn: NavigationSplitViewVisibility { get }
                public static var detailOnly: NavigationSplitViewVisibility { get }
            }
            """#),
        Declarations(
            "PresentationDetent", .swiftUI,
            #"""
            extension PresentationDetent {
                public static let large: PresentationDetent
                public static let medium: PresentationDetent
                public static func custom<D>(_ type: D.Type) -> PresentationDetent where D: CustomPresentationDetent
                public static func fraction(_ fraction: CGFloat) -> PresentationDetent
                public static func height(_ height: CGFloat) -> PresentationDetent
            }
            """#),
        Declarations(
            "EditMode", .swiftUI,
            #"""
            public enum EditMode {
                case active
                case inactive
                case transient
            }
            """#),
        Declarations(
            "ColorScheme", .swiftUI,
            #"""
            public enum ColorScheme {
                case light
                case dark
            }
            """#),
        Declarations(
            "ScenePhase", .swiftUI,
            #"""
            public enum ScenePhase {
                case active
                case inactive
                case background
            }
            """#),
        Declarations(
            "UserInterfaceSizeClass", .swiftUI,
            #"""
            public enum UserInterfaceSizeClass {
                case compact
                case regular
            }
            """#),
        Declarations(
            "DynamicTypeSize", .swiftUI,
            #"""
            public enum DynamicTypeSize {
                case xSmall
                case small
                case medium
                case large
                case xLarge
                case xxLarge
                case xxxLarge
                case accessibility1
                case accessibility2
                case accessibility3
                case accessibility4
                case accessibility5
            }
            """#),
        Declarations(
            "ControlSize", .swiftUI,
            #"""
            public enum ControlSize {
                case mini
                case small
                case regular
                case large
                case extraLarge
            }
            """#),
        Declarations(
            "LayoutDirection", .swiftUI,
            #"""
            public enum LayoutDirection {
                case leftToRight
                case rightToLeft
            }
            """#),
        Declarations(
            "TextAlignment", .swiftUI,
            #"""
            public enum TextAlignment {
                case center
                case leading
                case trailing
            }
            """#),
        Declarations(
            "Axis", .swiftUI,
            #"""
            public enum Axis {
                case horizontal
                case vertical
            }
            """#),
        Declarations(
            "Edge", .swiftUI,
            #"""
            public enum Edge {
                case top
                case bottom
                case leading
                case trailing
            }
            """#),
        Declarations(
            "Visibility", .swiftUI,
            #"""
            public enum Visibility {
                case automatic
                case visible
                case hidden
            }
            """#),
        Declarations(
            "ContentMode", .swiftUI,
            #"""
            public enum ContentMode {
                case fill
                case fit
            }
            """#),
        Declarations(
            "CGSize", .coreGraphics,
            #"""
            extension CGSize {
                public static var zero: CGSize { get }
            }
            """#),
        Declarations(
            "CGPoint", .coreGraphics,
            #"""
            extension CGPoint {
                public static var zero: CGPoint { get }
            }
            """#),
        Declarations(
            "CGRect", .coreGraphics,
            #"""
            extension CGRect {
                public static var infinite: CGRect { get }
                public static var null: CGRect { get }
                public static var zero: CGRect { get }
            }
            """#),
        Declarations(
            "CGFloat", .coreGraphics,
            #"""
            extension CGFloat {
                public static var zero: Self { get }
                public static var pi: Self { get }
                public static var infinity: Self { get }
                public static var greatestFiniteMagnitude: Self { get }
            }
            """#),
        Declarations(
            "Date", .foundation,
            #"""
            extension Date {
                public static var now: Date { get }
                public static let distantFuture: Date
                public static let distantPast: Date
            }
            """#),
        Declarations(
            "Int", .standardLibrary,
            #"""
            extension Int {
                public static var zero: Self { get }
                public static var max: Self { get }
                public static var min: Self { get }
            }
            """#),
        Declarations(
            "Double", .standardLibrary,
            #"""
            extension Double {
                public static var zero: Self { get }
                public static var pi: Double { get }
                public static var infinity: Double { get }
                public static var greatestFiniteMagnitude: Double { get }
                public static var leastNonzeroMagnitude: Double { get }
                public static var leastNormalMagnitude: Double { get }
                public static var nan: Double { get }
                public static var signalingNaN: Double { get }
                public static var ulpOfOne: Double { get }
            }
            """#),
        Declarations(
            "Float", .standardLibrary,
            #"""
            extension Float {
                public static var zero: Self { get }
                public static var pi: Float { get }
                public static var infinity: Float { get }
                public static var greatestFiniteMagnitude: Float { get }
                public static var leastNonzeroMagnitude: Float { get }
                public static var leastNormalMagnitude: Float { get }
                public static var nan: Float { get }
                public static var signalingNaN: Float { get }
                public static var ulpOfOne: Float { get }
            }
            """#),
    ]

    /// A member as a file may name it: `Type.name` (a case or static property) or `Type.name(…)`
    /// (a static function; its overloads all have one result type, or none is certain).
    struct Key: Hashable, Sendable {
        var type: String
        var name: String
        var isFunction: Bool
    }

    /// A member: its name in `Members.bytes`, whether it is a function, and its type as declared
    /// (nil where two declarations disagree).
    struct Member: Sendable {
        var name: Range<Int>
        var isFunction: Bool
        var type: String?
    }

    /// One type's members, found by the bytes of the names a file writes: a walk over a plain list.
    struct Members: Sendable {
        /// The members' names, one after another.
        var bytes: [UInt8] = []
        var members: [Member] = []

        /// The type of the member named by the bytes `name`: a function or not.
        func type(of name: UnsafeBufferPointer<UInt8>, isFunction: Bool) -> String? {
            bytes.withUnsafeBufferPointer { bytes in
                for member in members
                where member.isFunction == isFunction && member.name.count == name.count
                    && sameBytes(UnsafeBufferPointer(rebasing: bytes[member.name]), name)
                {
                    return member.type
                }
                return nil
            }
        }
    }

    /// The index in `declarations` of the type named by the bytes `name`, if the catalog has it.
    static func index(ofType name: UnsafeBufferPointer<UInt8>) -> Int? {
        for index in declarations.indices where declarations[index].type.utf8CodeUnitCount == name.count {
            if declarations[index].type.withUTF8Buffer({ sameBytes($0, name) }) { return index }
        }
        return nil
    }

    /// The types read so far, by their index in `declarations`, shared by the worker threads.
    private static let read = Mutex<[Members?]>([Members?](repeating: nil, count: declarations.count))

    /// The members of `declarations[index]`, read from its text the first time they are asked for.
    static func members(ofTypeAt index: Int) -> Members {
        if let known = read.withLock({ $0[index] }) { return known }
        let members = readMembers(Array(declarations[index].text.utf8))
        read.withLock { $0[index] = members }
        return members
    }

    /// The cases and static members that `bytes` declares, for the one type it declares. Names are
    /// compared by their bytes: a String decoded from an array slice costs a run-time protocol
    /// conformance look-up.
    static func readMembers(_ bytes: [UInt8]) -> Members {
        let context = SourceContext(bytes: bytes, tree: Parser.parse(bytes, bodies: .skippingPlain))
        let tokens = context.tree.tokens
        var result = Members()
        bytes.withUnsafeBufferPointer { source in
            func name(_ token: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: source[tokens[token].range]) }
            for case .type(let type) in context.tree.items {
                let typeName = name(type.name.lower)
                let typeString = context.text(type.name.lower)
                func add(_ member: Int, isFunction: Bool, type memberType: String) {
                    let memberName = name(member)
                    let known = result.bytes.withUnsafeBufferPointer { bytes in
                        result.members.firstIndex {
                            $0.isFunction == isFunction && $0.name.count == memberName.count
                                && sameBytes(UnsafeBufferPointer(rebasing: bytes[$0.name]), memberName)
                        }
                    }
                    if let known {
                        // An overload: certain only if it has the same type.
                        if result.members[known].type != memberType { result.members[known].type = nil }
                        return
                    }
                    let start = result.bytes.count
                    result.bytes.append(contentsOf: memberName)
                    result.members.append(Member(name: start..<result.bytes.count, isFunction: isFunction, type: memberType))
                }
                // The type as written; the declaring type itself (nearly every member's) or `Self` is `typeString`.
                func written(_ span: TokenSpan) -> String {
                    if span.upper == span.lower + 1 && (sameBytes(name(span.lower), typeName) || context.token(span.lower, isSpelled: "Self")) {
                        return typeString
                    }
                    return context.text(span)
                }
                for item in type.members {
                    switch item {
                    case .other(let other) where other.kind == .enumCase && type.kind == .enum:
                        // A case with a payload is a function of its enum; none is declared here.
                        for member in other.names where tokens[member + 1].kind != .leftParen {
                            add(member, isFunction: false, type: typeString)
                        }
                    case .variable(let variable) where context.hasModifier(.static, in: variable.prefix):
                        guard let member = variable.bindings[0].name, let type = variable.bindings[0].type else { continue }
                        add(member, isFunction: false, type: written(type))
                    case .function(let function) where context.hasModifier(.static, in: function.prefix):
                        guard let member = function.name, let returnType = function.returnType else { continue }
                        add(member, isFunction: true, type: written(returnType))
                    default:
                        continue
                    }
                }
            }
        }
        return result
    }

    /// Every member, every type read (for tests).
    static var entries: [Key: (type: String?, framework: Framework)] {
        var entries: [Key: (type: String?, framework: Framework)] = [:]
        for index in declarations.indices {
            let members = members(ofTypeAt: index)
            let type = "\(declarations[index].type)"
            for member in members.members {
                let name = String(decoding: members.bytes[member.name], as: UTF8.self)
                entries[Key(type: type, name: name, isFunction: member.isFunction)] = (member.type, declarations[index].framework)
            }
        }
        return entries
    }
}

extension SourceContext {
    /// The type of `Type.member` or `Type.member(…)` (the tokens `type` and `member`) as the SDK
    /// declares it, when the built-in catalog has it, the file imports a module that makes the
    /// SDK's type visible, and the file declares nothing of that type's name (see
    /// `SDKStaticMemberCatalog`). Nil otherwise.
    func sdkStaticMemberType(type: Int, member: Int, isCall: Bool) -> String? {
        let tokens = tree.tokens
        return bytes.withUnsafeBufferPointer { bytes -> String? in
            let typeName = UnsafeBufferPointer(rebasing: bytes[tokens[type].range])
            guard let index = SDKStaticMemberCatalog.index(ofType: typeName),
                let memberType = SDKStaticMemberCatalog.members(ofTypeAt: index).type(
                    of: UnsafeBufferPointer(rebasing: bytes[tokens[member].range]), isFunction: isCall),
                seesSDKType(at: index, usedAt: type)
            else { return nil }
            return memberType
        }
    }

    /// Whether `name` (its bytes) is a type of the SDK catalog as this file sees it (imported, not
    /// declared by the file). Every such type is a `Sendable` value type without global-actor
    /// isolation, whose members in the catalog are not isolated either: each documentation page
    /// lists `Sendable` among its conformances (`CGFloat` as `Double`, whose protocols it has).
    /// So a property of that type leaves the memberwise init `nonisolated` (I-4), as does an
    /// initial value such as `Color.red` (I-3). Asked without reading the catalog's declarations.
    func isSDKValueType(named name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let index = SDKStaticMemberCatalog.index(ofType: name) else { return false }
        return seesSDKType(at: index)
    }

    /// Whether the file imports one of the modules of `declarations[index]`'s framework (the
    /// standard library's need none) where the token `usage` sees it (`imports(_:visibleAt:)`), and
    /// neither it nor another file of its module (when dewrap has them) declares a type of that name.
    private func seesSDKType(at index: Int, usedAt usage: Int? = nil) -> Bool {
        let declarations = SDKStaticMemberCatalog.declarations[index]
        let modules = declarations.framework.modules
        guard modules.isEmpty || modules.contains(where: { imports($0, visibleAt: usage) }) else { return false }
        let name = "\(declarations.type)"
        return !declarationIndex.declaresType(named: name, context: self) && moduleSources?.declaresType(named: name) != true
    }
}
