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

    /// The escapes count against the limit, and the length given is what the script passed.
    @Test func messagesEscapeControlCharactersWithinTheLimit() {
        #expect(clipped("a\nb") == #"a\nb"#)
        #expect(clipped(String(repeating: "\n", count: 40)) == String(repeating: #"\n"#, count: 32) + "… (40 bytes)")
        #expect(clipped("é" + String(repeating: "x", count: 70), limit: 3) == "éx… (72 bytes)")
        #expect(printable("plain é ✓") == "plain é ✓")
    }
}
