import CLua
import TraitKit

/// The REPL's session (DESIGN.md §5), independent of the terminal: it takes input lines and
/// returns what to print, so a terminal front end and the tests drive the same code.
///
/// Input that is an expression prints its values (as `lua` does, no `=` needed); a chunk
/// whose only error is an unexpected `<eof>` waits for more lines; after each input
/// `tk.update()` runs unless `:auto off`; `:commands` inspect the hierarchy.
public final class LuaRepl {
    /// The state the session runs in.
    public let runtime: LuaRuntime
    /// Whether `tk.update()` runs after each input (`:auto on|off`).
    public private(set) var autoUpdate = true
    func setAutoUpdate(_ on: Bool) { autoUpdate = on }
    /// Set by `:quit`: the front end ends the session.
    public internal(set) var wantsQuit = false
    /// `repl --timeout`: seconds each input (its chunk and the update after it) may run.
    public var timeout: Double?
    private var pending: [String] = []
    /// Where `:watch` output and `print` go (standard output by default).
    public var write: (String) -> Void = { Swift.print($0, terminator: "") }

    /// A session on `runtime`, with the global `tk` set.
    public init(runtime: LuaRuntime = LuaRuntime()) {
        self.runtime = runtime
        _ = runtime.run(chunk: "tk = require 'traitkit'", name: "=repl")
        let L = runtime.L
        push(L, watchOutput)
        rawSetGlobal(L, "__repl_watch")
        runtime.replSession = self
    }

    /// `:watch` lines go through `write` as they happen.
    private let watchOutput: SwiftLuaFunction = { L in
        guarded(L) { L in
            let runtime = LuaRuntime.of(L)
            if let repl = runtime.replSession, let line = string(L, 1) {
                repl.write(line + "\n")
            }
            return 0
        }
    }


    /// The prompt for the next line: `_PROMPT` / `_PROMPT2` when the script set them.
    public var prompt: String {
        let name = pending.isEmpty ? "_PROMPT" : "_PROMPT2"
        let L = runtime.L
        rawGetGlobal(L, name)
        defer { tk_pop(L, 1) }
        if let s = string(L, -1) { return s }
        return pending.isEmpty ? "> " : ">> "
    }

    /// Whether an incomplete chunk is waiting for more lines.
    public var isContinuing: Bool { !pending.isEmpty }

    /// Whether any input so far failed to compile or raised (piped input then exits 1).
    public internal(set) var anyInputFailed = false

    /// Takes one line of input; returns what to print (possibly nothing).
    public func feed(_ line: String) -> String {
        runtime.beginRun()  // a limit that ended the last input does not end this one
        if pending.isEmpty, line.hasPrefix(":") { return command(String(line.dropFirst())) }
        // `=expr` on a chunk's first line is `return expr`, as in `lua -i` (kept since 5.2).
        pending.append(pending.isEmpty && line.hasPrefix("=") ? "return " + line.dropFirst() : line)
        let source = pending.joined(separator: "\n")
        switch compile(source) {
        case .incomplete:
            return ""
        case .failed(let message):
            pending.removeAll()
            anyInputFailed = true
            return message + "\n"
        case .compiled:
            pending.removeAll()
            if let timeout { runtime.timeout = timeout }  // from now, for this input only
            defer { if timeout != nil { runtime.timeout = nil } }
            let output = execute()
            return runtime.limitEnded ? output : output + updateIfAuto()  // the limit ended this input
        }
    }

    /// Drops a partly typed chunk (Ctrl-C at the prompt).
    public func cancelInput() { pending.removeAll() }

    // MARK: Compiling and running

    private enum Compiled { case compiled, incomplete, failed(String) }

    /// Leaves the compiled function on the stack when it succeeds.
    private func compile(_ source: String) -> Compiled {
        let L = runtime.L
        let mode = runtime.sandboxed ? "t" : "bt"
        let expression = "return " + source
        if tk_loadbuffer(L, expression, expression.utf8.count, "=stdin", mode) == LUA_OK { return .compiled }
        tk_pop(L, 1)
        let statements = ReplLocals.globalized(source)
        if tk_loadbuffer(L, statements, statements.utf8.count, "=stdin", mode) == LUA_OK { return .compiled }
        let message = string(L, -1) ?? "syntax error"
        tk_pop(L, 1)
        return message.hasSuffix("<eof>") ? .incomplete : .failed(message)
    }

    /// Runs the function on top; returns its printed results or its error with a traceback.
    private func execute() -> String {
        let L = runtime.L
        let base = lua_gettop(L)
        runtime.armInterrupt(true)
        defer { runtime.armInterrupt(false) }
        do {
            try runtime.protectedCall(nargs: 0, nresults: LUA_MULTRET)
        } catch {
            anyInputFailed = true
            return "\(error)\n"
        }
        let count = lua_gettop(L) - base + 1
        defer { lua_settop(L, base - 1) }
        guard count > 0 else { return "" }
        // The results may fill the stack; `show` pushes a few values per nesting level.
        guard lua_checkstack(L, 32) != 0 else { return "\(count) results (no stack space left to print them)\n" }
        return (0..<count).map { show(base + $0) }.joined(separator: "\t") + "\n"
    }

    /// The automatic `tk.update()` after an input. Ctrl-C ends it too: a handler that loops
    /// runs on behalf of the input as much as the input's own code does.
    func updateIfAuto() -> String {
        guard autoUpdate else { return "" }
        runtime.armInterrupt(true)
        defer { runtime.armInterrupt(false) }
        do {
            try runtime.update()
            return ""
        } catch {
            anyInputFailed = true
            return "tk.update(): \(error)\n"
        }
    }

    /// Evaluates an expression; the value is left on the stack.
    private func evaluate(_ expression: String) throws {
        let L = runtime.L
        let chunk = "return " + expression
        guard tk_loadbuffer(L, chunk, chunk.utf8.count, "=stdin", "t") == LUA_OK else {
            let message = string(L, -1) ?? "syntax error"
            tk_pop(L, 1)
            throw LuaError(message)
        }
        try runtime.protectedCall(nargs: 0, nresults: 1)
    }

    // MARK: Printing values

    /// A value as the REPL shows it: strings as they are, tables pretty-printed with nesting
    /// and cycles marked, engine objects by their `__tostring`.
    public func show(_ i: Int32) -> String {
        var seen: [UnsafeRawPointer] = []
        return show(absolute(runtime.L, i), depth: 0, seen: &seen)
    }

    private func show(_ i: Int32, depth: Int, seen: inout [UnsafeRawPointer]) -> String {
        let L = runtime.L
        switch lua_type(L, i) {
        case LUA_TSTRING:
            return depth == 0 ? (string(L, i) ?? "") : quoted(string(L, i) ?? "")
        case LUA_TTABLE:
            return showTable(i, depth: depth, seen: &seen)
        case LUA_TUSERDATA where depth == 0:
            // A trait object alone shows its definition; inside a table, its name.
            if let trait = LuaObject.peek(L, i) as? Trait { return trait.definitionDescription }
            return tostring(i)
        default:
            return tostring(i)
        }
    }

    private func showTable(_ i: Int32, depth: Int, seen: inout [UnsafeRawPointer]) -> String {
        let L = runtime.L
        guard let pointer = lua_topointer(L, i) else { return "{}" }
        if seen.contains(pointer) { return "<cycle>" }
        if lua_getmetatable(L, i) != 0 {
            tk_pop(L, 1)
            if luaL_getmetafield(L, i, "__tostring") != LUA_TNIL { tk_pop(L, 1); return tostring(i) }
        }
        if depth >= 4 { return "{...}" }
        seen.append(pointer)
        defer { seen.removeLast() }
        var items: [String] = []
        let count = rawLength(L, i)
        for n in 1...max(count, 1) where count > 0 {
            lua_rawgeti(L, i, lua_Integer(n))
            items.append(show(lua_gettop(L), depth: depth + 1, seen: &seen))
            tk_pop(L, 1)
        }
        var keyed: [(String, String)] = []
        try? forEachPair(L, i) {
            var isInteger: Int32 = 0
            let n = tk_tointeger(L, -2, &isInteger)
            if lua_type(L, -2) == LUA_TNUMBER, isInteger != 0, n >= 1, n <= count { return }
            let key: String
            if let s = string(L, -2), isIdentifier(s) { key = s } else { key = "[" + show(absolute(L, -2), depth: depth + 1, seen: &seen) + "]" }
            keyed.append((key, show(absolute(L, -1), depth: depth + 1, seen: &seen)))
        }
        items += keyed.sorted { $0.0 < $1.0 }.map { "\($0.0) = \($0.1)" }
        if items.isEmpty { return "{}" }
        let oneLine = "{ " + items.joined(separator: ", ") + " }"
        if oneLine.count <= 72, !oneLine.contains("\n") { return oneLine }
        let indent = String(repeating: "  ", count: depth + 1)
        return "{\n" + items.map { indent + $0 }.joined(separator: ",\n") + "\n" + String(repeating: "  ", count: depth) + "}"
    }

    private func tostring(_ i: Int32) -> String {
        let L = runtime.L
        var length = 0
        guard let chars = luaL_tolstring_safe(L, i, &length) else { return "?" }
        defer { tk_pop(L, 1) }
        return chars
    }

    /// `luaL_tolstring` runs `__tostring`, which may raise: run it protected.
    private func luaL_tolstring_safe(_ L: LuaState, _ i: Int32, _ length: inout Int) -> String? {
        let i = absolute(L, i)
        rawGetGlobal(L, "tostring")
        lua_pushvalue(L, i)
        do {
            try runtime.protectedCall(nargs: 1, nresults: 1)
        } catch {
            lua_pushstring(L, "<tostring failed>")
        }
        return string(L, -1)
    }

    private func quoted(_ s: String) -> String {
        "\"" + s.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n") + "\""
    }

    private func isIdentifier(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first == "_" || first.properties.isAlphabetic, first.isASCII else { return false }
        return s.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
            && !LuaRepl.keywords.contains(s)
    }

    static let keywords: Set = ["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto",
                                "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until",
                                "while"]
}

