import CLua
import TraitKit

/// What `__index` and `__newindex` of engine objects do once members and fields did not
/// answer: the Lua class chain, per-instance fields, and errors that name what exists.
extension LuaRuntime {
    func indexFallback(_ L: LuaState, kind: Int32) throws -> Int32 {
        switch LuaObject.Kind(rawValue: kind) {
        case .node, .element:
            if tk_getuservalue(L, 1) == LUA_TTABLE {
                lua_pushvalue(L, 2)
                if lua_rawget(L, -2) != LUA_TNIL { return 1 }
                tk_pop(L, 1)
                if lua_rawgetp(L, -1, UVKey.classTable) == LUA_TTABLE, lua_type(L, 2) == LUA_TSTRING {
                    let classTable = lua_gettop(L)
                    lua_pushvalue(L, classTable)
                    if findInClassChain(L, key: 2, builtins: true, values: true) { return 1 }
                    if kind == LuaObject.Kind.node.rawValue, isEngineClass(L, classTable) { throw unknownMember(L) }
                    lua_pushnil(L)
                    return 1
                }
                tk_pop(L, 1)
            }
            tk_pop(L, 1)
            if lua_type(L, 2) == LUA_TSTRING, pushDefaultClass(L, 1), findInClassChain(L, key: 2, builtins: true) { return 1 }
            if kind == LuaObject.Kind.node.rawValue, lua_type(L, 2) == LUA_TSTRING { throw unknownMember(L) }
            lua_pushnil(L)
            return 1
        case .collection, .mutableTraits:
            return try CollectionModule.indexTrait(L)
        case .environment:
            return try DeclarativeModule.indexEnvironment(L)
        case .trait where string(L, 2) == "self":
            // UIKit's `traitCollection[MyTrait.self]`, ported word for word.
            throw LuaError("Trait has no field 'self' (a trait object is its own key: tc[Trait], where UIKit writes traitCollection[Trait.self])")
        default:
            let key = string(L, 2) ?? typeName(L, 2)
            let names = LuaObject.memberNames(L, 1)
            let hint = lua_type(L, 2) == LUA_TSTRING ? didYouMean(key, in: names) : ""
            throw LuaError("\(typeName(L, 1)) has no field '\(clipped(key))'"
                + (!hint.isEmpty ? hint : names.isEmpty ? "" : " (it has: \(names.joined(separator: ", ")))"))
        }
    }

    /// Whether the class table at `i` is one of the engine's own (`tk.View`), not a script's
    /// subclass: its instances are strict about names, a subclass's are plain Lua objects.
    private func isEngineClass(_ L: LuaState, _ i: Int32) -> Bool {
        defer { tk_pop(L, 1) }
        guard rawGetField(L, i, "__name") == LUA_TSTRING, let name = string(L, -1) else { return false }
        return ClassModule.engineClasses.contains { $0.name == name }
    }

    /// Reading a name an engine object has neither as a member nor as a field the script set
    /// (`v.supervew`, `v.isHidden`): an error, so "not supported" does not look like "not set".
    private func unknownMember(_ L: LuaState) -> LuaError {
        let key = string(L, 2) ?? ""
        var candidates = LuaObject.memberNames(L, 1) + NodeEvent.allCases.map(\.rawValue)
        if tk_getuservalue(L, 1) == LUA_TTABLE { candidates += stringKeys(L, -1) }
        tk_pop(L, 1)
        let owner = (LuaObject.peek(L, 1) as? TraitEnvironment)?.debugName ?? typeName(L, 1)
        return LuaError("\(owner) has no member '\(clipped(key))'" + didYouMean(key, in: candidates)
            + " (fields a script sets on it can be read back)")
    }

    func newIndexFallback(_ L: LuaState, kind: Int32) throws -> Int32 {
        switch LuaObject.Kind(rawValue: kind) {
        case .node:
            try checkFieldKey(L, 2)
            try noteDefinition(L, key: 2, value: 3)
            LuaObject.pushUserValue(L, 1)
            lua_pushvalue(L, 2)
            lua_pushvalue(L, 3)
            lua_rawset(L, -3)
            return 0
        case .mutableTraits:
            return try CollectionModule.setBuilderTrait(L)
        case .collection:
            let key = (LuaObject.peek(L, 2) as? Trait)?.name ?? string(L, 2) ?? typeName(L, 2)
            throw LuaError("cannot set field '\(clipped(key))' of TraitCollection: collections are immutable "
                           + "(tc:modifying{ \(clipped(key)) = value } makes a changed copy)")
        default:
            let key = string(L, 2) ?? typeName(L, 2)
            throw LuaError("cannot set field '\(clipped(key))' of \(typeName(L, 1)) (\(settableFields(L, of: 1)))")
        }
    }

    /// "settable: a, b" for the object at `i`, from its class's setter table, for messages.
    private func settableFields(_ L: LuaState, of i: Int32) -> String {
        let names = setterNames(L, of: i)
        return names.isEmpty ? "it has no settable fields" : "settable: " + names.sorted().joined(separator: ", ")
    }

    /// The names in the setter table of the object at `i` (none when it is not one of ours).
    func setterNames(_ L: LuaState, of i: Int32) -> [String] {
        guard let box = LuaObject.box(L, i) else { return [] }
        pushRef(L, box.pointee.setters)
        defer { tk_pop(L, 1) }
        return stringKeys(L, -1)
    }
}
