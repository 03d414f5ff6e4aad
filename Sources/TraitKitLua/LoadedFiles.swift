import CLua

/// The files a script loads besides itself (`require` of a Lua file, `dofile`, `loadfile`),
/// for `traitkit --watch`, which runs the script again when any of them changes.
///
/// Recording wraps the three in the state's globals and `package.searchers`, so it sees what
/// a script loads through them however it calls them; a sandboxed state has none of them and
/// records nothing.
extension LuaRuntime {
    private static let recorder = """
        local files = ...
        local function note(path) if type(path) == "string" then files[#files + 1] = path end end
        local dofile0, loadfile0 = dofile, loadfile
        if dofile0 then dofile = function(path, ...) note(path); return dofile0(path, ...) end end
        if loadfile0 then loadfile = function(path, ...) note(path); return loadfile0(path, ...) end end
        local searchers = type(package) == "table" and package.searchers
        if type(searchers) == "table" and type(searchers[2]) == "function" then
          local search = searchers[2]
          searchers[2] = function(name, ...)
            local loader, path = search(name, ...)
            if type(loader) == "function" then note(path) end
            return loader, path
          end
        end
        """

    /// Starts recording the files scripts load from now on.
    public func recordLoadedFiles() {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard tk_loadbuffer(L, Self.recorder, Self.recorder.utf8.count, "=watch", "t") == LUA_OK else { return }
        tk_newtable(L)
        lua_pushvalue(L, -1)
        loadedFilesRef = luaL_ref(L, tk_registryindex())
        try? protectedCall(L, nargs: 1)
    }

    /// The files recorded since `recordLoadedFiles`, first load first, each once.
    public var loadedFiles: [String] {
        guard loadedFilesRef != 0 else { return [] }
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        pushRef(L, loadedFilesRef)
        var files: [String] = []
        for i in 0..<rawLength(L, -1) {
            lua_rawgeti(L, -1, lua_Integer(i + 1))
            if let file = string(L, -1), !files.contains(file) { files.append(file) }
            tk_pop(L, 1)
        }
        return files
    }
}
