import CLua
import TraitKit

/// Tab completion (DESIGN.md §5): globals, fields and methods of tables and engine objects
/// along a dotted path (`root.view.sub`, `header:reg`), and trait names after
/// `traitOverrides.` or on a collection (`tc.horiz`).
extension LuaRepl {
    /// Every completion of `word` (the text before the cursor back to a break character).
    public func completions(for word: String) -> [String] {
        let L = runtime.L
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard let cut = word.lastIndex(where: { $0 == "." || $0 == ":" }) else {
            tk_pushglobaltable(L)
            let names = candidates(at: lua_gettop(L), methodsOnly: false) + Self.keywords
            return names.filter { $0.hasPrefix(word) }.sorted().uniqued()
        }
        let base = String(word[..<cut]), prefix = String(word[word.index(after: cut)...])
        let methodsOnly = word[cut] == ":"
        guard pushPath(base) else { return [] }
        let names = candidates(at: lua_gettop(L), methodsOnly: methodsOnly)
        return names.filter { $0.hasPrefix(prefix) }.map { base + String(word[cut]) + $0 }.sorted().uniqued()
    }

    /// The `:commands` starting with `word` (typed with or without its colon).
    public func commandCompletions(for word: String) -> [String] {
        let colon = word.hasPrefix(":")
        let prefix = colon ? String(word.dropFirst()) : word
        return Self.commandNames.filter { $0.hasPrefix(prefix) }.map { colon ? ":" + $0 : $0 }
    }

    /// Trait names starting with `word`: inside a string (`{"userInterfaceSt`, `tc["The`),
    /// a name is most often a trait's.
    public func traitNameCompletions(for word: String) -> [String] {
        TraitRegistry.all.map(\.name).filter { $0.hasPrefix(word) }.sorted()
    }

    /// Pushes the value of a dotted path of names (`a.b.c`), or returns false.
    private func pushPath(_ path: String) -> Bool {
        let L = runtime.L
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ !$0.isEmpty && !$0.contains(":") }) else { return false }
        tk_pushglobaltable(L)
        for part in parts {
            // value[part], protected: getters and __index may run code.
            let source = "local o, k = ... return o[k]"
            _ = tk_loadbuffer(L, source, source.utf8.count, "=complete", "t")
            lua_pushvalue(L, -2)
            push(L, part)
            do { try runtime.protectedCall(nargs: 2, nresults: 1) } catch { return false }
            tk_replace(L, -2)
            if isNil(L, -1) { return false }
        }
        return true
    }

    /// The names a value offers: table keys (and its `__index` chain), engine members, fields
    /// and class methods, and trait names for collections and overrides.
    private func candidates(at i: Int32, methodsOnly: Bool) -> [String] {
        let L = runtime.L
        var names: [String] = []
        // The walks below keep up to two values per level (16 levels) on the stack.
        guard lua_checkstack(L, 40) != 0 else { return names }
        func collectKeys(_ table: Int32) {
            try? forEachPair(L, table) {
                guard let key = string(L, -2), !key.hasPrefix("__") else { return }
                let type = lua_type(L, -1)
                if !methodsOnly || type == LUA_TFUNCTION { names.append(key) }
            }
        }
        if lua_type(L, i) == LUA_TTABLE {
            var table = i
            for _ in 0..<16 {
                collectKeys(table)
                guard lua_getmetatable(L, table) != 0, rawGetField(L, -1, "__index") == LUA_TTABLE else { break }
                table = lua_gettop(L)
            }
            return names
        }
        guard let box = LuaObject.box(L, i) else { return names }
        pushRef(L, box.pointee.members)
        try? forEachPair(L, -1) {
            guard let key = string(L, -2) else { return }
            if !methodsOnly || lua_type(L, -1) == LUA_TFUNCTION { names.append(key) }
        }
        if tk_getuservalue(L, i) == LUA_TTABLE { collectKeys(lua_gettop(L)) }
        if runtime.pushDefaultClassOrOwn(L, i) {
            var table = lua_gettop(L)
            for _ in 0..<16 {
                collectKeys(table)
                guard rawGetField(L, table, "__super") == LUA_TTABLE else {
                    // The root class's built-in methods (`BuiltinMethods`).
                    if lua_getmetatable(L, table) != 0, rawGetField(L, -1, "__index") == LUA_TTABLE {
                        collectKeys(lua_gettop(L))
                    }
                    break
                }
                table = lua_gettop(L)
            }
        }
        switch LuaObject.Kind(rawValue: box.pointee.kind) {
        case .collection, .overrides, .mutableTraits:
            if !methodsOnly { names += TraitRegistry.all.map(\.name) }
        case .environment:
            if !methodsOnly {
                pushRef(L, runtime.environmentKeysRef)
                names += stringKeys(L, -1)
            }
        default:
            break
        }
        return names
    }
}

extension LuaRuntime {
    /// Pushes the object's Lua class (its own, else its engine class's table).
    func pushDefaultClassOrOwn(_ L: LuaState, _ ud: Int32) -> Bool {
        if tk_getuservalue(L, ud) == LUA_TTABLE {
            if lua_rawgetp(L, -1, UVKey.classTable) == LUA_TTABLE {
                tk_replace(L, -2)
                return true
            }
            tk_pop(L, 1)
        }
        tk_pop(L, 1)
        return pushDefaultClass(L, ud)
    }
}

extension Array where Element: Hashable {
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
