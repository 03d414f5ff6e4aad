import CLua
import TraitKit

/// The REPL's `:commands` (DESIGN.md §5).
extension LuaRepl {
    static let help = """
        Lua 5.4 with `tk = require "traitkit"`. Expressions print their values; tk.update() runs after each input.
          :help                   this text
          :tree [node]            the hierarchy under node (default: every window), overrides marked
          :explain node trait     where node's value of trait comes from
          :watch node [traits]    print changes of those traits (default: all) as they happen
          :auto on|off            run tk.update() after each input (now: %@)
          :load FILE              run a script file in this session
          :quit                   leave (Ctrl-D too); Ctrl-C stops a running chunk

        """

    func command(_ text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let name = words.first else { return "commands: :help, :tree, :explain, :watch, :auto, :load, :quit\n" }
        let rest = Array(words.dropFirst())
        switch name {
        case "help": return Self.help.replacing("%@", with: autoUpdate ? "on" : "off")
        case "quit", "q", "exit": wantsQuit = true; return ""
        case "auto": return setAuto(rest)
        case "tree": return tree(rest.joined(separator: " "))
        case "explain": return explain(rest)
        case "watch": return watch(rest)
        case "load": return load(rest.joined(separator: " "))
        default: return "unknown command :\(name) (try :help)\n"
        }
    }

    private func setAuto(_ args: [String]) -> String {
        switch args.first {
        case "on": setAutoUpdate(true); return "tk.update() runs after each input\n"
        case "off": setAutoUpdate(false); return "tk.update() no longer runs after each input; call it yourself\n"
        default: return "usage: :auto on|off (now \(autoUpdate ? "on" : "off"))\n"
        }
    }

    private func tree(_ expression: String) -> String {
        let code = expression.isEmpty ? "return tk.tree()" : "return tk.tree(\(expression))"
        return runForText(code)
    }

    private func explain(_ args: [String]) -> String {
        guard args.count >= 2 else { return "usage: :explain node trait   (e.g. :explain header Theme)\n" }
        let node = args.dropLast().joined(separator: " ")
        return runForText("return (\(node)):explain(\(luaQuoted(args.last!)))")
    }

    private func watch(_ args: [String]) -> String {
        guard let node = args.first else { return "usage: :watch node [trait ...]\n" }
        let traits = args.dropFirst().map(luaQuoted).joined(separator: ", ")
        let list = traits.isEmpty ? "tk.definedTraits()" : "{ \(traits) }"
        let code = """
            local node, traits = \(node), \(list)
            node:registerForTraitChanges(traits, function(n, previous)
              for _, t in ipairs(traits) do
                local name = type(t) == "string" and t or t.name
                local old, new = previous[name], n.traitCollection[name]
                if old ~= new then __repl_watch(string.format("watch %s: %s %s -> %s", tostring(n), name, tostring(old), tostring(new))) end
              end
            end)
            return "watching " .. tostring(node) .. (#traits > 0 and "" or "")
            """
        return runForText(code)
    }

    private func load(_ path: String) -> String {
        guard !path.isEmpty else { return "usage: :load FILE\n" }
        let source: String
        do { source = try readSource(path) } catch { return "\(error)\n" }
        if let error = runtime.run(chunk: source, name: "@" + path) { return error + "\n" }
        return updateAfterCommand()
    }

    /// Runs code that returns a string and gives back that string (or the error).
    private func runForText(_ code: String) -> String {
        let L = runtime.L
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard tk_loadbuffer(L, code, code.utf8.count, "=stdin", "t") == LUA_OK else {
            return (string(L, -1) ?? "syntax error") + "\n"
        }
        do {
            try runtime.protectedCall(nargs: 0, nresults: 1)
        } catch {
            return "\(error)\n"
        }
        return (string(L, -1).map { $0 + "\n" } ?? "") + updateAfterCommand()
    }

    private func updateAfterCommand() -> String {
        guard autoUpdate else { return "" }
        do { try runtime.update(); return "" } catch { return "tk.update(): \(error)\n" }
    }

    private func luaQuoted(_ s: String) -> String {
        "\"" + s.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
