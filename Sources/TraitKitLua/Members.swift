import CLua
import TraitKit

/// The methods and properties a class of engine object offers to Lua.
///
/// Built once per state into two Lua tables per class (getters and methods in one, setters in
/// the other) so `__index` is one raw table lookup on an interned string: no Swift hashing on
/// the path of `node.traitCollection.Theme`.
struct Members {
    var methods: [(String, SwiftLuaFunction)] = []
    var getters: [(String, SwiftLuaFunction)] = []
    var setters: [(String, SwiftLuaFunction)] = []

    static func + (a: Members, b: Members) -> Members {
        Members(methods: a.methods + b.methods, getters: a.getters + b.getters, setters: a.setters + b.setters)
    }

    /// Builds the two tables, each made at its final size (grown key by key, a class's table
    /// is rehashed about seven times); returns their registry refs.
    func install(_ L: LuaState) -> (getters: Int32, setters: Int32) {
        lua_createtable(L, 0, Int32(getters.count + methods.count))
        for (name, f) in getters {
            lua_pushlightuserdata(L, unsafeBitCast(f, to: UnsafeMutableRawPointer.self))
            rawSetField(L, -2, name)
        }
        for (name, f) in methods {
            push(L, f)
            rawSetField(L, -2, name)
        }
        let getterRef = luaL_ref(L, tk_registryindex())
        lua_createtable(L, 0, Int32(setters.count))
        for (name, f) in setters {
            lua_pushlightuserdata(L, unsafeBitCast(f, to: UnsafeMutableRawPointer.self))
            rawSetField(L, -2, name)
        }
        let setterRef = luaL_ref(L, tk_registryindex())
        return (getterRef, setterRef)
    }
}

/// `__index` shared by every engine object: members, then per-instance fields, then the Lua
/// class chain; unknown keys read as nil (per-instance fields may be set at any time).
let indexObject: SwiftLuaFunction = { L in
    guarded(L) { L in
        let box = try LuaObject.checkBox(L, 1)
        let members = box.pointee.members
        pushRef(L, members)
        lua_pushvalue(L, 2)
        switch lua_rawget(L, -2) {
        case LUA_TLIGHTUSERDATA:
            let getter = unsafeBitCast(lua_touserdata(L, -1), to: SwiftLuaFunction.self)
            tk_pop(L, 2)
            return getter(L)
        case LUA_TNIL:
            tk_pop(L, 2)
        default:
            return 1
        }
        return try LuaRuntime.of(L).indexFallback(L, kind: box.pointee.kind)
    }
}

/// What the node `__index` (`tk_node_index`, which looks up members and fields in C) leaves to
/// Swift: the Lua class chain, or the error for a stranger or a finalized node.
let indexNodeFallback: SwiftLuaFunction = { L in
    guarded(L) { L in
        let box = try LuaObject.checkBox(L, 1)
        return try LuaRuntime.of(L).indexFallback(L, kind: box.pointee.kind)
    }
}

/// `__newindex`: a property setter, else a per-instance field.
///
/// A member without a setter (`window`, `addSubview`) is refused: `__index` finds members
/// first, so a field stored under its name could never be read back, and the assignment would
/// do nothing without a word.
let newIndexObject: SwiftLuaFunction = { L in
    guarded(L) { L in
        let box = try LuaObject.checkBox(L, 1)
        pushRef(L, box.pointee.setters)
        lua_pushvalue(L, 2)
        if lua_rawget(L, -2) == LUA_TLIGHTUSERDATA {
            let setter = unsafeBitCast(lua_touserdata(L, -1), to: SwiftLuaFunction.self)
            tk_pop(L, 2)
            return setter(L)
        }
        tk_pop(L, 2)
        if let what = unassignableMember(L, box, key: 2) {
            let owner = (LuaObject.peek(L, 1) as? TraitEnvironment)?.debugName ?? typeName(L, 1)
            throw LuaError("cannot set '\(clipped(string(L, 2) ?? ""))' of \(owner): it is \(what)")
        }
        return try LuaRuntime.of(L).newIndexFallback(L, kind: box.pointee.kind)
    }
}

/// What the key at `key` names on the object whose box is `box` when it has no setter: "a
/// read-only property", with what to write instead for the ones scripts most often assign,
/// or "a method"; nil when it names no member.
func unassignableMember(_ L: LuaState, _ box: UnsafeMutablePointer<LuaObject.Box>, key: Int32) -> String? {
    guard lua_type(L, key) == LUA_TSTRING else { return nil }
    pushRef(L, box.pointee.members)
    lua_pushvalue(L, key)
    let member = lua_rawget(L, -2)
    tk_pop(L, 2)
    guard member != LUA_TNIL else { return nil }
    guard member == LUA_TLIGHTUSERDATA else { return "a method" }
    return "a read-only property" + (readOnlyHints[string(L, key) ?? ""].map { " (\($0))" } ?? "")
}

/// What to write instead, for the read-only properties a script most often tries to assign.
private let readOnlyHints: [String: String] = [
    "traitCollection": "set node.traitOverrides instead; tk.update() then recomputes the collection",
    "superview": "add it with parent:addSubview(view), remove it with view:removeFromSuperview()",
    "subviews": "add with view:addSubview(child) or view:insertSubview(child, i)",
    "parent": "add it with parent:addChild(controller), remove it with controller:removeFromParent()",
    "children": "add with controller:addChild(child)",
    "window": "add its top view to a window's root view controller's view",
    "traitOverrides": "set its fields: node.traitOverrides.Theme = value",
]
