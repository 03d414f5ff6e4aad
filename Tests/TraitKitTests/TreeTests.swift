import Testing
@testable import TraitKit

@Suite("R11 text tree")
struct TreeTests {
    /// One line per node whatever a script names it: a newline or an escape sequence in a name
    /// or an override's value is shown escaped, not sent to the terminal.
    @Test func controlCharactersInNamesAndValuesAreEscaped() throws {
        let stage = Stage()
        let view = try stage.view("two\nlines\u{1B}[31m")
        let note = try TraitRegistry.define(name: "TreeNote", kind: .string(optional: false), defaultValue: .string(""))
        try view.traitOverrides.set(.string("tab\there"), for: note)
        try stage.app.update()
        let lines = stage.window.treeDescription().split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.first { $0.contains("two") })
        #expect(line.hasSuffix(#"View 'two\nlines\u{1B}[31m'  [TreeNote = tab\there]"#))
        #expect(lines.count == 4)  // window, root controller, its view, the named view
    }

    /// Printing the tree or the JSON dump runs no script code: a dynamic background's provider
    /// is not called (neither shows colors), so a provider that prints the tree does not
    /// resolve itself again, level under level. The graphical formats still resolve it.
    @Test func theTreeAndTheJSONDumpRunNoColorProvider() throws {
        final class Calls: @unchecked Sendable { var count = 0, depth = 0, tree = "" }
        let stage = Stage()
        let view = try stage.view("tinted")
        let calls = Calls()
        view.backgroundColor = Color(dynamicProvider: { _ in
            calls.count += 1
            if calls.depth < 3 {  // were the tree to resolve colors, this would fail, not recurse forever
                calls.depth += 1
                calls.tree = stage.window.treeDescription(resolved: true)
                calls.depth -= 1
            }
            return Color(red: 1, green: 0, blue: 0)
        })
        try stage.app.update()
        let before = calls.count
        _ = stage.window.treeDescription(resolved: true)
        _ = stage.window.dump()
        #expect(calls.count == before)
        let snapshot = HierarchySnapshot(stage.app)
        #expect(snapshot.nodes.contains { $0.backgroundColor?.description == "#FF0000FF" })
        #expect(calls.count == before + 1)
        #expect(calls.tree.contains("View 'tinted'"))
    }

    /// The escapes count against the limit, and the length given is what the script passed.
    @Test func messagesEscapeControlCharactersWithinTheLimit() {
        #expect(clipped("a\nb") == #"a\nb"#)
        #expect(clipped(String(repeating: "\n", count: 40)) == String(repeating: #"\n"#, count: 32) + "… (40 bytes)")
        #expect(clipped("é" + String(repeating: "x", count: 70), limit: 3) == "éx… (72 bytes)")
        #expect(printable("plain é ✓") == "plain é ✓")
    }
}
