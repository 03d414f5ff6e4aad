import CLua
import TraitKit

/// `pairs(tc)` and `pairs(node.traitOverrides)`: trait name → value, in definition order (as
/// `tostring` and `changedTraits` list them), so a script's output is the same on every run;
/// Lua's own `next` would follow the string hashes, which Lua seeds afresh per process.
///
/// The loop runs over a snapshot made when it starts (names in order, and values by name), so
/// changing overrides inside the loop is safe. The iterator is Lua code, stateless like `next`:
/// a bad key is a Lua error raised by Lua, and no error ever crosses a Swift frame.
enum Pairs {
    /// Pushes the `__pairs` metamethod. The iterator's state is the snapshot: `state[i]` is
    /// the i-th name, `state.values[name]` its value, `state.after[name]` the index after it.
    static func pushMetamethod(_ L: LuaState) {
        let source = """
            local snapshot, error = ...
            local function step(state, name)
              local i = 1
              if name ~= nil then
                i = state.after[name]
                if i == nil then error("invalid key to 'next'", 2) end
              end
              name = state[i]
              if name ~= nil then return name, state.values[name] end
            end
            return function(o) return step, snapshot(o), nil end
            """
        _ = tk_loadbuffer(L, source, source.utf8.count, "=[traitkit pairs]", "t")
        push(L, snapshot)
        rawGetGlobal(L, "error")
        if tk_pcall(L, 2, 1, 0) != LUA_OK { tk_pop(L, 1); lua_pushnil(L) }
    }

    /// The iterator state for the object at 1: its names in order, their values, and the
    /// index after each name.
    private static let snapshot: SwiftLuaFunction = { L in
        guarded(L) { L in
            let traits: [Trait]
            let value: (Trait) throws -> TraitValue
            // A node's overrides, not the node: a view passed here is refused, not iterated.
            if let tc = LuaObject.peek(L, 1) as? TraitCollection {
                traits = tc.nonDefaultTraits
                value = { tc[$0] }
            } else if let node = try OverridesModule.node(L, 1) {
                guard let overrides = node.traitOverridesIfAny else { throw TraitError.screenHasNoOverrides }
                traits = overrides.traits
                value = { try overrides.value(for: $0) }
            } else {
                throw LuaError("bad argument #1 to 'pairs' (expected a TraitCollection or traitOverrides, got \(typeName(L, 1)))")
            }
            lua_createtable(L, Int32(traits.count), 2)
            try pushTable(L, traits, value: value)
            rawSetField(L, -2, "values")
            lua_createtable(L, 0, Int32(traits.count))
            for (i, trait) in traits.enumerated() {
                push(L, trait.name)
                lua_pushvalue(L, -1)
                lua_rawseti(L, -4, lua_Integer(i + 1))
                lua_pushinteger(L, lua_Integer(i + 2))
                lua_rawset(L, -3)
            }
            rawSetField(L, -2, "after")
            return 1
        }
    }

    /// Pushes the `__pairs` metamethod of nodes: `pairs(node)` goes over the fields a script
    /// set on the node, as over a plain object's own fields (a class's values and methods are
    /// not its own), in `next`'s order, over a copy made when the loop starts.
    static func pushNodeMetamethod(_ L: LuaState) {
        let source = "local next, fields = ... return function(o) return next, fields(o), nil end"
        _ = tk_loadbuffer(L, source, source.utf8.count, "=[traitkit pairs]", "t")
        rawGetGlobal(L, "next")
        push(L, nodeFields)
        if tk_pcall(L, 2, 1, 0) != LUA_OK { tk_pop(L, 1); lua_pushnil(L) }
    }

    /// A copy of the fields of the node at 1: its user value table without the binding's own
    /// keys (light userdata, which no script can make).
    private static let nodeFields: SwiftLuaFunction = { L in
        guarded(L) { L in
            guard LuaObject.box(L, 1)?.pointee.kind == LuaObject.Kind.node.rawValue else {
                throw LuaError("bad argument #1 to 'pairs' (expected a node, got \(typeName(L, 1)))")
            }
            _ = try LuaObject.checkBox(L, 1)  // not after its finalizer ran
            tk_newtable(L)
            guard tk_getuservalue(L, 1) == LUA_TTABLE else { tk_pop(L, 1); return 1 }
            lua_pushnil(L)
            while lua_next(L, -2) != 0 {
                if lua_type(L, -2) == LUA_TLIGHTUSERDATA { tk_pop(L, 1); continue }
                lua_pushvalue(L, -2)
                tk_insert(L, -2)
                lua_rawset(L, -5)
            }
            tk_pop(L, 1)
            return 1
        }
    }

    /// Pushes `{[trait.name] = value}` for `traits`, values as Lua sees them.
    static func pushTable(_ L: LuaState, _ traits: [Trait], value: (Trait) throws -> TraitValue) rethrows {
        lua_createtable(L, 0, Int32(traits.count))
        for trait in traits {
            TraitValues.push(L, try value(trait), of: trait)
            rawSetField(L, -2, trait.name)
        }
    }
}
