import CLua
import TraitKit

/// `tk.EnvironmentKey`, `tk.elements`, `tk.HostingController`, `tk.HostingConfiguration` (R10).
///
/// Lua functions of an element (body, make, customize) live in the element's user value; an
/// element holds its children's userdata the same way, and a hosting view holds its root and
/// every body result, so the collector sees all of it and nothing sits in the registry.
enum DeclarativeModule {
    static func install(_ runtime: LuaRuntime, into module: Int32) {
        let L = runtime.L
        runtime.register(elementMembers, for: Element.self)
        runtime.register(keyMembers, for: EnvironmentKey.self)
        runtime.register(Members(), for: EnvironmentReader.self)
        runtime.register(Members(), for: HostingConfiguration.self)
        tk_newtable(L)
        runtime.environmentKeysRef = luaL_ref(L, tk_registryindex())
        for key in EnvironmentKey.builtIn { registerKey(L, key) }
        push(L, makeKey); rawSetField(L, module, "EnvironmentKey")
        tk_newtable(L)
        for primitive in Element.Primitive.allCases {
            push(L, primitive.rawValue)
            tk_pushswift_with(L, makePrimitive, 1)
            rawSetField(L, -2, primitive.rawValue)
        }
        push(L, makeCustom); rawSetField(L, -2, "Custom")
        push(L, makeControllerRepresentable); rawSetField(L, -2, "ViewControllerRepresentable")
        push(L, makeViewRepresentable); rawSetField(L, -2, "ViewRepresentable")
        rawSetField(L, module, "elements")
        push(L, makeConfiguration); rawSetField(L, module, "HostingConfiguration")
    }

    // MARK: Environment keys

    static func registerKey(_ L: LuaState, _ key: EnvironmentKey) {
        pushRef(L, LuaRuntime.of(L).environmentKeysRef)
        LuaObject.push(L, key, .environmentKey)
        rawSetField(L, -2, key.name)
        tk_pop(L, 1)
    }

    /// The key named or given at `i`.
    static func checkKey(_ L: LuaState, _ i: Int32, _ function: String) throws -> EnvironmentKey {
        if let key = LuaObject.peek(L, i) as? EnvironmentKey { return key }
        guard let name = string(L, i) else { throw argumentError(L, i, function, expected: "an environment key or key name") }
        pushRef(L, LuaRuntime.of(L).environmentKeysRef)
        defer { tk_pop(L, 2) }
        guard rawGetField(L, -1, name) == LUA_TUSERDATA, let key = LuaObject.peek(L, -1) as? EnvironmentKey else {
            throw LuaError("unknown environment key '\(clipped(name))' (define it with tk.EnvironmentKey first)")
        }
        return key
    }

    /// `key.name`, `key.default`, `key.bridge` (the trait it bridges one to one, or a built-in
    /// key's trait; nil otherwise).
    static let keyMembers = Members(getters: [
        ("name", { L in
            guarded(L) { L in push(L, try LuaObject.check(L, 1, EnvironmentKey.self, "name").name); return 1 }
        }),
        ("default", { L in
            guarded(L) { L in
                let key = try LuaObject.check(L, 1, EnvironmentKey.self, "default")
                pushValue(L, key.defaultValue, for: key)
                return 1
            }
        }),
        ("bridge", { L in
            guarded(L) { L in
                let key = try LuaObject.check(L, 1, EnvironmentKey.self, "bridge")
                if let trait = key.bridgedTrait { LuaObject.push(L, trait, .trait) } else { lua_pushnil(L) }
                return 1
            }
        }),
    ])

    /// The keys `tk.EnvironmentKey{...}` takes.
    static let keyFields = ["name", "default", "bridge", "read", "write"]
    /// The keys of `E.Custom{...}`, `E.ViewRepresentable{...}` (and the controller one) and
    /// `tk.HostingConfiguration{...}`.
    static let customFields = ["name", "body"]
    static let representableFields = ["make"]
    static let configurationFields = ["root"]

    /// The fields of a key's table: known names, functions where functions go, a bridge or a
    /// read/write pair but not both; and a name no built-in key has.
    private static func checkKeyFields(_ L: LuaState) throws -> String {
        try checkFieldNames(L, 1, "EnvironmentKey", allowed: keyFields)
        guard rawGetField(L, 1, "name") == LUA_TSTRING, let name = string(L, -1), !name.isEmpty else {
            throw LuaError("EnvironmentKey: 'name' must be a non-empty string")
        }
        tk_pop(L, 1)
        if let builtIn = EnvironmentKey.builtIn.first(where: { $0.name == name }), let trait = builtIn.bridgedTrait {
            throw LuaError("EnvironmentKey: '\(clipped(name))' is a built-in key (it bridges \(trait.name)); choose another name")
        }
        let bridged = rawGetField(L, 1, "bridge") != LUA_TNIL
        tk_pop(L, 1)
        let read = try functionField(L, "read"), write = try functionField(L, "write")
        if bridged && (read || write) {
            throw LuaError("EnvironmentKey: give either 'bridge' (one trait) or 'read'/'write' functions, not both")
        }
        return name
    }

    /// Whether the key's table has a function under `field`; anything else there is an error.
    private static func functionField(_ L: LuaState, _ field: String) throws -> Bool {
        defer { tk_pop(L, 1) }
        switch rawGetField(L, 1, field) {
        case LUA_TNIL: return false
        case LUA_TFUNCTION: return true
        default: throw LuaError("EnvironmentKey: '\(field)' must be a function (got \(typeName(L, -1)))")
        }
    }

    /// `tk.EnvironmentKey{ name, default, bridge = trait }` or `{ name, default, read = fn, write = fn }`.
    static let makeKey: SwiftLuaFunction = { L in
        guarded(L) { L in
            try checkTable(L, 1, "EnvironmentKey")
            let name = try checkKeyFields(L)
            if try pushRedefinedKey(L, name: name) { return 1 }
            let runtime = LuaRuntime.of(L)
            let key: EnvironmentKey
            if rawGetField(L, 1, "bridge") != LUA_TNIL {
                let trait = try TraitValues.checkTrait(L, -1, "EnvironmentKey")
                tk_pop(L, 1)
                _ = rawGetField(L, 1, "default")
                let value = isNil(L, -1) ? trait.defaultValue : try TraitValues.value(L, -1, for: trait)
                tk_pop(L, 1)
                key = EnvironmentKey(name: name, bridge: trait, defaultValue: value)
            } else {
                tk_pop(L, 1)
                _ = rawGetField(L, 1, "default")
                let value = genericValue(L, -1)
                tk_pop(L, 1)
                let hasRead = rawGetField(L, 1, "read") == LUA_TFUNCTION
                let hasWrite = rawGetField(L, 1, "write") == LUA_TFUNCTION
                tk_pop(L, 2)
                let slot = Slot()
                key = EnvironmentKey(
                    name: name, defaultValue: value,
                    read: hasRead ? { [link = runtime.link] tc in try link.runtime?.callKeyRead(slot, tc) ?? value } : nil,
                    write: hasWrite ? { [link = runtime.link] traits, v in try link.runtime?.callKeyWrite(slot, &traits, v) } : nil)
                slot.object = key
            }
            LuaObject.push(L, key, .environmentKey)
            LuaObject.pushUserValue(L, -1)
            _ = rawGetField(L, 1, "read"); rawSetField(L, -2, "read")
            _ = rawGetField(L, 1, "write"); rawSetField(L, -2, "write")
            tk_pop(L, 1)
            registerKey(L, key)
            return 1
        }
    }

    /// Lets a closure made before its object find that object (and so its userdata).
    final class Slot: @unchecked Sendable {
        weak var object: AnyObject?
    }

    /// A Lua value as an environment value: scalars as such, anything else by identity.
    static func genericValue(_ L: LuaState, _ i: Int32) -> TraitValue {
        var isInteger: Int32 = 0
        switch lua_type(L, i) {
        case LUA_TNONE, LUA_TNIL: return .none
        case LUA_TBOOLEAN: return .bool(lua_toboolean(L, i) != 0)
        case LUA_TNUMBER:
            let n = tk_tointeger(L, i, &isInteger)
            return isInteger != 0 ? .integer(Int(n)) : .number(tk_tonumber(L, i, nil))
        case LUA_TSTRING: return .string(string(L, i) ?? "")
        default: return .object(TraitObject(LuaValueBox.make(L, i, .pinned)))
        }
    }

    /// The value at `i` for `key`: converted by its trait when it bridges one.
    static func value(_ L: LuaState, _ i: Int32, for key: EnvironmentKey) throws -> TraitValue {
        if key.isDirectBridge, let trait = key.bridgedTrait { return try TraitValues.value(L, i, for: trait) }
        let value = genericValue(L, i)
        try key.validate(value)
        return value
    }

    static func pushValue(_ L: LuaState, _ value: TraitValue, for key: EnvironmentKey) {
        if key.isDirectBridge, let trait = key.bridgedTrait {
            TraitValues.push(L, value, of: trait)
        } else {
            TraitValues.pushGeneric(L, value)
        }
    }

    /// `env.key` inside a body.
    static func indexEnvironment(_ L: LuaState) throws -> Int32 {
        let reader = try LuaObject.check(L, 1, EnvironmentReader.self, "environment")
        let key = try checkKey(L, 2, "environment")
        pushValue(L, try reader[key], for: key)
        return 1
    }

    // MARK: Elements

    static let elementMembers = Members(methods: [
        ("environment", { L in
            guarded(L) { L in
                let element = try LuaObject.check(L, 1, Element.self, "environment", expected: "an element")
                let key = try checkKey(L, 2, "environment")
                let made = try checkDepth(element.environment(key, try value(L, 3, for: key)), "environment")
                pushElement(L, made, content: 1)
                return 1
            }
        }),
        ("introspect", { L in
            guarded(L) { L in
                let element = try LuaObject.check(L, 1, Element.self, "introspect", expected: "an element")
                let target = try className(L, 2, "introspect")
                try checkFunction(L, 3, "introspect")
                let runtime = LuaRuntime.of(L)
                let slot = Slot()
                let made = try checkDepth(element.introspect(target) { [link = runtime.link] node in
                    try link.runtime?.callElementFunction(slot, argument: node)
                }, "introspect")
                slot.object = made
                pushElement(L, made, content: 1, function: 3)
                return 1
            }
        }),
    ])

    /// `element` if it nests no deeper than a hierarchy may be: a deeper one could never
    /// render, and freeing it would recurse once per level.
    static func checkDepth(_ element: Element, _ function: String) throws -> Element {
        guard element.depth > HierarchyDepth.limit else { return element }
        throw LuaError("\(function): elements nest at most \(HierarchyDepth.limit) levels deep (this one would be \(element.depth))")
    }

    /// A class name from a class table or a string.
    static func className(_ L: LuaState, _ i: Int32, _ function: String) throws -> String {
        if let s = string(L, i) { return s }
        if lua_type(L, i) == LUA_TTABLE, rawGetField(L, i, "__name") == LUA_TSTRING, let s = string(L, -1) {
            tk_pop(L, 1)
            return s
        }
        throw argumentError(L, i, function, expected: "a class or class name")
    }

    /// Pushes a new element's userdata, keeping in its user value what it wraps (the element at
    /// `content`, or the table of children at `children`) and the function at `function`.
    static func pushElement(_ L: LuaState, _ element: Element, content: Int32? = nil, children: Int32? = nil,
                            function: Int32? = nil) {
        let content = content.map { absolute(L, $0) }, children = children.map { absolute(L, $0) }
        let fn = function.map { absolute(L, $0) }
        LuaObject.push(L, element, .element)
        LuaObject.pushUserValue(L, -1)
        if let children {
            lua_pushvalue(L, children)
        } else {
            lua_createtable(L, 1, 0)
            if let content {
                lua_pushvalue(L, content)
                lua_rawseti(L, -2, 1)
            }
        }
        lua_rawsetp(L, -2, UVKey.children)
        if let fn {
            lua_pushvalue(L, fn)
            lua_rawsetp(L, -2, UVKey.value)
        }
        tk_pop(L, 1)
    }

    /// The elements in the array part of the table at `i`, read one at a time (a C function
    /// has only a few stack slots without asking for more) and each put in the table on top,
    /// which the new element keeps so the Lua side of its children lives as long as it does.
    static func children(_ L: LuaState, _ i: Int32, _ function: String) throws -> [Element] {
        let t = absolute(L, i)
        var elements: [Element] = []
        for n in 1..<(rawLength(L, t) + 1) {
            lua_rawgeti(L, t, lua_Integer(n))
            guard let element = LuaObject.peek(L, -1) as? Element else {
                let got = typeName(L, -1)
                tk_pop(L, 1)
                throw LuaError("\(function): item \(n) is not an element (got \(got))")
            }
            elements.append(element)
            lua_rawseti(L, -2, lua_Integer(n))
        }
        return elements
    }

    /// `E.Text{...}`, `E.VStack{ a, b }`, ...: the primitive's name is the closure's upvalue 2.
    static let makePrimitive: SwiftLuaFunction = { L in
        guarded(L) { L in
            guard let name = string(L, tk_upvalueindex(2)), let primitive = Element.Primitive(rawValue: name) else {
                throw LuaError("unknown element")
            }
            if isNil(L, 1) { tk_newtable(L); tk_replace(L, 1) }
            try checkTable(L, 1, name)
            var attributes: [String: TraitValue] = [:]
            try forEachPair(L, 1) {
                guard let key = string(L, -2) else { return }  // the children, checked below
                attributes[key] = try attribute(L, key, of: primitive)
            }
            lua_createtable(L, Int32(clamping: rawLength(L, 1)), 0)
            let elements = try children(L, 1, name)
            let element = try checkDepth(Element(.primitive(primitive, attributes: attributes, children: elements)), name)
            pushElement(L, element, children: -1)
            return 1
        }
    }

    /// The value on top as attribute `key` of `primitive`: text is a string (a number reads
    /// as Lua prints it), `bounces` a boolean; any other key is an error naming the accepted.
    private static func attribute(_ L: LuaState, _ key: String, of primitive: Element.Primitive) throws -> TraitValue {
        let name = primitive.rawValue
        guard primitive.attributes.contains(key) else {
            let accepted = primitive.attributes.count == 1 ? "'name'" : "one of: " + primitive.attributes.joined(separator: ", ")
            throw LuaError("bad field '\(clipped(key))' in \(name){...} (expected \(accepted))")
        }
        let bad = { (expected: String) in
            LuaError("bad field '\(key)' in \(name){...} (expected \(expected), got \(typeName(L, -1)))")
        }
        if key == "bounces" {
            guard lua_type(L, -1) == LUA_TBOOLEAN else { throw bad("a boolean") }
            return .bool(lua_toboolean(L, -1) != 0)
        }
        switch lua_type(L, -1) {
        case LUA_TSTRING: return .string(string(L, -1) ?? "")
        case LUA_TNUMBER:
            var isInteger: Int32 = 0
            let n = tk_tointeger(L, -1, &isInteger)
            return .string(isInteger != 0 ? String(n) : formatNumber(tk_tonumber(L, -1, nil)))
        default: throw bad("a string")
        }
    }

    static let makeCustom: SwiftLuaFunction = { L in
        guarded(L) { L in
            try checkTable(L, 1, "Custom")
            let name = rawGetField(L, 1, "name") == LUA_TSTRING ? string(L, -1)! : "Custom"
            guard rawGetField(L, 1, "body") == LUA_TFUNCTION else {
                throw LuaError("Custom: 'body' must be a function(env) returning an element")
            }
            let runtime = LuaRuntime.of(L)
            let slot = Slot()
            let element = Element(.custom(name: name) { [link = runtime.link] reader in
                guard let runtime = link.runtime else { throw LuaError("the Lua state is closed") }
                return try runtime.callBody(slot, reader)
            })
            slot.object = element
            pushElement(L, element, function: -1)
            return 1
        }
    }

    static let makeControllerRepresentable: SwiftLuaFunction = { L in
        guarded(L) { L in
            try makeRepresentable(L, "ViewControllerRepresentable", returning: "a ViewController") { make in
                .viewControllerRepresentable(make: make)
            }
        }
    }

    static let makeViewRepresentable: SwiftLuaFunction = { L in
        guarded(L) { L in
            try makeRepresentable(L, "ViewRepresentable", returning: "a View") { make in
                .viewRepresentable(make: make)
            }
        }
    }

    /// `E.ViewControllerRepresentable{ make = fn }` / `E.ViewRepresentable{ make = fn }`: the
    /// element calls `make` (kept in its user value) when it is rendered.
    private static func makeRepresentable<T: TraitEnvironment>(_ L: LuaState, _ name: String, returning what: String,
                                                                _ kind: (@escaping () throws -> T) -> Element.Kind)
        throws -> Int32
    {
        try checkTable(L, 1, name)
        guard rawGetField(L, 1, "make") == LUA_TFUNCTION else {
            throw LuaError("\(name): 'make' must be a function returning \(what)")
        }
        let runtime = LuaRuntime.of(L)
        let slot = Slot()
        let element = Element(kind { [link = runtime.link] in
            guard let runtime = link.runtime else { throw LuaError("\(name): the Lua state is gone") }
            return try runtime.callMake(slot, T.self, name, returning: what)
        })
        slot.object = element
        pushElement(L, element, function: -1)
        return 1
    }

    /// `tk.HostingConfiguration{ root = element }` (or `(element)`), for `cell.contentConfiguration`.
    static let makeConfiguration: SwiftLuaFunction = { L in
        guarded(L) { L in
            if lua_type(L, 1) == LUA_TTABLE { _ = rawGetField(L, 1, "root"); tk_replace(L, 1) }
            let root = try LuaObject.check(L, 1, Element.self, "HostingConfiguration", expected: "an element")
            LuaObject.push(L, HostingConfiguration(root: root), .configuration)
            LuaObject.pushUserValue(L, -1)
            lua_pushvalue(L, 1)
            lua_rawsetp(L, -2, UVKey.children)
            tk_pop(L, 1)
            return 1
        }
    }
}

extension LuaRuntime {
    /// Pushes the function kept in the user value of the object in `slot`.
    private func pushSlotFunction(_ slot: DeclarativeModule.Slot) -> Bool {
        guard let object = slot.object, LuaObject.pushExisting(L, object) else { return false }
        guard tk_getuservalue(L, -1) == LUA_TTABLE, lua_rawgetp(L, -1, UVKey.value) == LUA_TFUNCTION else { return false }
        return true
    }

    func callBody(_ slot: DeclarativeModule.Slot, _ reader: EnvironmentReader) throws -> Element {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard pushSlotFunction(slot) else { throw LuaError("a Custom element's body is gone") }
        let position = definedAt(L, -1)
        LuaObject.push(L, reader, .environment)
        try protectedCall(nargs: 1, nresults: 1)
        guard let element = LuaObject.peek(L, -1) as? Element else {
            var name = ""
            if case .custom(let customName, _)? = (slot.object as? Element)?.kind { name = " '\(clipped(customName))'" }
            throw LuaError("the body of Custom element\(name) must return an element (got \(typeName(L, -1)))", at: position)
        }
        // The host view holds its body results, per render slot.
        let result = lua_gettop(L)
        LuaObject.push(L, reader.hostView, .node)
        LuaObject.pushUserValueTable(L, -1, UVKey.held)
        lua_pushvalue(L, result)
        lua_rawseti(L, -2, lua_Integer(reader.slot))
        return element
    }

    /// Calls a representable's `make`; what it returns must be a `type`, else the error says
    /// where `make` is defined and what came back.
    func callMake<T: TraitEnvironment>(_ slot: DeclarativeModule.Slot, _ type: T.Type, _ element: String,
                                       returning what: String) throws -> T {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard pushSlotFunction(slot) else { throw LuaError("\(element): its 'make' function is gone") }
        let position = definedAt(L, -1)
        try protectedCall(nargs: 0, nresults: 1)
        guard let made = LuaObject.peek(L, -1) as? T else {
            throw LuaError("\(element): 'make' must return \(what) (got \(typeName(L, -1)))", at: position)
        }
        return made
    }

    func callElementFunction(_ slot: DeclarativeModule.Slot, argument node: TraitEnvironment) throws {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard pushSlotFunction(slot) else { return }
        LuaObject.push(L, node, .node)
        try protectedCall(nargs: 1)
    }

    func callKeyRead(_ slot: DeclarativeModule.Slot, _ tc: TraitCollection) throws -> TraitValue {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard let key = slot.object as? EnvironmentKey, LuaObject.pushExisting(L, key),
              tk_getuservalue(L, -1) == LUA_TTABLE, rawGetField(L, -1, "read") == LUA_TFUNCTION else {
            return .none
        }
        LuaObject.push(L, tc, .collection)
        try protectedCall(nargs: 1, nresults: 1)
        return DeclarativeModule.genericValue(L, -1)
    }

    func callKeyWrite(_ slot: DeclarativeModule.Slot, _ traits: inout MutableTraits, _ value: TraitValue) throws {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard let key = slot.object as? EnvironmentKey, LuaObject.pushExisting(L, key),
              tk_getuservalue(L, -1) == LUA_TTABLE, rawGetField(L, -1, "write") == LUA_TFUNCTION else { return }
        let builder = CollectionModule.Builder(TraitCollection(traits), hold: .pinned)
        LuaObject.push(L, builder, .mutableTraits)
        DeclarativeModule.pushValue(L, value, for: key)
        try protectedCall(nargs: 2)
        traits = builder.traits
    }
}
