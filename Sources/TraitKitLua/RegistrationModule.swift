import CLua
import TraitKit

/// `node:registerForTraitChanges(traits, handler | target, "method" | "method")` (R7).
///
/// The Lua side of a registration (the handler, or the target and method name) lives in the
/// node's userdata under an id (`HandlerSlot`); the engine's registration only holds the id,
/// and firing (`NodeAnchor.run`) finds the node's userdata (the engine passes the node) and
/// the entry under it.
/// So a handler that captures its own node forms a cycle Lua's collector can see and free (§7).
enum RegistrationModule {
    static let members = Members()

    static let register: SwiftLuaFunction = { L in
        guarded(L) { L in
            let node = try NodeArgs.node(L, 1, "registerForTraitChanges")
            let traits = try TraitValues.checkTraitList(L, 2, "registerForTraitChanges")
            guard !traits.isEmpty else { throw TraitError.emptyTraitList }
            let runtime = LuaRuntime.of(L)
            runtime.lastHandlerId += 1
            let id = runtime.lastHandlerId
            try pushHandlerEntry(L)
            let registration = try node.registerForTraitChanges(traits, runner: runtime.nodeAnchor, id: id)
            HandlerSlot.store(L, node: 1, id: id)
            // The token is made here only (so it needs no identity-cache entry), and its
            // userdata is the one that carries the id.
            LuaObject.pushUnshared(L, registration, .registration)
            LuaObject.box(L, -1)?.pointee.handler = id
            return 1
        }
    }

    /// Pushes what to call: the function, or `{target (weak), method}` / `{nil, method, true}`
    /// (the node itself as target).
    private static func pushHandlerEntry(_ L: LuaState) throws {
        switch lua_type(L, 3) {
        case LUA_TFUNCTION:
            lua_pushvalue(L, 3)
        case LUA_TSTRING:
            try checkMethod(L, target: 1, name: 3)
            tk_newtable(L)
            lua_pushvalue(L, 3); lua_rawseti(L, -2, 2)
            lua_pushboolean(L, 1); lua_rawseti(L, -2, 3)
        case LUA_TTABLE, LUA_TUSERDATA:
            guard lua_type(L, 4) == LUA_TSTRING else {
                throw argumentError(L, 4, "registerForTraitChanges", expected: "a method name")
            }
            try checkMethod(L, target: 3, name: 4)
            tk_newtable(L)
            lua_pushvalue(L, 3); lua_rawseti(L, -2, 1)
            lua_pushvalue(L, 4); lua_rawseti(L, -2, 2)
            makeWeak(L, "v")
        default:
            throw argumentError(L, 3, "registerForTraitChanges", expected: "a function, a method name, or a target and a method name")
        }
    }

    /// Refuses a target-action registration whose target has no such method now, at the
    /// caller's line, instead of failing at the first change. The method is looked up as the
    /// call will look it up (`target[name]`, through `__index`), in protected mode.
    private static func checkMethod(_ L: LuaState, target: Int32, name: Int32) throws {
        let runtime = LuaRuntime.of(L)
        pushFunctionRef(L, runtime.methodLookupRef)
        lua_pushvalue(L, target)
        lua_pushvalue(L, name)
        try runtime.protectedCall(L, nargs: 2, nresults: 1)
        let found = lua_type(L, -1)
        tk_pop(L, 1)
        guard found != LUA_TFUNCTION else { return }
        let method = string(L, name) ?? ""
        let owner = (LuaObject.peek(L, target) as? TraitEnvironment)?.debugName ?? TraitValues.describeValue(L, target)
        let hint = didYouMean(method, in: LuaObject.memberNames(L, target))
        throw LuaError("registerForTraitChanges: the target \(owner) has no method '\(clipped(method))'"
            + (hint.isEmpty ? " (define it before registering, or pass a function)" : hint))
    }

    static let unregister: SwiftLuaFunction = { L in
        guarded(L) { L in
            let node = try NodeArgs.node(L, 1, "unregisterForTraitChanges")
            let registration = try LuaObject.check(L, 2, TraitChangeRegistration.self, "unregisterForTraitChanges",
                                                   expected: "a registration token")
            // Only a registration of this node, and only once.
            guard node.unregisterForTraitChanges(registration), let box = LuaObject.box(L, 2) else { return 0 }
            HandlerSlot.remove(L, node: 1, id: box.pointee.handler)
            box.pointee.handler = 0
            return 0
        }
    }
}

extension LuaRuntime {
    /// Runs the Lua side of registration `id` of `node`; nothing once the node's userdata,
    /// which owns it, is gone.
    func fireHandler(_ id: Int64, of node: TraitEnvironment, previous: TraitCollection) throws {
        // Stack: the traceback handler, the collections' identity cache (for `previous`), the
        // node, what to call, arguments; all dropped at the end.
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let handler = pushMessageHandler(L)
        pushRef(L, collectionCacheRef)
        let cache = handler + 1, ud = handler + 2
        guard LuaObject.pushExisting(L, node) else { return }
        let runtime = Unmanaged.passUnretained(self)
        switch HandlerSlot.push(L, node: ud, id: id) {
        case LUA_TFUNCTION:
            lua_pushvalue(L, ud)
            LuaObject.pushCollection(L, previous, cache: cache, runtime)
            try protectedCall(L, nargs: 2, nresults: 0, handler: handler)
        case LUA_TTABLE:
            let entry = lua_gettop(L)
            pushFunctionRef(L, callTargetRef)
            if lua_rawgeti(L, entry, 3) == LUA_TBOOLEAN {
                tk_pop(L, 1)
                lua_pushvalue(L, ud)
            } else {
                tk_pop(L, 1)
                if lua_rawgeti(L, entry, 1) == LUA_TNIL { return }  // the target was collected
            }
            lua_rawgeti(L, entry, 2)
            lua_pushvalue(L, ud)
            LuaObject.pushCollection(L, previous, cache: cache, runtime)
            try protectedCall(L, nargs: 4, nresults: 0, handler: handler)
        default:
            return
        }
    }
}
