import ArgumentParser
import FoundationEssentials
import TraitKitLua

/// `traitkit stubs`: the LuaLS definition file of the `traitkit` module, and the reference
/// tables of `docs/lua-api.md`, both made from the binding's member tables.
struct Stubs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stubs",
        abstract: "Print LuaLS definitions of the traitkit module (types/traitkit.d.lua).",
        discussion: """
            Editors with the Lua language server complete and check scripts with them: \
            point .luarc.json at their folder, { "workspace.library": ["types"] }.
            --markdown FILE rewrites the reference tables between FILE's \
            '<!-- reference: TOPIC -->' and '<!-- /reference -->' markers instead.
            --list prints every name the module offers, with its kind.
            """)

    @Option(help: ArgumentHelp("Rewrite the reference tables of this Markdown file.", valueName: "file"))
    var markdown: String?

    @Flag(help: "Print every name of the API with its kind.")
    var list = false

    func run() throws {
        let reference: LuaReference
        do { reference = try LuaReference() } catch { throw ValidationError("the API reference is out of date:\n\(error)") }
        if list {
            for item in reference.items { print(item.kind.rawValue, item.path) }
        } else if let markdown {
            let document = try String(contentsOfFile: markdown, encoding: .utf8)
            let updated: String
            do { updated = try reference.markdown(updating: document) } catch { throw ValidationError("\(markdown): \(error)") }
            if updated != document { try updated.write(toFile: markdown, atomically: true, encoding: .utf8) }
        } else {
            print(reference.stubs(), terminator: "")
        }
    }
}
