import Foundation
import Testing
@testable import TraitKitLua

/// The API reference, `docs/lua-api.md` and `types/traitkit.d.lua` against the binding.
@Suite("API reference")
struct ReferenceTests {
    static func file(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everyNameOfTheBindingHasAnEntryAndNoEntryIsLeftOver() throws {
        do {
            _ = try LuaReference()
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func theSurfaceComesFromTheBindingsTables() throws {
        let paths = Set(APISurface.entries().map(\.path))
        // One of each source: the module, a class table, a member table, an inherited
        // member listed once, a lifecycle method and a constructor's option list.
        for path in ["tk.update", "tk.Color.systemBlue", "tk.View:subclass", "View:addSubview", "View:layoutSubviews",
                     "tk.defineTrait{values}", "tk.TraitCollection.fromJSON{skipUnknown}", "Label.text"] {
            #expect(paths.contains(path), "\(path)")
        }
        #expect(!paths.contains("Window:addSubview"), "a subclass lists only what it adds")
        #expect(!paths.contains { $0.contains("__") }, "metamethods and class bookkeeping are not API")
    }

    @Test func theMarkdownTablesAreCurrent() throws {
        let document = try Self.file("docs/lua-api.md")
        let updated = try LuaReference().markdown(updating: document)
        #expect(updated == document, "docs/lua-api.md is out of date: run Scripts/update-api-docs")
    }

    /// Every name in a table row of the reference is a member of the binding, and every
    /// member has a row: read off the document itself, not its generator.
    @Test func theDocumentNamesExactlyTheBindingsMembers() throws {
        let document = try Self.file("docs/lua-api.md")
        var documented: Set<String> = []
        for line in document.split(separator: "\n") where line.hasPrefix("| `") {
            let name = line.dropFirst(3).prefix { $0 != "`" }
            let path = name.firstIndex(of: "(").map { String(name[..<$0]) } ?? String(name)
            if !path.hasPrefix(":") { documented.insert(path) }
        }
        let members = Set(APISurface.entries().map(\.path))
        #expect(documented.subtracting(members).sorted() == [], "documented but not in the binding")
        #expect(members.subtracting(documented).sorted() == [], "in the binding but not documented")
    }

    @Test func theDefinitionFileIsCurrent() throws {
        let committed = try Self.file("types/traitkit.d.lua")
        #expect(committed == (try LuaReference().stubs()), "types/traitkit.d.lua is out of date: run Scripts/update-api-docs")
    }

    @Test func theDefinitionFileIsLuaThatDefinesTheModule() throws {
        let stubs = try LuaReference().stubs()
        let check = """
            local chunk = assert(load(...))
            local tk = chunk()
            assert(type(tk.View) == "table" and type(tk.View.subclass) == "function")
            assert(type(tk.elements.Text) == "function" and type(tk.update) == "function")
            """
        let runtime = LuaRuntime()
        defer { runtime.close() }
        #expect(runtime.run(chunk: check, name: "=stubs", arguments: [stubs]) == nil)
    }

    @Test func theDefinitionFileTypesSystemTraitValues() throws {
        let stubs = try LuaReference().stubs()
        #expect(stubs.contains("---@alias UserInterfaceStyle \"unspecified\"|\"light\"|\"dark\"\n"))
        #expect(stubs.contains("---@field overrideUserInterfaceStyle UserInterfaceStyle"))
        #expect(stubs.contains("---@alias TraitChangeHandler fun(node: TraitEnvironment, previous: TraitCollection)"))
        #expect(stubs.contains("---@param view View\nfunction View:addSubview(view) end"))
    }

    /// Class tables are typed as the runtime has them: each extends its superclass's table,
    /// answers its instances' methods, and is callable only where scripts make the class.
    @Test func theDefinitionFileTypesClassTables() throws {
        let stubs = try LuaReference().stubs()
        #expect(stubs.contains("---@class tk.Window: tk.View\n---@overload fun(properties?: table): Window\n"))
        #expect(stubs.contains("---@field addSubview fun(self: View, view: View) "))
        #expect(stubs.contains("---@class tk.View: TraitEnvironmentClass\n"))
        #expect(stubs.contains("---@class tk.HostingView: tk.View\ntk.HostingView = {}\n"))
        #expect(!stubs.contains("function tk.Window("), "a class table is not also a function of tk")
    }

    /// The document's examples, run in order as one script, print what their `-->` comments say.
    @Test func theDocumentsExamplesRunAndPrintWhatTheySay() throws {
        let document = try Self.file("docs/lua-api.md")
        let blocks = document.components(separatedBy: "```lua\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let script = "local tk = require \"traitkit\"\n" + blocks.joined(separator: "tk.update()\n")
        let result = try traitkit(["run", "-"], input: script)
        #expect(result.status == 0, "\(result.stderr)")
        let words = { (s: Substring) in s.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
        // `print(x)   --> shown`, or a print whose output is on the comment line after it.
        let lines = script.split(separator: "\n")
        let expected = lines.indices.filter { i in
            lines[i].contains("--> ") && (lines[i].contains("print(") || (i > 0 && lines[i - 1].contains("print(")))
        }.map { words(lines[$0].components(separatedBy: "--> ")[1][...]) }
        var output = result.stdout.split(separator: "\n").map(words)[...]
        for line in expected {
            guard let found = output.firstIndex(of: line) else {
                Issue.record("no output line '\(line)' (in order) in:\n\(result.stdout)")
                return
            }
            output = output[(found + 1)...]
        }
        #expect(expected.count >= 5)
    }

    @Test func markersMustCoverEveryTopic() throws {
        #expect(throws: LuaReference.MarkdownError.self) {
            try LuaReference().markdown(updating: "<!-- reference: traits -->\n<!-- /reference -->\n")
        }
        #expect(throws: LuaReference.MarkdownError.self) {
            try LuaReference().markdown(updating: "<!-- reference: trait -->\n<!-- /reference -->\n")
        }
    }

    @Test func stubsCommandPrintsTheDefinitions() throws {
        let result = try traitkit(["stubs"])
        #expect(result.status == 0)
        #expect(result.stdout == (try Self.file("types/traitkit.d.lua")))
        let list = try traitkit(["stubs", "--list"])
        #expect(list.stdout.contains("method View:addSubview\n"))
        #expect(list.stdout.contains("readOnlyProperty View.superview\n"))
    }
}
