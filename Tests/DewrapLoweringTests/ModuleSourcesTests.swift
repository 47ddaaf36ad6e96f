import DewrapSyntax
import Foundation
import Testing

@testable import DewrapLowering

/// `ModuleSources` reads the module's declarations from the files that spell what is asked: every
/// answer must be the one all the files read at once give (`ModuleDeclarations(reading:)`), for
/// every name the module declares, in any order of questions. The module is this repository's
/// fixtures and sources (hundreds of files that declare the same names: `ContentView`, `body`,
/// `shared`, cases of enums of one name).
struct ModuleSourcesTests {
    static let sources: [[UInt8]] = ModuleDeclarationsParsingTests.files.compactMap { try? [UInt8](Data(contentsOf: $0)) }

    /// A question's label, and its answer from either side as text.
    typealias Question = (label: String, answer: (any ModuleQuestions) -> String)

    /// Every question the declarations of `all` can answer, and a few about names no file declares.
    static func questions(_ all: ModuleDeclarations) -> [Question] {
        var questions: [Question] = []
        var typeNames: Set<String> = ["NoSuchType", "Store"]
        var cases: [String: Set<String>] = [:]
        var values: [String: Set<String>] = [:]
        var functions: [String: Set<String>] = [:]
        var instanceValues: [String: Set<String>] = [:]
        var environmentNames: Set<String> = ["noSuchKey"]
        for file in all.files {
            let index = file.context.declarationIndex
            typeNames.formUnion(index.types.keys)
            typeNames.formUnion(index.otherTypeNames)
            for (owner, members) in index.cases { cases[owner, default: ["noSuchCase"]].formUnion(members.keys) }
            for member in index.values.members { values[member.owner, default: []].insert(member.name) }
            for member in index.functions.members { functions[member.owner, default: []].insert(member.name) }
            for member in index.instanceValues.members {
                instanceValues[member.owner, default: ["noSuchMember"]].insert(member.name)
            }
            for member in environmentValuesMembers(in: file.context) { environmentNames.insert(file.context.text(member.name)) }
        }
        for name in typeNames {
            questions.append(("type \(name)", { "\($0.type(named: name) as Any)" }))
            questions.append(("declares \(name)", { "\($0.declaresType(named: name))" }))
            questions.append(("declares own \(name)", { "\($0.declaresOwnTypeOrAlias(named: name))" }))
            questions.append(("result builder \(name)", { "\($0.isResultBuilder(named: name))" }))
            questions.append(("supertypes \(name)", { "\($0.supertypes(ofType: name) as Any)" }))
            questions.append(("alias \(name)", { "\($0.aliasTargetText(name) as Any)" }))
            questions.append(("static subscript \(name)", { "\($0.staticSubscript(of: name) as Any)" }))
        }
        for (owner, names) in cases {
            for name in names { questions.append(("case \(owner).\(name)", { "\($0.enumCase(name, of: owner) as Any)" })) }
        }
        for (owner, names) in values {
            for name in names {
                questions.append(("value \(owner).\(name)", { "\($0.value(name, of: owner) as Any)" }))
                questions.append(("static \(name)", { "\($0.declaresStaticMember(named: name))" }))
                questions.append(("owners \(name)", { "\($0.staticValueOwners(named: name).sorted())" }))
            }
        }
        for (owner, names) in functions {
            for name in names { questions.append(("function \(owner).\(name)", { "\($0.function(name, of: owner) as Any)" })) }
        }
        for (owner, names) in instanceValues {
            for name in names {
                questions.append(("instance \(owner).\(name)", { "\($0.instanceValue(name, of: owner) as Any)" }))
                questions.append(("key path \(owner).\(name)", { "\($0.keyPathMember(name, of: owner) as Any)" }))
            }
        }
        for name in environmentNames {
            questions.append(("environment \(name)", { "\($0.environmentValue(name) as Any)" }))
        }
        return questions.sorted { $0.label < $1.label }
    }

    /// What `declarations` answers to every question `questions(of:)` makes of `all`.
    static func answers(_ declarations: ModuleDeclarations, to all: ModuleDeclarations) -> [String] {
        questions(all).map { "\($0.label): \($0.answer(declarations))" }
    }

    /// Whether `a` and `b` answer alike every question either can answer.
    static func sameAnswers(_ a: ModuleDeclarations, _ b: ModuleDeclarations) -> Bool {
        answers(a, to: a) == answers(b, to: a) && answers(a, to: b) == answers(b, to: b)
    }

    static func compare(sources: [[UInt8]], dependencies: [[UInt8]]) -> (compared: Int, differing: [String]) {
        let all = ModuleDeclarations(reading: sources, dependencies: dependencies)
        var questions = questions(all)
        // Questions in a different order read the files in a different order.
        var generator = SplitMix(seed: 23)
        questions.shuffle(using: &generator)
        let module = ModuleSources(sources, dependencies: dependencies)
        var differing: [String] = []
        for (label, answer) in questions where answer(module) != answer(all) {
            differing.append("\(label): \(answer(module)) != \(answer(all))")
        }
        return (questions.count, differing)
    }

    @Test func sameAnswersAsAllFilesRead() {
        let (compared, differing) = Self.compare(sources: Self.sources, dependencies: [])
        #expect(compared > 2000)
        #expect(differing.isEmpty, "\(differing.prefix(20))")
    }

    /// With a third of the files as dependencies (`--wrapper-sources`): their public declarations
    /// under the names the module does not declare.
    @Test func sameAnswersWithDependencies() {
        let split = Self.sources.count / 3
        let (compared, differing) = Self.compare(sources: Array(Self.sources[split...]), dependencies: Array(Self.sources[..<split]))
        #expect(compared > 2000)
        #expect(differing.isEmpty, "\(differing.prefix(20))")
    }

    /// Where two files declare cases of an enum of one name, the later file's count, whichever
    /// question reads it first.
    @Test func laterEnumCasesWinInAnyOrder() {
        let first = Array("enum Mode { case a }\n".utf8)
        let second = Array("enum Mode { case b(Int) }\nlet only = 1\n".utf8)
        let module = ModuleSources([first, second])
        // `only` is spelled by the second file only: the second is read first, the first after.
        #expect(module.value("only", of: "") == .some("Int"))
        #expect(module.enumCase("b", of: "Mode") == true)
        #expect(module.enumCase("a", of: "Mode") == nil)
        #expect(module.type(named: "Mode") == .some(nil))
    }

    /// Where a declaration's name can stand, with comments between, on later lines, after a
    /// comma of a binding list, in backticks and in an extended type's dotted name.
    /// A raw identifier (SE-0451) is listed and asked by its whole spelling, not its last word
    /// (swift-collections declares ``let `^(…)[.]RigidArray<.+>$ formatter` = …``).
    @Test func aRawIdentifierIsAskedWhole() {
        let declaring = Array("let `a formatter` = 1\n".utf8)
        let other = Array("let formatter = 2\n".utf8)
        let module = ModuleSources([other, declaring])
        #expect(module.value("`a formatter`", of: "") == .some("Int"))
        #expect(module.value("formatter", of: "") == .some("Int"))
    }

    /// An operator function is asked of every file (Nimble declares `≈` twice: uncertain).
    @Test func anOperatorIsAskedOfEveryFile() {
        let first = Array("func ≈ (a: Int, b: Int) -> Bool { true }\n".utf8)
        let second = Array("func ≈ (a: Double, b: Double) -> Bool { true }\n".utf8)
        #expect(ModuleSources([first, second]).function("≈", of: "") == .some(nil))
        #expect(ModuleSources([first]).function("≈", of: "") == .some("Bool"))
    }

    @Test func theFilesThatMayDeclareANameListIt() {
        let source = Array(
            """
            extension Outer.Inner where Inner: Sendable {
                static let /* c */ `default` = 1,
                    second = 2
                var third: Int { 3 }
                func fourth() {}
                case fifth(Int)
            }
            final class Café: NSObject {}
            typealias Alias = Int
            let used = print(absent, label: 1), (tuple, pair) = (f(x, y), [z, w]), last: Int = 0

            """.utf8)
        var declaring = DeclaringFiles()
        declaring.add(source, tokens: Lexer.lex(source).tokens, position: 7)
        declaring.add(Array("let second = 2, Alias = 3".utf8), tokens: Lexer.lex(Array("let second = 2, Alias = 3".utf8)).tokens, position: 9)
        declaring.finish()
        func files(_ word: String) -> [Int] { declaring.files(declaring: [word]) ?? [] }
        for word in ["Outer", "Inner", "default", "third", "fourth", "fifth", "Café", "used", "last"] {
            #expect(files(word) == [7], "\(word)")
        }
        #expect(files("second") == [7, 9])
        #expect(files("Alias") == [7, 9])
        for word in ["Sendable", "absent", "label", "print", "static", "Int", "pair", "y", "w"] {
            #expect(files(word) == [], "\(word)")
        }
    }

    /// Brackets deeper than the bits `add` keeps a depth in: a binding list in them, and one around
    /// them, still list the names after their commas.
    @Test func bindingListsInAndAroundDeepBracketsListTheirNames() {
        let deep = String(repeating: "{ ", count: 70) + "let inner = 1, second = 2 " + String(repeating: "} ", count: 70)
        let source = Array("let outer = \(String(repeating: "[", count: 70))0\(String(repeating: "]", count: 70)), after = 1\nf \(deep)\n".utf8)
        var declaring = DeclaringFiles()
        declaring.add(source, tokens: Lexer.lex(source).tokens, position: 3)
        declaring.finish()
        for word in ["outer", "after", "inner", "second"] {
            #expect(declaring.files(declaring: [word]) == [3], "\(word)")
        }
        #expect(declaring.files(declaring: ["f"]) == [])
    }

    /// The byte scan for `T(…)` that may not be a `T`: generic declarations (not an extension's
    /// `<`), and each failable init's first label for every type declared or extended before it,
    /// by the last part of a dotted name.
    @Test func uncertainConstructionsAreReadOffTheBytes() {
        let source = Array(
            """
            struct Box<T> {}
            extension Array<Int> {}
            enum   Choice<A, B> {}
            extension Outer.Inner {
                init?(raw: String) { nil }
            }
            class Late {
                init!() {}
            }

            """.utf8)
        let found = uncertainConstructionNames(in: source)
        #expect(found.generic == ["Box", "Choice"])
        #expect(found.failable == ["Inner": ["raw", ""], "Late": [""], "Box": ["raw", ""], "Choice": ["raw", ""], "Array": ["raw", ""]])
    }
}

/// The questions `ModuleSources` answers by reading files on demand, and `ModuleDeclarations`
/// from the files it holds: one question asks both.
protocol ModuleQuestions {
    func type(named name: String) -> TypeKind??
    func declaresType(named name: String) -> Bool
    func declaresOwnTypeOrAlias(named name: String) -> Bool
    func isResultBuilder(named name: String) -> Bool
    func enumCase(_ name: String, of owner: String) -> Bool?
    func value(_ name: String, of owner: String) -> String??
    func instanceValue(_ name: String, of owner: String) -> String??
    func keyPathMember(_ name: String, of owner: String) -> String??
    func function(_ name: String, of owner: String) -> String??
    func declaresStaticMember(named name: String) -> Bool
    func environmentValue(_ name: String) -> String??
    func supertypes(ofType name: String) -> [String]?
    func aliasTargetText(_ name: String) -> String?
    func staticValueOwners(named name: String) -> Set<String>
    func staticSubscript(of owner: String) -> StaticSubscriptTypes??
}

extension ModuleSources: ModuleQuestions {}
extension ModuleDeclarations: ModuleQuestions {
    /// With every file read at once, their uncertain constructions are the module's.
    func environmentValue(_ name: String) -> String?? {
        environmentValue(name) {
            files.reduce(into: UncertainConstructions()) { $0.formUnion(uncertainConstructionNames(in: $1.context.bytes)) }
        }
    }
}

/// A seeded generator, so that the shuffled questions are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
