import CLua
import TraitKit

/// The REPL's `:commands` (DESIGN.md §5).
extension LuaRepl {
    static let help = """
        Lua 5.4 with `tk = require "traitkit"`. Expressions print their values; tk.update() runs after each input.
          :help                   this text
          :tree [--resolved] [node]  the hierarchy under node (default: every screen), overrides
                                  marked; --resolved adds each node's resolved values
          :explain node trait     where node's value of trait comes from
          :watch node [traits]    print changes of those traits (default: all) as they happen
          :unwatch [node]         stop watching node (default: every watched node)
          :auto on|off            run tk.update() after each input (now: %@)
          :load FILE              run a script file in this session
          :quit                   leave (Ctrl-D too); Ctrl-C stops a running chunk
        A command's start is enough: :t is :tree, :e :explain, :q :quit.

        """

    static let commandNames = ["auto", "explain", "help", "load", "quit", "tree", "unwatch", "watch"]

    func command(_ text: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let typed = words.first else { return "commands: :help, :tree, :explain, :watch, :unwatch, :auto, :load, :quit\n" }
        let rest = Array(words.dropFirst())
        switch Self.commandName(typed) {
        case "help": return Self.help.replacing("%@", with: autoUpdate ? "on" : "off")
        case "quit", "exit": wantsQuit = true; return ""
        case "auto": return setAuto(rest)
        case "tree": return tree(rest.joined(separator: " "))
        case "explain": return explain(rest)
        case "watch": return watch(rest)
        case "unwatch": return unwatch(rest)
        case "load": return load(rest.joined(separator: " "))
        default:
            let near = nearestName(to: typed, in: Self.commandNames).map { " (did you mean :\($0)?)" } ?? " (try :help)"
            return "unknown command :\(clipped(typed))\(near)\n"
        }
    }

    /// The command `typed` names: itself, or the one command it is the start of (`:h` is
    /// `:help`, `:ex` `:explain`, as gdb and ghci take them). A start two commands shared would
    /// name neither and get the usual hint.
    static func commandName(_ typed: String) -> String {
        if commandNames.contains(typed) { return typed }
        let matches = commandNames.filter { $0.hasPrefix(typed) }
        return matches.count == 1 ? matches[0] : typed
    }

    private func setAuto(_ args: [String]) -> String {
        switch args.first {
        case "on": setAutoUpdate(true); return "tk.update() runs after each input\n"
        case "off": setAutoUpdate(false); return "tk.update() no longer runs after each input; call it yourself\n"
        default: return "usage: :auto on|off (now \(autoUpdate ? "on" : "off"))\n"
        }
    }

    private func tree(_ arguments: String) -> String {
        var expression = arguments
        let resolved = expression.hasPrefix("--resolved")
        if resolved { expression = String(expression.dropFirst("--resolved".count).trimmingPrefix(" ")) }
        let options = "{ resolved = \(resolved) }"
        if expression.isEmpty {
            return runForText("local t = tk.tree(\(options)) return t ~= '' and t or '(no screens: :tree shows every screen, or the node you name)'")
        }
        return runForText("local node = ... return tk.tree(node, \(options))", node: expression, command: "tree")
    }

    private func explain(_ args: [String]) -> String {
        guard args.count >= 2 else { return "usage: :explain node trait   (e.g. :explain header Theme)\n" }
        let node = args.dropLast().joined(separator: " ")
        return runForText("local node = ... return node:explain(\(luaQuoted(traitName(args.last!))))", node: node, command: "explain")
    }

    /// `:watch node [trait ...]`; traits may be separated by spaces or commas.
    private func watch(_ args: [String]) -> String {
        guard let node = args.first else { return "usage: :watch node [trait ...]\n" }
        let names = args.dropFirst().flatMap { $0.split(separator: ",").map { traitName(String($0)) } }
        let list = names.isEmpty ? "tk.definedTraits()" : "{ \(names.map(luaQuoted).joined(separator: ", ")) }"
        let code = """
            local node, traits = ..., \(list)
            local function show(v)  -- as collections print values (R3)
              if math.type(v) == "float" then return string.format("%.14g", v) end
              if type(v) ~= "table" then return tostring(v) end
              local fields = {}
              for k, x in pairs(v) do fields[#fields + 1] = k .. " = " .. show(x) end
              table.sort(fields)
              return "{" .. table.concat(fields, ", ") .. "}"
            end
            __repl_watches = __repl_watches or setmetatable({}, { __mode = "k" })
            local earlier = __repl_watches[node]
            if earlier then node:unregisterForTraitChanges(earlier) end
            __repl_watches[node] = node:registerForTraitChanges(traits, function(n, previous)
              for _, name in ipairs(n.traitCollection:changedTraits(previous)) do
                for _, t in ipairs(traits) do
                  if name == (type(t) == "string" and t or t.name) then
                    __repl_watch(string.format("watch %s: %s %s -> %s", tostring(n), name, show(previous[name]), show(n.traitCollection[name])))
                  end
                end
              end
            end)
            return "watching " .. tostring(node) .. ": " .. \(luaQuoted(names.isEmpty ? "every trait" : names.joined(separator: ", ")))
              .. (earlier and " (instead of what it watched before)" or "")
            """
        return runForText(code, node: node, command: "watch")
    }

    /// `:unwatch [node]`: ends the watch on node, or every watch.
    private func unwatch(_ args: [String]) -> String {
        let stop = """
            local function stop(node)
              local registration = __repl_watches and __repl_watches[node]
              if not registration then return false end
              node:unregisterForTraitChanges(registration)
              __repl_watches[node] = nil
              return true
            end
            """
        guard !args.isEmpty else {
            return runForText(stop + "\n" + """
                local nodes = {}
                for node in pairs(__repl_watches or {}) do nodes[#nodes + 1] = node end
                for _, node in ipairs(nodes) do stop(node) end
                return #nodes == 0 and "nothing is watched" or "stopped watching " .. #nodes .. (#nodes == 1 and " node" or " nodes")
                """)
        }
        return runForText(stop + "\n" + """
            local node = ...
            return stop(node) and "stopped watching " .. tostring(node) or tostring(node) .. " is not watched"
            """, node: args.joined(separator: " "), command: "unwatch")
    }

    /// Runs a script file in this session (`:load`, `traitkit repl FILE`); returns its error,
    /// or what the update after it printed.
    public func load(_ path: String) -> String {
        guard !path.isEmpty else { return "usage: :load FILE\n" }
        let source: [UInt8]
        do { source = try readSource(path) } catch {
            anyInputFailed = true
            return "\(error)\n"
        }
        if let error = runtime.run(script: source, name: "@" + path) {
            anyInputFailed = true
            return error + "\n"
        }
        return updateAfterCommand()
    }

    /// Runs code that returns a string and gives back that string (or the error). With `node`,
    /// that expression is evaluated first and must give a node, which the code gets as `...`.
    private func runForText(_ code: String, node: String? = nil, command: String = "") -> String {
        let L = runtime.L
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        var nargs: Int32 = 0
        if let node {
            if let problem = pushNode(node, command: command) { return problem }
            nargs = 1
        }
        guard tk_loadbuffer(L, code, code.utf8.count, "=stdin", "t") == LUA_OK else {
            return (string(L, -1) ?? "syntax error") + "\n"
        }
        if nargs == 1 { lua_rotate(L, -2, 1) }
        do {
            try runtime.protectedCall(nargs: nargs, nresults: 1)
        } catch {
            return withoutTraceback(error)
        }
        return (string(L, -1).map { $0 + "\n" } ?? "") + updateAfterCommand()
    }

    /// Pushes the value of `expression` when it is a node; else pushes nothing and returns
    /// what to print (`:explain 5 Theme` names the command and what came).
    private func pushNode(_ expression: String, command: String) -> String? {
        let L = runtime.L
        let code = "return (\(expression))"
        guard tk_loadbuffer(L, code, code.utf8.count, "=stdin", "t") == LUA_OK else {
            defer { tk_pop(L, 1) }
            return (string(L, -1) ?? "syntax error") + "\n"
        }
        do { try runtime.protectedCall(nargs: 0, nresults: 1) } catch { return withoutTraceback(error) }
        if LuaObject.peek(L, -1) is TraitEnvironment { return nil }
        defer { tk_pop(L, 1) }
        let got = lua_type(L, -1) == LUA_TNIL ? "nil" : "a " + typeName(L, -1)
        return ":\(command) needs a node (a view, view controller, window, scene or screen), and \(expression) is \(got)\n"
    }

    /// A command's error as one line: the traceback would show only the command's own chunk.
    private func withoutTraceback(_ error: any Error) -> String {
        let message = "\(error)"
        return (message.split(separator: "\nstack traceback:", maxSplits: 1).first.map(String.init) ?? message) + "\n"
    }

    private func updateAfterCommand() -> String { updateIfAuto() }

    /// A trait named in a command as Lua code names it, `Theme` or `"Theme"`: the bare name.
    private func traitName(_ word: String) -> String {
        guard word.count >= 2, let quote = word.first, quote == "\"" || quote == "'", word.last == quote else { return word }
        return String(word.dropFirst().dropLast())
    }

    private func luaQuoted(_ s: String) -> String {
        "\"" + s.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
