import CLua

/// The library set of a state (DESIGN.md §7). A sandboxed state has no `io`, no `os` beyond
/// `clock`, `time` and `date`, no `debug`, no `dofile`/`loadfile`, and a `load` that refuses
/// binary chunks. `require` finds what `package.preload` and `package.loaded` hold and
/// nothing else: the searchers that read files (Lua modules along `package.path`, C modules)
/// and `package.searchpath` are gone, so setting `package.path` reaches nothing, and a missing
/// module's error is the same whether or not a file of that name exists.
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
        package.searchpath = nil
        package.path, package.cpath = "", ""
        local searchers = package.searchers
        searchers[2] = function(name)
          return "no file searched for '" .. name .. "': the script runs sandboxed (--sandbox), " ..
            "so require loads only preloaded and built-in modules"
        end
        searchers[3], searchers[4] = nil, nil
        """
        _ = tk_loadbuffer(L, restrict, restrict.utf8.count, "=sandbox", "t")
        _ = tk_pcall(L, 0, 0, 0)
    }
}
