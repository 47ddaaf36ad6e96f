import DewrapSyntax

/// The static members and enum cases of SDK value types that apps use as initial values
/// (`@State private var size = CGSize.zero`, `= Color.red`, `= EditMode.inactive`, `= Date.now`,
/// `= Angle.degrees(90)`), so that such a property has its certain type (SPEC Decision 5, revised):
/// each member with the type Apple's documentation declares, kept as Swift declarations and read by
/// the same parser as the input, once per process, the first time a file asks.
///
/// Sources: the pages of Apple's documentation as mirrored in Markdown by the repository
/// Averyy/apple-dev-docs (developer.apple.com/documentation/…), read at commits 2b67f464,
/// 18463ea5, 011eba44 and bef8048e:
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
/// top level and outside `#if`, one of the modules of its group (none for the standard library's):
/// SwiftUI's types need `SwiftUI`; Core Graphics' `CoreGraphics` or a module that re-exports them
/// (`Foundation`, `SwiftUI`, `UIKit`, `AppKit`); `Date` needs `Foundation`, `FoundationEssentials`
/// or one of `SwiftUI`, `UIKit`, `AppKit`, which re-export Foundation. And never when the file
/// declares a type, typealias, associated type or generic parameter of that name anywhere
/// (`DeclarationIndex.declaresType(named:context:)`), or the file's own extension declares the member.
/// A type of that name in another file of the module would shadow the SDK's too; dewrap does not see
/// those files (SPEC Decision 5's "other files of the module" are not read yet).
enum SDKStaticMemberCatalog {
    /// Declarations whose types a file names through one of `modules`. A struct, not a tuple: an
    /// array of tuples makes the run time build the tuple's type metadata on first use.
    struct Group: Sendable {
        /// Any one of them imported makes the types' names resolve to the SDK's (empty: the
        /// standard library's, seen everywhere).
        var modules: [String]
        var text: String

        init(_ modules: [String], _ text: String) {
            self.modules = modules
            self.text = text
        }
    }

    /// The declarations, grouped by the imports their types need. A type is declared in one group
    /// only (a test checks it), as an `enum` with its cases or an `extension` with static members.
    static let declarations: [Group] = [
        Group(["SwiftUI"], #"""
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
            extension HorizontalAlignment {
                public static let leading: HorizontalAlignment
                public static let center: HorizontalAlignment
                public static let trailing: HorizontalAlignment
                public static let listRowSeparatorLeading: HorizontalAlignment
                public static let listRowSeparatorTrailing: HorizontalAlignment
            }
            extension VerticalAlignment {
                public static let top: VerticalAlignment
                public static let center: VerticalAlignment
                public static let bottom: VerticalAlignment
                public static let firstTextBaseline: VerticalAlignment
                public static let lastTextBaseline: VerticalAlignment
            }
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
            extension Angle {
                public static var zero: Angle { get }
                public static func degrees(_ degrees: Double) -> Angle
                public static func radians(_ radians: Double) -> Angle
            }
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
            extension NavigationSplitViewVisibility {
                public static var automatic: NavigationSplitViewVisibility { get }
                public static var all: NavigationSplitViewVisibility { get }
                public static var doubleColumn: NavigationSplitViewVisibility { get }
                public static var detailOnly: NavigationSplitViewVisibility { get }
            }
            extension PresentationDetent {
                public static let large: PresentationDetent
                public static let medium: PresentationDetent
                public static func custom<D>(_ type: D.Type) -> PresentationDetent where D: CustomPresentationDetent
                public static func fraction(_ fraction: CGFloat) -> PresentationDetent
                public static func height(_ height: CGFloat) -> PresentationDetent
            }
            public enum EditMode {
                case active
                case inactive
                case transient
            }
            public enum ColorScheme {
                case light
                case dark
            }
            public enum ScenePhase {
                case active
                case inactive
                case background
            }
            public enum UserInterfaceSizeClass {
                case compact
                case regular
            }
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
            public enum ControlSize {
                case mini
                case small
                case regular
                case large
                case extraLarge
            }
            public enum LayoutDirection {
                case leftToRight
                case rightToLeft
            }
            public enum TextAlignment {
                case center
                case leading
                case trailing
            }
            public enum Axis {
                case horizontal
                case vertical
            }
            public enum Edge {
                case top
                case bottom
                case leading
                case trailing
            }
            public enum Visibility {
                case automatic
                case visible
                case hidden
            }
            public enum ContentMode {
                case fill
                case fit
            }
            """#),
        Group(["CoreGraphics", "Foundation", "SwiftUI", "UIKit", "AppKit"], #"""
            extension CGSize {
                public static var zero: CGSize { get }
            }
            extension CGPoint {
                public static var zero: CGPoint { get }
            }
            extension CGRect {
                public static var infinite: CGRect { get }
                public static var null: CGRect { get }
                public static var zero: CGRect { get }
            }
            extension CGFloat {
                public static var zero: Self { get }
                public static var pi: Self { get }
                public static var infinity: Self { get }
                public static var greatestFiniteMagnitude: Self { get }
            }
            """#),
        Group(["Foundation", "FoundationEssentials", "SwiftUI", "UIKit", "AppKit"], #"""
            extension Date {
                public static var now: Date { get }
                public static let distantFuture: Date
                public static let distantPast: Date
            }
            """#),
        Group([], #"""
            extension Int {
                public static var zero: Self { get }
                public static var max: Self { get }
                public static var min: Self { get }
            }
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

    /// What a member is: its type (nil where two declarations disagree), and its group by index
    /// in `declarations`, whose modules a file must import one of.
    struct Entry: Sendable {
        var type: String?
        var group: Int
    }

    /// A type: its name in `Table.bytes`, its members in `Table.members`, and its group.
    struct TypeRow: Sendable {
        var name: Range<Int>
        var members: Range<Int>
        var group: Int
    }

    /// A member: its name in `Table.bytes`, whether it is a function, and what it is.
    struct MemberRow: Sendable {
        var name: Range<Int>
        var isFunction: Bool
        var entry: Entry
    }

    /// The members, found by the bytes of the names a file writes: a walk over plain lists (a
    /// lowering asks once per initial value `T.member` whose `T` the file does not declare).
    /// Rows are structs, not tuples, for the reason `Group` is.
    struct Table: Sendable {
        /// The types' and members' names, one after another.
        var bytes: [UInt8] = []
        var types: [TypeRow] = []
        var members: [MemberRow] = []

        func entry(type: UnsafeBufferPointer<UInt8>, member: UnsafeBufferPointer<UInt8>, isFunction: Bool) -> Entry? {
            bytes.withUnsafeBufferPointer { bytes in
                func matches(_ range: Range<Int>, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
                    range.count == name.count && sameBytes(UnsafeBufferPointer(rebasing: bytes[range]), name)
                }
                for row in types where matches(row.name, type) {
                    for index in row.members {
                        let candidate = members[index]
                        if candidate.isFunction == isFunction && matches(candidate.name, member) { return candidate.entry }
                    }
                    return nil
                }
                return nil
            }
        }

        /// The group of the type named by the bytes `type`, if the catalog declares it.
        func group(ofType type: UnsafeBufferPointer<UInt8>) -> Int? {
            bytes.withUnsafeBufferPointer { bytes in
                types.first { $0.name.count == type.count && sameBytes(UnsafeBufferPointer(rebasing: bytes[$0.name]), type) }?.group
            }
        }
    }

    /// Read from `declarations` the first time a member is asked for (a `static let` is
    /// initialized once, on first use, whichever thread asks): a file whose initial values name no
    /// `T.member` of a type it does not declare never reads it. The groups are read as one text,
    /// one parse, each declaration's group found by where it lies.
    static let table: Table = {
        var text = ""
        var groupEnds: [Int] = []
        for group in declarations {
            text += group.text
            text += "\n"
            groupEnds.append(text.utf8.count)
        }
        let bytes = Array(text.utf8)
        let context = SourceContext(bytes: bytes, tree: Parser.parse(bytes, bodies: .skippingPlain))
        var table = Table()
        var group = 0
        for case .type(let type) in context.tree.items {
            while groupEnds[group] <= context.tree.tokens[type.keyword].start { group += 1 }
            let typeName = context.text(type.name)
            // A type declared twice (an enum and an extension of it) adds to its row, which is last.
            if table.types.last.map({ String(decoding: table.bytes[$0.name], as: UTF8.self) }) != typeName {
                let start = table.bytes.count
                table.bytes += bytes[context.tree.tokens[type.name.lower].range]
                table.types.append(TypeRow(name: start..<table.bytes.count, members: table.members.count..<table.members.count, group: group))
            }
            func add(_ name: Int, isFunction: Bool, type memberType: String) {
                let memberName = context.text(name)
                let row = table.types.count - 1
                for index in table.types[row].members where table.members[index].isFunction == isFunction
                    && String(decoding: table.bytes[table.members[index].name], as: UTF8.self) == memberName {
                    // An overload: certain only if it has the same type.
                    if table.members[index].entry.type != memberType { table.members[index].entry.type = nil }
                    return
                }
                let start = table.bytes.count
                table.bytes += bytes[context.tree.tokens[name].range]
                table.members.append(MemberRow(name: start..<table.bytes.count, isFunction: isFunction, entry: Entry(type: memberType, group: group)))
                table.types[row].members = table.types[row].members.lowerBound..<table.members.count
            }
            func written(_ span: TokenSpan) -> String {
                let written = context.text(span)
                return written == "Self" ? typeName : written
            }
            for item in type.body?.items ?? [] {
                switch item {
                case .other(let other) where other.kind == .enumCase && type.kind == .enum:
                    // A case with a payload is a function of its enum; none is declared here.
                    for name in other.names where context.tree.tokens[name + 1].kind != .leftParen {
                        add(name, isFunction: false, type: typeName)
                    }
                case .variable(let variable) where context.hasModifier(.static, in: variable.prefix):
                    guard let name = variable.bindings[0].name, let type = variable.bindings[0].type else { continue }
                    add(name, isFunction: false, type: written(type))
                case .function(let function) where context.hasModifier(.static, in: function.prefix):
                    guard let name = function.name, let returnType = function.returnType else { continue }
                    add(name, isFunction: true, type: written(returnType))
                default:
                    continue
                }
            }
        }
        return table
    }()

    /// Every member (for tests).
    static var entries: [Key: Entry] {
        var entries: [Key: Entry] = [:]
        for row in table.types {
            let type = String(decoding: table.bytes[row.name], as: UTF8.self)
            for index in row.members {
                let member = table.members[index]
                entries[Key(type: type, name: String(decoding: table.bytes[member.name], as: UTF8.self), isFunction: member.isFunction)] = member.entry
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
        let entry = bytes.withUnsafeBufferPointer { bytes in
            SDKStaticMemberCatalog.table.entry(
                type: UnsafeBufferPointer(rebasing: bytes[tokens[type].range]),
                member: UnsafeBufferPointer(rebasing: bytes[tokens[member].range]), isFunction: isCall)
        }
        guard let entry, let memberType = entry.type, seesSDKType(named: text(type), group: entry.group) else { return nil }
        return memberType
    }

    /// Whether `name` (its bytes) is a type of the SDK catalog as this file sees it (imported, not
    /// declared by the file). Every such type is a `Sendable` value type without global-actor
    /// isolation, whose members in the catalog are not isolated either: each documentation page
    /// lists `Sendable` among its conformances (`CGFloat` as `Double`, whose protocols it has).
    /// So a property of that type leaves the memberwise init `nonisolated` (I-4), as does an
    /// initial value such as `Color.red` (I-3).
    func isSDKValueType(named name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let group = SDKStaticMemberCatalog.table.group(ofType: name) else { return false }
        return seesSDKType(named: String(decoding: name, as: UTF8.self), group: group)
    }

    /// Whether the file imports one of `group`'s modules (the standard library's group needs none)
    /// and declares no type of the name `name` itself.
    private func seesSDKType(named name: String, group: Int) -> Bool {
        let modules = SDKStaticMemberCatalog.declarations[group].modules
        guard modules.isEmpty || modules.contains(where: { imports($0) }) else { return false }
        return !declarationIndex.declaresType(named: name, context: self)
    }
}
