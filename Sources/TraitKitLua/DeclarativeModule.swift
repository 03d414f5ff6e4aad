import CLua
import TraitKit

/// `tk.EnvironmentKey`, `tk.elements`, `tk.HostingController`, `tk.HostingConfiguration` (R10);
/// the keys are in `DeclarativeModule+EnvironmentKeys.swift`.
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

    // MARK: Elements

    /// The keys of `E.Custom{...}`, `E.ViewRepresentable{...}` (and the controller one) and
    /// `tk.HostingConfiguration{...}`: any other is an error, as in every constructor table (a
    /// SwiftUI port's `update = ...` would otherwise be ignored without a word).
    static let customFields = ["name", "body"]
    static let representableFields = ["make"]
    static let configurationFields = ["root"]

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
        if let s = text(L, i) { return s }
        if lua_type(L, i) == LUA_TTABLE, rawGetField(L, i, "__name") == LUA_TSTRING, let s = text(L, -1) {
            tk_pop(L, 1)
            return s
        }
        throw textError(L, i, function, expected: "a class or class name")
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
        guard let text = displayText(L, -1) else { throw bad(lua_type(L, -1) == LUA_TSTRING ? "UTF-8 text" : "a string") }
        return .string(text)
    }

    static let makeCustom: SwiftLuaFunction = { L in
        guarded(L) { L in
            try checkTable(L, 1, "Custom")
            try checkFieldNames(L, 1, "Custom", allowed: customFields)
            _ = rawGetField(L, 1, "name")
            guard isNil(L, -1) || text(L, -1) != nil else {
                throw LuaError("Custom: 'name' must be a string of UTF-8 text (got \(TraitValues.describeValue(L, -1)))")
            }
            let name = text(L, -1) ?? "Custom"
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
        try checkFieldNames(L, 1, name, allowed: representableFields)
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
            if lua_type(L, 1) == LUA_TTABLE {
                try checkFieldNames(L, 1, "HostingConfiguration", allowed: configurationFields)
                _ = rawGetField(L, 1, "root")
                tk_replace(L, 1)
            }
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
}
