import CLua
import TraitKit

/// Methods a script defines on a node or its Lua class chain, which the engine calls for
/// lifecycle events (`NodeAnchor.invoke`).
extension LuaRuntime {
    /// Runs `node`'s scripted method `name` (per-instance field first, then its Lua class chain)
    /// with `previous` when given; returns false when there is no such method.
    func callMethod(named name: String, on node: TraitEnvironment, argument: AnyObject?) throws -> Bool {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let handler = pushMessageHandler(L)
        guard LuaObject.pushExisting(L, node) else { return false }
        guard pushMethod(L, self: handler + 1, name: name) else { return false }
        lua_pushvalue(L, handler + 1)
        if let argument { LuaObject.push(L, argument, argument is TraitCollection ? .collection : .node) }
        try protectedCall(L, nargs: argument == nil ? 1 : 2, nresults: 0, handler: handler)
        return true
    }

    /// Pushes the function `name` found on the object at `ud` (fields, then class chain).
    func pushMethod(_ L: LuaState, self ud: Int32, name: String) -> Bool {
        if tk_getuservalue(L, ud) == LUA_TTABLE {
            if rawGetField(L, -1, name) == LUA_TFUNCTION { tk_replace(L, -2); return true }
            tk_pop(L, 1)
            if lua_rawgetp(L, -1, UVKey.classTable) == LUA_TTABLE {
                tk_replace(L, -2)
                return findInClassChain(L, name)
            }
            tk_pop(L, 1)
        }
        tk_pop(L, 1)
        guard pushDefaultClass(L, ud) else { return false }
        return findInClassChain(L, name)
    }

    /// With a class table on top, replaces it by `name` found along its `__super` chain, and
    /// with `builtins` in the root class's built-in methods after that (`BuiltinMethods`);
    /// pops it and returns false when there is none.
    func findInClassChain(_ L: LuaState, _ name: String, builtins: Bool = false) -> Bool {
        push(L, name)
        tk_insert(L, -2)
        let found = findInClassChain(L, key: -2, builtins: builtins)
        if found { tk_remove(L, -2) } else { tk_pop(L, 1) }
        return found
    }

    /// The same for the name at `key`, a Lua string already (`__index`'s key): each class is
    /// one raw lookup, with no Swift string made or interned again. With `values`, any value a
    /// class holds counts, as an instance of a plain Lua class sees its class's fields
    /// (`Card.cornerRadius = 8`), not only its methods.
    func findInClassChain(_ L: LuaState, key: Int32, builtins: Bool = false, values: Bool = false) -> Bool {
        let key = absolute(L, key)
        for _ in 0..<ClassModule.maxChain {
            lua_pushvalue(L, key)
            let type = lua_rawget(L, -2)
            if type == LUA_TFUNCTION || values && type != LUA_TNIL { tk_replace(L, -2); return true }
            tk_pop(L, 1)
            if rawGetField(L, -1, "__super") != LUA_TTABLE {
                tk_pop(L, 1)
                if builtins, let name = string(L, key) { return BuiltinMethods.find(L, name) }
                tk_pop(L, 1)
                return false
            }
            tk_replace(L, -2)
        }
        tk_pop(L, 1)
        return false
    }

    /// Pushes the class table of the engine class of the object at `ud`.
    func pushDefaultClass(_ L: LuaState, _ ud: Int32) -> Bool {
        guard let object = LuaObject.peek(L, ud), let ref = nearest(in: classRefs, for: object) else { return false }
        pushRef(L, ref)
        return true
    }

    /// Notes that a script defined lifecycle method `name`, so the engine starts asking for it.
    func noteDefinition(_ L: LuaState, key: Int32, value: Int32) throws {
        guard let name = string(L, key), let event = NodeEvent(rawValue: name) else { return }
        // The engine calls these: anything else would be stored and never called.
        guard lua_type(L, value) == LUA_TFUNCTION else {
            if isNil(L, value) { return }
            throw LuaError("'\(name)' must be a function (the engine calls it as a lifecycle method), got \(typeName(L, value))")
        }
        definedMethods.insert(event)
        BindingHints.declare(event)
    }
}
