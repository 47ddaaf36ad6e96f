import DewrapSyntax
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a file can hold anything to lower. Every rewrite starts at a
/// property-wrapper attribute, and a wrapper is a type; an attribute the
/// compiler itself defines (`@available`, `@inlinable`, `@MainActor`, …) never
/// names one. A file whose attributes are all of that kind comes back
/// unchanged, so it is only lexed, not parsed: most library code is like that.
func mayUseWrappers(_ tokens: [Token], in source: [UInt8]) -> Bool {
    var i = 0
    while i + 1 < tokens.count {
        if tokens[i].kind == .atSign, tokens[i + 1].kind == .identifier || tokens[i + 1].kind == .keyword {
            let name = tokens[i + 1].range
            let known = source.withUnsafeBufferPointer { compilerAttributes.contains(UnsafeBufferPointer(rebasing: $0[name])) }
            if !known { return true }
        }
        i += 1
    }
    return false
}

/// A look at the raw bytes before any lexing: every wrapper attribute is an
/// `@` and a name, so a file whose `@`s (in code, comments and strings alike)
/// are all followed by compiler attribute names has nothing to lower and need
/// not even be lexed. Anything unusual after an `@` (a space, a backtick, a
/// non-ASCII name) answers yes and leaves the decision to the lexer.
func mayHaveWrapperAttribute(_ source: [UInt8]) -> Bool {
    source.withUnsafeBufferPointer { bytes in
        guard let base = bytes.baseAddress else { return false }
        // The `@`s found with `memchr`, which reads many bytes an instruction: most of a file has none.
        var from = 0
        while from < bytes.count, let hit = memchr(base + from, Int32(UInt8(ascii: "@")), bytes.count - from) {
            let i = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            var end = i + 1
            while end < bytes.count && isASCIINameByte(bytes[end]) { end += 1 }
            if end == i + 1 || (end < bytes.count && bytes[end] >= 0x80) { return true }
            if !compilerAttributes.contains(UnsafeBufferPointer(rebasing: bytes[(i + 1)..<end])) {
                return true
            }
            from = end
        }
        return false
    }
}

/// An ASCII letter, digit or `_`.
@inline(__always)
func isASCIINameByte(_ b: UInt8) -> Bool {
    b == UInt8(ascii: "_") || (b | 0x20) &- UInt8(ascii: "a") < 26 || b &- UInt8(ascii: "0") < 10
}

/// A byte that can be part of a name, for the byte scans that look for whole words: an ASCII
/// letter, digit or `_`, or any byte of a non-ASCII character (which a name may hold).
@inline(__always)
public func isNameByte(_ b: UInt8) -> Bool {
    isASCIINameByte(b) || b >= 0x80
}

/// A byte that can start a name in type text: an ASCII letter or `_`, or any
/// non-ASCII byte (lowering leaves Unicode classes to the lexer).
@inline(__always)
func startsName(_ b: UInt8) -> Bool {
    b >= 0x80 || b.isASCIIIdentifierStart
}

/// Whether `name` is an attribute the language defines, never a wrapper.
func isCompilerAttribute(_ name: String) -> Bool {
    compilerAttributes.contains(name)
}

/// Attribute names that belong to the language (Swift's `Attr.def`,
/// `TypeAttr.def`, and the standard global actor), not to a type a file could
/// declare as a property wrapper. Looked up by bytes: no String made for a
/// name in the source, and made without hashing two hundred Strings (as a
/// `Set<String>` of them would, in every process).
private let compilerAttributes: NameSet = {
    var set = NameSet(capacity: compilerAttributeNames.count)
    for name in compilerAttributeNames { _ = name.withUTF8Buffer { set.insert($0) } }
    return set
}()

private let compilerAttributeNames: [StaticString] = [
    "available", "backDeployed", "_backDeploy", "objc", "nonobjc", "objcMembers", "_objcImplementation",
    "objcImplementation", "_objcRuntimeName", "inlinable", "usableFromInline", "_alwaysEmitIntoClient",
    "inline", "_transparent", "_spi", "_spi_available", "_implementationOnly", "_exported", "testable",
    "frozen", "_fixed_layout", "discardableResult", "dynamicMemberLookup", "dynamicCallable", "main",
    "propertyWrapper", "resultBuilder", "globalActor", "preconcurrency", "unchecked", "retroactive",
    "_silgen_name", "_cdecl", "_expose", "_extern", "_section", "_used", "_semantics", "_effects",
    "_specialize", "specialized", "_optimize", "_disfavoredOverload", "_dynamicReplacement",
    "_implements", "derivative", "differentiable", "noDerivative", "transpose", "_originallyDefinedIn",
    "warn_unqualified_access", "_unavailableFromAsync", "_nonSendable", "_marker", "_typeEraser",
    "_hasMissingDesignatedInitializers", "_inheritsConvenienceInitializers", "_unsafeInheritExecutor",
    "_documentation", "_spiOnly", "_weakLinked", "_borrowed", "_noImplicitCopy", "_eagerMove",
    "_noEagerMove", "_lexicalLifetimes", "_noLocks", "_noAllocation", "_noRuntime", "_noExistentials",
    "_noObjCBridging", "_nonoverride", "_private", "_custom", "_show_in_interface", "_staticExclusiveOnly",
    "_rawLayout", "_alignment", "_allowFeatureSuppression", "_preInverseGenerics", "_nonescapable",
    "_unsafeNonescapableResult", "_lifetime", "lifetime", "storageRestrictions", "attached", "freestanding",
    "exclusivity", "_compilerInitialized", "_hasStorage", "_alwaysEmitConformanceMetadata",
    "_objc_non_lazy_realization", "_clangImporterSynthesizedType", "_restatedObjCConformance",
    "_staticInitializeObjCMetadata", "_projectedValueProperty", "extractConstantsFromMembers",
    "requires_stored_property_inits", "unsafe_no_objc_tagged_pointer", "LLDBDebuggerFunction",
    "NSCopying", "NSManaged", "IBAction", "IBOutlet", "IBInspectable", "IBDesignable", "IBSegueAction",
    "GKInspectable", "UIApplicationMain", "NSApplicationMain", "safe", "unsafe", "abi", "export",
    "concurrent", "execution", "isolated", "nonisolated", "_local", "_moveOnly", "_typeSequence",
    // Type attributes.
    "escaping", "autoclosure", "convention", "noescape", "Sendable", "thin", "thick", "thin_to_thick",
    "_opaqueReturnTypeOf", "opened", "pack_element", "differentiable", "noDerivative", "_noMetadata",
    "in_guaranteed", "inout", "inout_aliasable", "in", "in_constant", "owned", "guaranteed", "unowned",
    "callee_owned", "callee_guaranteed", "yields", "error", "error_indirect", "error_unowned", "out",
    "unknown", "MainActor",
]

/// Whether `text` holds the bytes of `part` anywhere: its first byte found by `memchr`,
/// which reads many bytes an instruction, then the rest compared. The one substring
/// search of the byte scans (a file for `@propertyWrapper`, a type's text for `Self`).
public func bytes(_ text: UnsafeBufferPointer<UInt8>, contain part: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = part.first else { return true }
    guard let base = text.baseAddress, let partBase = part.baseAddress else { return false }
    var from = 0
    while from + part.count <= text.count, let hit = memchr(base + from, Int32(first), text.count - from) {
        let index = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        guard index + part.count <= text.count else { return false }
        if memcmp(base + index, partBase, part.count) == 0 { return true }
        from = index + 1
    }
    return false
}

/// `bytes(_:contain:)` of an array's bytes and a String's.
public func bytes(_ text: [UInt8], contain part: String) -> Bool {
    var part = part
    return part.withUTF8 { part in text.withUnsafeBufferPointer { bytes($0, contain: part) } }
}
