import CLua
import TraitKit

/// `tk.TraitCollection` and collection objects (R3, R11).
enum CollectionModule {
    /// The writable traits handed to a builder function (`tk.TraitCollection(function(t) ... end)`).
    final class Builder {
        var traits: MutableTraits
        /// `.anchored` when what it builds reaches Lua as a collection (which then anchors the
        /// values); the builder's userdata anchors them meanwhile.
        let hold: LuaValueBox.Hold
        init(_ start: TraitCollection, hold: LuaValueBox.Hold) {
            traits = MutableTraits(start)
            self.hold = hold
        }
    }

    static let members = Members(
        methods: [
            ("modifying", modifying), ("changedTraits", changedTraits),
            ("hasDifferentColorAppearance", hasDifferentColorAppearance), ("toTable", toTable),
            ("toJSON", toJSON), ("performAsCurrent", performAsCurrent), ("containsTraits", containsTraits),
        ])

    static func install(_ runtime: LuaRuntime, into module: Int32) {
        let L = runtime.L
        runtime.register(members, for: TraitCollection.self)
        runtime.register(Members(), for: Builder.self)
        tk_newtable(L)
        push(L, fromJSON); rawSetField(L, -2, "fromJSON")
        push(L, traitsFrom); rawSetField(L, -2, "traitsFrom")
        tk_newtable(L)
        push(L, construct); rawSetField(L, -2, "__call")
        push(L, classIndex); rawSetField(L, -2, "__index")
        push(L, classNewIndex); rawSetField(L, -2, "__newindex")
        lua_setmetatable(L, -2)
        rawSetField(L, module, "TraitCollection")
    }

    /// `tk.TraitCollection{...}` / `tk.TraitCollection(function(t) ... end)`.
    static let construct: SwiftLuaFunction = { L in
        guardedPassingErrors(L) { L in
            guard [LUA_TNONE, LUA_TNIL, LUA_TTABLE, LUA_TFUNCTION].contains(lua_type(L, 2)) else {
                throw constructorArgumentError(L, "TraitCollection", expected: buildable)
            }
            let tc = try build(L, 2, from: TraitCollection(), "TraitCollection", hold: .anchored)
            LuaObject.push(L, tc, .collection)
            return 1
        }
    }

    /// `tk.TraitCollection.current`; any other name the class table does not hold is an
    /// error that names the nearest one it has, or for UIKit's class lists of system traits
    /// (`UITraitCollection.systemTraitsAffectingColorAppearance`) where TraitKit has them.
    static let classIndex: SwiftLuaFunction = { L in
        guarded(L) { L in
            guard string(L, 2) == "current" else {
                let key = string(L, 2) ?? typeName(L, 2)
                let hint = lua_type(L, 2) != LUA_TSTRING ? ""
                    : TraitModule.semanticSets[key] != nil ? " (it is tk.\(key))"
                    : didYouMean(key, in: ["current"] + stringKeys(L, 1))
                throw LuaError("TraitCollection has no field '\(clipped(key))'\(hint)")
            }
            LuaObject.push(L, TraitCollection.current, .collection)
            return 1
        }
    }

    /// `tk.TraitCollection.current = tc`, as UIKit's `UITraitCollection.current = tc` (the
    /// dark-mode notes' third way to resolve a CGColor). Without it, the assignment would
    /// store a plain field that hides the real `current` from then on.
    static let classNewIndex: SwiftLuaFunction = { L in
        guarded(L) { L in
            guard string(L, 2) == "current" else {
                throw LuaError("cannot set '\(clipped(string(L, 2) ?? typeName(L, 2)))' on tk.TraitCollection (only 'current' can be set)")
            }
            TraitCollection.current = try check(L, 3, "TraitCollection.current")
            return 0
        }
    }

    /// What `build` accepts, for messages.
    static let buildable = "a table of traits or a builder function"

    /// A collection from `start` changed by the table or builder function at `i` (nil: unchanged).
    /// `.anchored` only when the caller pushes the collection to Lua before anything can
    /// collect the values (`LuaValueBox`). A builder function leaves its builder's userdata on
    /// the stack, where it anchors those values until the calling Lua function returns.
    static func build(_ L: LuaState, _ i: Int32, from start: TraitCollection, _ function: String,
                      hold: LuaValueBox.Hold = .pinned) throws -> TraitCollection {
        switch lua_type(L, i) {
        case LUA_TNONE, LUA_TNIL:
            return start
        case LUA_TTABLE:
            var traits = MutableTraits(start)
            try forEachPair(L, i) {
                guard let trait = try TraitValues.traitKey(L, -2) else {
                    throw LuaError("bad key in traits table for '\(function)' (expected a trait or trait name, got \(typeName(L, -2)))")
                }
                try traits.set(try TraitValues.value(L, -1, for: trait, hold: hold), for: trait)
            }
            return TraitCollection(traits)
        case LUA_TFUNCTION:
            // The builder's userdata anchors the object values the function sets (`t.Obj =
            // {...}`) until the collection's own userdata does: it stays on the stack below the
            // call, so no collection step between the call and the caller's push can free them.
            let builder = Builder(start, hold: hold)
            let function = absolute(L, i)
            LuaObject.push(L, builder, .mutableTraits)
            lua_pushvalue(L, function)
            lua_pushvalue(L, -2)
            try LuaRuntime.of(L).protectedCall(L, nargs: 1)
            return TraitCollection(builder.traits)
        default:
            throw argumentError(L, i, function, expected: buildable)
        }
    }

    /// Reads a trait from a collection or builder (`tc.Theme`, `tc[Theme]`).
    static func indexTrait(_ L: LuaState) throws -> Int32 {
        guard let trait = try TraitValues.traitOrMethodKey(L, 2, methodsOf: 1) else {
            throw LuaError("bad key for a trait collection (expected a trait or trait name, got \(typeName(L, 2)))")
        }
        switch LuaObject.peek(L, 1) {
        case let tc as TraitCollection:
            TraitValues.push(L, tc[trait], of: trait)
            remember(L)
        case let builder as Builder:
            TraitValues.push(L, builder.traits.value(for: trait), of: trait)
        default:
            throw LuaError("not a trait collection")
        }
        return 1
    }

    /// Keeps the value on top as the collection's last read (`TK_LAST_KEY`, `TK_LAST_VALUE`),
    /// where `tk_collection_index` answers the next read of that key; from the collection's
    /// `memoAfter`-th read on, also in its user value table, the memo, which answers every key
    /// read before. The key is a trait name or a trait object (what `TraitValues.traitKey`
    /// took); not tables (a record's table is the script's to change) or nil. The memo is a
    /// table of the collection's own, which a collection read for one trait never needs.
    private static func remember(_ L: LuaState) {
        let value = lua_gettop(L)
        let key = lua_type(L, 2)
        guard key == LUA_TSTRING || key == LUA_TUSERDATA, lua_type(L, value) != LUA_TTABLE,
              lua_type(L, value) != LUA_TNIL, let box = LuaObject.box(L, 1) else {
            return
        }
        // A collection's box has no handler: the field counts its reads.
        box.pointee.handler += 1
        if box.pointee.handler >= memoAfter {
            LuaObject.pushUserValue(L, 1)
            // The read this one replaces as the last goes to the memo too.
            if lua_getiuservalue(L, 1, TK_LAST_KEY) > LUA_TNIL {
                lua_getiuservalue(L, 1, TK_LAST_VALUE)
                lua_rawset(L, -3)
            } else {
                tk_pop(L, 1)
            }
            lua_pushvalue(L, 2)
            lua_pushvalue(L, value)
            lua_rawset(L, -3)
            tk_pop(L, 1)
        }
        lua_pushvalue(L, 2)
        _ = lua_setiuservalue(L, 1, TK_LAST_KEY)
        lua_pushvalue(L, value)
        _ = lua_setiuservalue(L, 1, TK_LAST_VALUE)
    }

    static let memoAfter = 3

    /// `t.name = value` inside a builder function.
    static func setBuilderTrait(_ L: LuaState) throws -> Int32 {
        let builder = try LuaObject.check(L, 1, Builder.self, "__newindex")
        guard let trait = try TraitValues.traitKey(L, 2) else {
            throw LuaError("bad key for traits (expected a trait or trait name, got \(typeName(L, 2)))")
        }
        try builder.traits.set(try TraitValues.value(L, 3, for: trait, hold: builder.hold), for: trait)
        if builder.hold == .anchored, trait.kind == .object {
            ValueAnchors.set(L, 3, in: 1, slot: trait.id)
        }
        return 0
    }

    static func check(_ L: LuaState, _ i: Int32, _ function: String) throws -> TraitCollection {
        try LuaObject.check(L, i, TraitCollection.self, function, expected: "a TraitCollection")
    }

    static let modifying: SwiftLuaFunction = { L in
        guardedPassingErrors(L) { L in
            let tc = try check(L, 1, "modifying")
            LuaObject.push(L, try build(L, 2, from: tc, "modifying", hold: .anchored), .collection)
            return 1
        }
    }

    static let changedTraits: SwiftLuaFunction = { L in
        guarded(L) { L in
            let tc = try check(L, 1, "changedTraits")
            let other = try check(L, 2, "changedTraits")
            let changed = tc.changedTraits(from: other)
            lua_createtable(L, Int32(changed.count), 0)
            for (n, trait) in changed.enumerated() {
                push(L, trait.name)
                lua_rawseti(L, -2, lua_Integer(n + 1))
            }
            return 1
        }
    }

    static let hasDifferentColorAppearance: SwiftLuaFunction = { L in
        guarded(L) { L in
            let tc = try check(L, 1, "hasDifferentColorAppearance")
            // UIKit takes an optional: the first change has no previous collection, and any
            // appearance differs from none (the dark-mode notes pass previousTraitCollection).
            guard !isNil(L, 2) else { lua_pushboolean(L, 1); return 1 }
            let other = try check(L, 2, "hasDifferentColorAppearance")
            lua_pushboolean(L, tc.hasDifferentColorAppearance(comparedTo: other) ? 1 : 0)
            return 1
        }
    }

    /// `tc:containsTraits(other)`: every trait `other` specifies has the same value in `tc`
    /// (nil specifies nothing).
    static let containsTraits: SwiftLuaFunction = { L in
        guarded(L) { L in
            let tc = try check(L, 1, "containsTraits")
            let other = isNil(L, 2) ? nil : try check(L, 2, "containsTraits")
            lua_pushboolean(L, tc.containsTraits(in: other) ? 1 : 0)
            return 1
        }
    }

    /// `tk.TraitCollection.traitsFrom{ a, b, ... }`: the traits each specifies, later ones
    /// winning, as `UITraitCollection(traitsFrom:)`.
    static let traitsFrom: SwiftLuaFunction = { L in
        guarded(L) { L in
            guard lua_type(L, 1) == LUA_TTABLE else {
                throw argumentError(L, 1, "TraitCollection.traitsFrom", expected: "a list of TraitCollections")
            }
            var collections: [TraitCollection] = []
            // Raw length: `#` could run a __len metamethod, which may raise.
            let count = lua_Integer(lua_rawlen(L, 1))
            for i in 0..<count {
                lua_rawgeti(L, 1, i + 1)
                guard let tc = LuaObject.peek(L, -1) as? TraitCollection else {
                    throw LuaError("bad argument #1 to 'TraitCollection.traitsFrom' (item \(i + 1) is \(typeName(L, -1)), expected a TraitCollection)")
                }
                collections.append(tc)
                tk_pop(L, 1)
            }
            LuaObject.push(L, TraitCollection(traitsFrom: collections), .collection)
            return 1
        }
    }

    static let toTable: SwiftLuaFunction = { L in
        guarded(L) { L in
            let tc = try check(L, 1, "toTable")
            Pairs.pushTable(L, tc.nonDefaultTraits) { tc[$0] }
            return 1
        }
    }

    static let toJSON: SwiftLuaFunction = { L in
        guarded(L) { L in
            push(L, try check(L, 1, "toJSON").toJSON())
            return 1
        }
    }

    /// The keys of `fromJSON`'s options table.
    static let fromJSONOptions = ["skipUnknown"]

    /// `tk.TraitCollection.fromJSON(s[, { skipUnknown = true }])`.
    static let fromJSON: SwiftLuaFunction = { L in
        guarded(L) { L in
            let text = try checkString(L, 1, "fromJSON")
            if lua_type(L, 2) == LUA_TTABLE { try checkFieldNames(L, 2, "fromJSON", allowed: fromJSONOptions) }
            let skip = lua_type(L, 2) == LUA_TTABLE && rawGetField(L, 2, "skipUnknown") != LUA_TNIL
                && lua_toboolean(L, -1) != 0
            LuaObject.push(L, try TraitCollection.fromJSON(text, skipUnknown: skip), .collection)
            return 1
        }
    }

    /// `tc:performAsCurrent(fn)`: calls fn with `current` set, restoring it even on error.
    static let performAsCurrent: SwiftLuaFunction = { L in
        guardedPassingErrors(L) { L in
            let tc = try check(L, 1, "performAsCurrent")
            try checkFunction(L, 2, "performAsCurrent")
            let runtime = LuaRuntime.of(L)
            lua_settop(L, 2)
            try tc.performAsCurrent { try runtime.protectedCall(L, nargs: 0, nresults: LUA_MULTRET) }
            return lua_gettop(L) - 1
        }
    }
}

