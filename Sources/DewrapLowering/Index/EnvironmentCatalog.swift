import DewrapSyntax

/// SwiftUI's `EnvironmentValues`, so that `@Environment(\.dismiss) var dismiss` (no annotation, the
/// usual way) has its certain type (SPEC Decision 5, revised): each property with the type Apple's
/// documentation gives it, kept as Swift declarations and read by the same parser as the input.
///
/// Source: the topic list of Apple's page for `EnvironmentValues`
/// (developer.apple.com/documentation/swiftui/environmentvalues, as mirrored in Markdown by the
/// repository Averyy/apple-dev-docs, `documentation/SwiftUI/environmentvalues.md`, read at commits
/// 18463ea5 and 2b67f464, which agree on every type), with the property pages
/// `documentation/SwiftUI/environmentvalues/<name>.md` read where a type's module was in doubt.
/// The topic list gives each property's name and type only: every one is declared `{ get }` here,
/// which is all `@Environment` reads (many are `{ get set }` in SwiftUI).
///
/// Left out:
/// - `realityKitScene: Scene?`: RealityKit's `Scene`, which in a file that sees SwiftUI is
///   ambiguous with SwiftUI's `Scene` protocol as written;
/// - `showSignificantUpdateAcknowledgment: SignificantUpdateAction`: no documentation found of
///   the module that declares `SignificantUpdateAction`, so the import its name needs is unknown.
///
/// Written in a lowered file, a type's name must resolve there. SwiftUI's own types do wherever
/// `@Environment` does, and so do Foundation's and CoreGraphics' (`Locale`, `CGFloat`), which
/// SwiftUI re-exports. A type declared by another framework (`ModelContext` is SwiftData's) is
/// used only in a file that imports that framework (`module`): in any other file the property is
/// left as written, as it is when the name is not here at all.
enum EnvironmentCatalog {
    /// Declarations whose types need the import of `module` (nil: none beyond SwiftUI).
    /// A struct, not a tuple: an array of tuples makes the run time build the tuple's type
    /// metadata on first use.
    struct Group: Sendable {
        var module: String?
        var text: String

        init(_ module: String?, _ text: String) {
            self.module = module
            self.text = text
        }
    }

    /// The declarations, grouped by the module whose import their types need.
    static let declarations: [Group] = [
        Group(
            nil,
            #"""
            extension EnvironmentValues {
                // MARK: Creating and accessing values
                public var description: String { get }

                // MARK: Accessibility
                public var accessibilityAssistiveAccessEnabled: Bool { get }
                public var accessibilityDimFlashingLights: Bool { get }
                public var accessibilityDifferentiateWithoutColor: Bool { get }
                public var accessibilityEnabled: Bool { get }
                public var accessibilityInvertColors: Bool { get }
                public var accessibilityLargeContentViewerEnabled: Bool { get }
                public var accessibilityPlayAnimatedImages: Bool { get }
                public var accessibilityPrefersHeadAnchorAlternative: Bool { get }
                public var accessibilityPrefersCrossFadeTransitions: Bool { get }
                public var accessibilityQuickActionsEnabled: Bool { get }
                public var accessibilityReduceMotion: Bool { get }
                public var accessibilityReduceTransparency: Bool { get }
                public var accessibilityShowButtonShapes: Bool { get }
                public var accessibilitySwitchControlEnabled: Bool { get }
                public var accessibilityVoiceOverEnabled: Bool { get }
                public var legibilityWeight: LegibilityWeight? { get }

                // MARK: Actions
                public var dismiss: DismissAction { get }
                public var dismissSearch: DismissSearchAction { get }
                public var dismissWindow: DismissWindowAction { get }
                public var openImmersiveSpace: OpenImmersiveSpaceAction { get }
                public var dismissImmersiveSpace: DismissImmersiveSpaceAction { get }
                public var newDocument: NewDocumentAction { get }
                public var openDocument: OpenDocumentAction { get }
                public var openURL: OpenURLAction { get }
                public var openWindow: OpenWindowAction { get }
                public var pushWindow: PushWindowAction { get }
                public var refresh: RefreshAction? { get }
                public var rename: RenameAction? { get }
                public var resetFocus: ResetFocusAction { get }
                public var openSettings: OpenSettingsAction { get }

                // MARK: Controls and input
                public var buttonRepeatBehavior: ButtonRepeatBehavior { get }
                public var controlSize: ControlSize { get }
                public var defaultWheelPickerItemHeight: CGFloat { get }
                public var keyboardShortcut: KeyboardShortcut? { get }
                public var menuIndicatorVisibility: Visibility { get }
                public var menuOrder: MenuOrder { get }
                public var searchSuggestionsPlacement: SearchSuggestionsPlacement { get }
                public var preferredPencilDoubleTapAction: PencilPreferredAction { get }
                public var preferredPencilSqueezeAction: PencilPreferredAction { get }

                // MARK: Display characteristics
                public var appearsActive: Bool { get }
                public var colorScheme: ColorScheme { get }
                public var colorSchemeContrast: ColorSchemeContrast { get }
                public var displayScale: CGFloat { get }
                public var horizontalSizeClass: UserInterfaceSizeClass? { get }
                public var imageScale: Image.Scale { get }
                public var pixelLength: CGFloat { get }
                public var sidebarRowSize: SidebarRowSize { get }
                public var verticalSizeClass: UserInterfaceSizeClass? { get }
                public var labelsVisibility: Visibility { get }
                public var materialActiveAppearance: MaterialActiveAppearance { get }
                public var toolbarLabelStyle: ToolbarLabelStyle? { get }

                // MARK: Global objects
                public var calendar: Calendar { get }
                public var documentConfiguration: DocumentConfiguration? { get }
                public var locale: Locale { get }
                public var timeZone: TimeZone { get }
                public var undoManager: UndoManager? { get }

                // MARK: Scrolling
                public var isScrollEnabled: Bool { get }
                public var horizontalScrollIndicatorVisibility: ScrollIndicatorVisibility { get }
                public var verticalScrollIndicatorVisibility: ScrollIndicatorVisibility { get }
                public var scrollDismissesKeyboardMode: ScrollDismissesKeyboardMode { get }
                public var horizontalScrollBounceBehavior: ScrollBounceBehavior { get }
                public var verticalScrollBounceBehavior: ScrollBounceBehavior { get }

                // MARK: State
                public var editMode: Binding<EditMode>? { get }
                public var isActivityFullscreen: Bool { get }
                public var isEnabled: Bool { get }
                public var isFocused: Bool { get }
                public var isFocusEffectEnabled: Bool { get }
                public var isHoverEffectEnabled: Bool { get }
                public var isLuminanceReduced: Bool { get }
                public var isPresented: Bool { get }
                public var isSceneCaptured: Bool { get }
                public var isSearching: Bool { get }
                public var isTabBarShowingSections: Bool { get }
                public var scenePhase: ScenePhase { get }
                public var supportsMultipleWindows: Bool { get }

                // MARK: Text styles
                public var allowsTightening: Bool { get }
                public var autocorrectionDisabled: Bool { get }
                public var dynamicTypeSize: DynamicTypeSize { get }
                public var font: Font? { get }
                public var layoutDirection: LayoutDirection { get }
                public var lineLimit: Int? { get }
                public var lineSpacing: CGFloat { get }
                public var minimumScaleFactor: CGFloat { get }
                public var multilineTextAlignment: TextAlignment { get }
                public var textCase: Text.Case? { get }
                public var textInputBorderShape: TextInputBorderShape { get }
                public var textSelectionAffinity: TextSelectionAffinity { get }
                public var truncationMode: Text.TruncationMode { get }

                // MARK: View attributes
                public var allowedDynamicRange: Image.DynamicRange? { get }
                public var backgroundMaterial: Material? { get }
                public var backgroundProminence: BackgroundProminence { get }
                public var backgroundStyle: AnyShapeStyle? { get }
                public var badgeProminence: BadgeProminence { get }
                public var contentTransition: ContentTransition { get }
                public var contentTransitionAddsDrawingGroup: Bool { get }
                public var defaultMinListHeaderHeight: CGFloat? { get }
                public var defaultMinListRowHeight: CGFloat { get }
                public var headerProminence: Prominence { get }
                public var physicalMetrics: PhysicalMetricsConverter { get }
                public var redactionReasons: RedactionReasons { get }
                public var springLoadingBehavior: SpringLoadingBehavior { get }
                public var symbolRenderingMode: SymbolRenderingMode? { get }
                public var symbolVariants: SymbolVariants { get }
                public var worldTrackingLimitations: Set<WorldTrackingLimitation> { get }

                // MARK: Widgets (their types SwiftUI's own)
                public var showsWidgetContainerBackground: Bool { get }
                public var showsWidgetLabel: Bool { get }
                public var widgetContentMargins: EdgeInsets { get }

                // MARK: Deprecated environment values
                public var disableAutocorrection: Bool? { get }
                public var sizeCategory: ContentSizeCategory { get }
                public var presentationMode: Binding<PresentationMode> { get }
                public var controlActiveState: ControlActiveState { get }

                // MARK: Instance properties
                public var accessibilityReduceHighlightingEffects: Bool { get }
                public var accessibilityShowBorders: Bool { get }
                public var buttonSizing: ButtonSizing { get }
                public var findContext: FindContext? { get }
                public var fontResolutionContext: Font.Context { get }
                public var isActivityUpdateReduced: Bool { get }
                public var isDynamicIslandLimitedInWidth: Bool { get }
                public var isTabViewSidebarAvailable: Bool { get }
                public var isUserAuthenticationEnabled: Bool { get }
                public var labelIconToTitleSpacing: CGFloat? { get }
                public var labelReservedIconWidth: CGFloat? { get }
                public var lineHeight: AttributedString.LineHeight? { get }
                public var navigationLinkIndicatorVisibility: Visibility { get }
                public var remoteDeviceIdentifier: RemoteDeviceIdentifier? { get }
                public var supportsImagePlayground: Bool { get }
                public var supportsRemoteScenes: Bool { get }
                public var surfaceSnappingInfo: SurfaceSnappingInfo { get }
                public var symbolColorRenderingMode: SymbolColorRenderingMode? { get }
                public var symbolVariableValueMode: SymbolVariableValueMode? { get }
                public var tabBarPlacement: TabBarPlacement? { get }
                public var tabViewBottomAccessoryPlacement: TabViewBottomAccessoryPlacement? { get }
                public var windowClippingMargins: EdgeInsets3D { get }
                public var writingToolsBehavior: WritingToolsBehavior? { get }
            }
            """#),
        // The types below are other frameworks' (their own documentation pages name the framework).
        Group(
            "AuthenticationServices",
            #"""
            extension EnvironmentValues {
                public var authorizationController: AuthorizationController { get }
                public var webAuthenticationSession: WebAuthenticationSession { get }
                public var credentialDataManager: CredentialDataManager { get }
                public var credentialExportManager: ASCredentialExportManager { get }
                public var credentialImportManager: ASCredentialImportManager { get }
                public var deliveredVerificationCodesManager: DeliveredVerificationCodesManager { get }
            }
            """#),
        Group(
            "ClockKit",
            #"""
            extension EnvironmentValues {
                public var complicationRenderingMode: ComplicationRenderingMode { get }
            }
            """#),
        Group(
            "CoreData",
            #"""
            extension EnvironmentValues {
                public var managedObjectContext: NSManagedObjectContext { get }
            }
            """#),
        Group(
            "DeclaredAgeRange",
            #"""
            extension EnvironmentValues {
                public var requestAgeRange: DeclaredAgeRangeAction { get }
            }
            """#),
        Group(
            "DeviceDiscoveryUI",
            #"""
            extension EnvironmentValues {
                public var devicePickerSupports: DevicePickerSupportedAction { get }
            }
            """#),
        Group(
            "ImagePlayground",
            #"""
            extension EnvironmentValues {
                public var imagePlaygroundAllowedGenerationStyles: [ImagePlaygroundStyle] { get }
                public var imagePlaygroundOptions: ImagePlaygroundOptions { get }
                public var imagePlaygroundPersonalizationPolicy: ImagePlaygroundPersonalizationPolicy { get }
                public var imagePlaygroundSelectedGenerationStyle: ImagePlaygroundStyle { get }
            }
            """#),
        Group(
            "MarketplaceKit",
            #"""
            extension EnvironmentValues {
                public var requestAppDeletion: RequestAppDeletionAction { get }
            }
            """#),
        Group(
            "PermissionKit",
            #"""
            extension EnvironmentValues {
                public var askPermission: AskPermissionAction { get }
            }
            """#),
        Group(
            "RealityKit",
            #"""
            extension EnvironmentValues {
                public var realityViewCameraControls: CameraControls { get }
            }
            """#),
        Group(
            "Spatial",
            #"""
            extension EnvironmentValues {
                public var immersiveSpaceDisplacement: Pose3D { get }
            }
            """#),
        Group(
            "StoreKit",
            #"""
            extension EnvironmentValues {
                public var purchase: PurchaseAction { get }
                public var displayStoreKitMessage: DisplayMessageAction { get }
                public var requestReview: RequestReviewAction { get }
            }
            """#),
        Group(
            "SwiftData",
            #"""
            extension EnvironmentValues {
                public var modelContext: ModelContext { get }
            }
            """#),
        Group(
            "WidgetKit",
            #"""
            extension EnvironmentValues {
                public var widgetFamily: WidgetFamily { get }
                public var widgetRenderingMode: WidgetRenderingMode { get }
                public var activityFamily: ActivityFamily { get }
                public var supportedActivityFamilies: Set<ActivityFamily> { get }
                public var levelOfDetail: LevelOfDetail { get }
            }
            """#),
    ]

    /// One property: its type as declared, and the module a file must import to name it.
    struct Entry: Sendable {
        var type: String
        var module: String?
    }

    /// The properties: their names, and what is known of each by its index there. Found by a
    /// walk over the names' bytes (a lowering asks once for each `@Environment(\.x)` without a
    /// type): a hash table here would be one more caller of `NameSet`'s probe, which the
    /// optimizer then stops inlining into lowering's hot paths, and comparing Strings costs more
    /// than comparing bytes.
    struct Table: Sendable {
        /// The names' bytes, one after another; `ends[i]` is where name `i` ends.
        var bytes: [UInt8] = []
        var ends: [Int] = []
        var entries: [Entry] = []

        var names: [String] {
            ends.indices.map { String(decoding: bytes[($0 == 0 ? 0 : ends[$0 - 1])..<ends[$0]], as: UTF8.self) }
        }

        func entry(named name: UnsafeBufferPointer<UInt8>) -> Entry? {
            bytes.withUnsafeBufferPointer { bytes in
                var start = 0
                for (index, end) in ends.enumerated() {
                    if end - start == name.count && sameBytes(UnsafeBufferPointer(rebasing: bytes[start..<end]), name) {
                        return entries[index]
                    }
                    start = end
                }
                return nil
            }
        }

        func entry(named name: String) -> Entry? {
            var name = name
            return name.withUTF8 { entry(named: $0) }
        }
    }

    /// Read from `declarations` the first time a property is asked for (a `static let` is
    /// initialized once, on first use, whichever thread asks): a file that never names
    /// `@Environment(\.x)` without a type does not read the catalog. The groups are read as one
    /// text, one parse, each member's group found by where it lies. (A test checks that no name
    /// is declared twice.)
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
        let members = environmentValuesMembers(in: context)
        var table = Table()
        table.bytes.reserveCapacity(32 * members.count)
        table.ends.reserveCapacity(members.count)
        table.entries.reserveCapacity(members.count)
        var group = 0
        for member in members {
            let range = context.tree.tokens[member.name].range
            while groupEnds[group] <= range.lowerBound { group += 1 }
            table.bytes += bytes[range]
            table.ends.append(table.bytes.count)
            // Written as `typeText` writes types (a test checks it): taken as it is.
            table.entries.append(Entry(type: context.text(member.type), module: declarations[group].module))
        }
        return table
    }()

    /// Every property by name (for tests).
    static var entries: [String: Entry] {
        Dictionary(zip(table.names, table.entries)) { first, _ in first }
    }
}

/// The type SwiftUI's `EnvironmentValues.name` has as Apple documents it (`DismissAction` for
/// `dismiss`), or nil when the built-in catalog does not have it. A type from a framework other
/// than SwiftUI (`ModelContext`) is written in a lowering only where the file imports that framework.
public func environmentValueType(named name: String) -> String? {
    EnvironmentCatalog.table.entry(named: name)?.type
}

/// A property of `EnvironmentValues` that a file declares: its name token and its type.
struct EnvironmentMember {
    var name: Int
    /// The written type, or an `@Entry`'s value (element-x-ios' `@Entry var isInSidebar = false`).
    var type: TokenSpan
    /// The value's type, for an `@Entry` without a written type.
    var valueType: String?

    /// The type as `typeText` writes it.
    func typeText(in context: SourceContext) -> String {
        valueType ?? DewrapLowering.typeText(typeTokens(context.text(type)))
    }
}

/// The instance properties that the top-level `extension EnvironmentValues` blocks of a parsed
/// file declare with a written type (in any `#if` branch), in order: a computed one (`var name: T
/// { … }`) or one made by the `@Entry` macro (`@Entry var name: T = …`, or `@Entry var name = 1`,
/// whose type is its literal's, or `@Entry var name = T(…)` of a type `T` the file declares:
/// `entryConstructionType`; another value is not read). A stored property without `@Entry` cannot
/// be declared in an extension and is not one. `moduleConstructions`, for a file read as one of the
/// module's (its context has no module): the module's uncertain constructions, asked only for a `T(…)`.
func environmentValuesMembers(
    in context: SourceContext, moduleConstructions: (() -> UncertainConstructions)? = nil
) -> [EnvironmentMember] {
    var members: [EnvironmentMember] = []
    func visitMembers(_ items: SyntaxList<Item>) {
        for item in items {
            switch item {
            case .variable(let variable):
                guard context.word(variable.keyword) == .var, variable.bindings.count == 1,
                    !context.isStatic(variable.prefix), let name = variable.bindings[0].name
                else { continue }
                let isComputed: Bool
                switch variable.bindings[0].accessors?.content {
                case nil: isComputed = false
                case .getter: isComputed = true
                case .accessors(let list):
                    isComputed = !list.allSatisfy { context.word($0.keyword) == .willSet || context.word($0.keyword) == .didSet }
                }
                let isEntry = variable.prefix.attributes.contains { context.span($0.name, isSpelled: "Entry") }
                guard isComputed || isEntry && variable.bindings[0].accessors == nil else { continue }
                if let type = variable.bindings[0].type {
                    members.append(EnvironmentMember(name: name, type: type))
                } else if isEntry, let value = variable.bindings[0].initializer,
                    let type = context.literalType(value) ?? context.entryConstructionType(value, moduleConstructions: moduleConstructions)
                {
                    members.append(EnvironmentMember(name: name, type: value, valueType: type))
                }
            case .ifConfig(let ifConfig):
                for clause in ifConfig.clauses { visitMembers(clause.items) }
            default:
                continue
            }
        }
    }
    func visit(_ items: SyntaxList<Item>) {
        for item in items {
            switch item {
            case .type(let type) where type.kind == .extension:
                guard context.span(type.name, isSpelled: "EnvironmentValues") || context.span(type.name, isSpelled: "SwiftUI.EnvironmentValues")
                else { continue }
                visitMembers(type.members)
            case .ifConfig(let ifConfig):
                for clause in ifConfig.clauses { visit(clause.items) }
            default:
                continue
            }
        }
    }
    visit(context.tree.items)
    return members
}

extension SourceContext {
    /// The type of `EnvironmentValues.name` for `@Environment(\.name)` (SPEC Decision 5, revised):
    /// from this file's own `extension EnvironmentValues` declarations when it has any of that name
    /// (all of one type, or none is certain), else from the built-in catalog when the file can
    /// name the catalog's type (it imports the type's framework, if that is not SwiftUI).
    func environmentValueType(named name: String, usedAt usage: Int? = nil) -> String? {
        var declared: String?
        for member in environmentValuesMembers(in: self) where text(member.name) == name {
            let type = member.typeText(in: self)
            guard declared == nil || declared == type else { return nil }
            declared = type
        }
        if let declared { return declared }
        // Declared in another file of the module (the same rule: all of one type).
        if let elsewhere = moduleSources?.environmentValue(name) { return elsewhere }
        guard let entry = EnvironmentCatalog.table.entry(named: name) else { return nil }
        if let module = entry.module, !imports(module, visibleAt: usage) { return nil }
        return entry.type
    }

    /// Whether the file imports `module` (or one of its declarations) where the token `usage` sees it:
    /// at its top level outside any `#if`, or in a `#if` branch that holds `usage` too (a file wrapped
    /// whole in `#if os(iOS)` with its imports inside: where the branch is not compiled, neither is
    /// the use). Without `usage`, outside any `#if` only; `inAnyBranch`, in any branch at all.
    func imports(_ module: String, visibleAt usage: Int? = nil, inAnyBranch: Bool = false) -> Bool {
        func imports(in items: SyntaxList<Item>) -> Bool {
            items.contains { item in
                switch item {
                case .other(let declaration) where declaration.kind == .import:
                    var first = declaration.keyword + 1
                    guard first < declaration.span.upper else { return false }
                    switch word(first) {
                    case .struct, .class, .enum, .protocol, .typealias, .var, .let, .func, .actor: first += 1
                    default: break
                    }
                    return first < declaration.span.upper && text(first) == module
                case .ifConfig(let ifConfig):
                    if inAnyBranch { return ifConfig.clauses.contains { imports(in: $0.items) } }
                    guard let usage, ifConfig.span.lower <= usage, usage < ifConfig.span.upper else { return false }
                    // The branch from its `#if`, `#elseif` or `#else` to the next one (or `#endif`).
                    let clauses = Array(ifConfig.clauses)
                    for (index, clause) in clauses.enumerated() {
                        let end = index + 1 < clauses.count ? clauses[index + 1].keyword : ifConfig.endif ?? ifConfig.span.upper
                        if clause.keyword <= usage && usage < end { return imports(in: clause.items) }
                    }
                    return false
                default:
                    return false
                }
            }
        }
        return imports(in: tree.items)
    }
}
