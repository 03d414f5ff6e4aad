import CLua

/// The library set of a state (DESIGN.md §7). A sandboxed state has no `io`, no `os` beyond
/// `clock`, `time` and `date`, no `package.loadlib` or C module searchers, no `debug`, no
/// `dofile`/`loadfile`, and a `load` that refuses binary chunks.
enum Sandbox {
    static func openLibraries(_ L: LuaState, sandboxed: Bool) {
        guard sandboxed else {
            luaL_openlibs(L)
            return
        }
        let libraries: [(String, lua_CFunction)] = [
            ("_G", luaopen_base), ("package", luaopen_package), ("coroutine", luaopen_coroutine),
            ("table", luaopen_table), ("string", luaopen_string), ("math", luaopen_math),
            ("utf8", luaopen_utf8), ("os", luaopen_os),
        ]
        for (name, open) in libraries {
            luaL_requiref(L, name, open, 1)
            tk_pop(L, 1)
        }
        let restrict = """
        local load, error, select = load, error, select
        local missing = function(name) return function()
          error(name .. " is not available: the script runs sandboxed (--sandbox)", 2) end end
        dofile, loadfile = missing("dofile"), missing("loadfile")
        _G.load = function(chunk, name, mode, env)
          if mode ~= nil and mode ~= "t" then
            error("load: binary chunks are refused: the script runs sandboxed (--sandbox)", 2)
          end
          return load(chunk, name, "t", env)
        end
        local clock, time, date = os.clock, os.time, os.date
        os = { clock = clock, time = time, date = date }
        package.loadlib = missing("package.loadlib")
        package.cpath = ""
        package.searchers[3], package.searchers[4] = nil, nil
        """
        _ = tk_loadbuffer(L, restrict, restrict.utf8.count, "=sandbox", "t")
        _ = tk_pcall(L, 0, 0, 0)
    }
}
