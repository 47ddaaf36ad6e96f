import Foundation

/// The SwiftUI-style benchmark corpus: views dense with `@State`, `@Binding`
/// and `$x`, written against the API of `fixtures/standin/SwiftUI.swift` so
/// that a file and its lowering type-check. Deterministic: the same count
/// gives the same bytes.
///
/// A unit is a model, a row view and a list view: 10 wrapped declarations and
/// about 100 lines. A file holds `unitsPerFile` units.
enum ViewCorpus {
    static let declarationsPerUnit = 10
    static let unitsPerFile = 5

    /// Writes files holding `declarations` wrapped declarations (rounded up to
    /// whole units) into `folder`; returns their paths.
    static func generate(declarations: Int, into folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let units = (declarations + declarationsPerUnit - 1) / declarationsPerUnit
        var paths: [String] = []
        var unit = 0
        while unit < units {
            let last = min(unit + unitsPerFile, units)
            let path = "\(folder)/Views\(paths.count).swift"
            try Data(file(units: unit..<last).utf8).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            unit = last
        }
        return paths
    }

    /// One file: the import and the given units.
    static func file(units: Range<Int>) -> String {
        var text = "import SwiftUI\n"
        for k in units { text += "\n" + unit(k) }
        return text
    }

    private static let words = ["inbox", "today", "later", "archive", "shared", "flagged", "drafts", "notes"]

    /// One model, row and list; the numbers and words vary with `k`.
    static func unit(_ k: Int) -> String {
        let word = words[k % words.count]
        return """
            /// A \(word) entry.
            struct Entry\(k) {
                var title: String
                var detail: String
                var isDone: Bool
                var priority: Int
            }

            struct Entry\(k)Row: View {
                @Binding var entry: Entry\(k)
                @Binding var isSelected: Bool
                @Binding var note: String

                var body: some View {
                    HStack {
                        Toggle(entry.title, isOn: $entry.isDone)
                        Toggle("Selected", isOn: $isSelected)
                        TextField("Note", text: $note)
                        if isSelected {
                            Text("priority \\(entry.priority)")
                        }
                    }
                }
            }

            struct Entry\(k)List: View {
                let heading: String
                @State private var first = Entry\(k)(title: "\(word) \(k)", detail: "", isDone: false, priority: \(k % 5))
                @State private var second = Entry\(k)(title: "second", detail: "\(word)", isDone: true, priority: 2)
                @State private var selection = false
                @State private var note = ""
                @State private var filter: String = "\(word)"
                @State private var count = \(k % 97)
                @State var showsDetails: Bool = true

                var summary: String {
                    // Counts what is done; `count` is how many were added.
                    let done = [first, second].filter { $0.isDone }.count
                    return "\\(heading): \\(done) done of \\(count + 2)"
                }

                var body: some View {
                    VStack {
                        Text(summary)
                        TextField("Filter", text: $filter)
                        Toggle("Details", isOn: $showsDetails)
                        Entry\(k)Row(entry: $first, isSelected: $selection, note: $note)
                        Entry\(k)Row(entry: $second, isSelected: $selection, note: $note)
                        Button("Add") {
                            count += 1
                            second.priority = count % 3
                            note = "added \\(count)"
                        }
                        Button("Reset") {
                            first.isDone = false
                            second.isDone = false
                            selection = false
                        }
                        if showsDetails {
                            Text("filter \\(filter), note \\(note)")
                                .foregroundStyle(.secondary)
                        }
                    }
                    .padding()
                }

                func rename(_ title: String) {
                    first.title = title
                    if filter.isEmpty {
                        filter = title
                    }
                }
            }

            """
    }
}
