import CLua
import TraitKit

/// Class tables: `tk.View`, `tk.ViewController`, ... and their Lua subclasses.
///
/// A class table holds its methods, `__name`, `__engine` (the engine class it makes) and
/// `__super`; its metatable makes it callable (`Card{ name = "card" }`) and chains lookups
/// to its superclass. Instances keep their class in their user value; the engine calls their
/// lifecycle methods through `NodeAnchor`.
enum ClassModule {
    /// The engine classes scripts can name, in dependency order.
    static let engineClasses: [(name: String, type: TraitEnvironment.Type, superName: String?)] = [
        ("View", View.self, nil),
        ("Window", Window.self, "View"),
        ("ScrollView", ScrollView.self, "View"),
        ("TableView", TableView.self, "ScrollView"),
        ("TextView", TextView.self, "ScrollView"),
        ("Label", Label.self, "View"),
        ("Button", Button.self, "View"),
        ("StackView", StackView.self, "View"),
        ("HostingView", HostingView.self, "View"),
        ("IntrospectionMarker", IntrospectionMarker.self, "View"),
        ("ViewController", ViewController.self, nil),
        ("HostingController", HostingController.self, "ViewController"),
        ("PresentationController", PresentationController.self, nil),
        ("WindowScene", WindowScene.self, nil),
        ("Screen", Screen.self, nil),
    ]

    /// The engine classes scripts do not make, with what makes them: their class tables are
    /// for `isKindOf`, `findChild` and `introspect`, and their constructor and `subclass` say
    /// this instead.
    static let madeElsewhere: [ObjectIdentifier: String] = [
        ObjectIdentifier(HostingView.self): "a HostingController makes it to render its root element",
        ObjectIdentifier(IntrospectionMarker.self): "introspect puts it next to the element it looks into",
        ObjectIdentifier(PresentationController.self): "present makes it (read a controller's presentationController)",
    ]

    /// What makes the objects of the engine class called `engine`, if scripts do not.
    static func maker(ofClassNamed engine: String) -> String? {
        engineClasses.first { $0.name == engine }.flatMap { madeElsewhere[ObjectIdentifier($0.type)] }
    }

    /// How many classes a chain may have from a class up to its root engine class. Lookups
    /// follow `__super` one class at a time, so a bound keeps each short (and ends the walk
    /// on a chain a script looped with `rawset`); real hierarchies are a few classes deep.
    static let maxChain = Int(TK_MAX_CLASS_CHAIN)

    static func install(_ runtime: LuaRuntime, into module: Int32) {
        let L = runtime.L
        let methodCounts = Dictionary(runtime.registeredMembers.map { (ObjectIdentifier($0.type), $0.members.methods.count) },
                                      uniquingKeysWith: { $1 })
        for (name, type, superName) in engineClasses {
            if let superName { _ = rawGetField(L, module, superName) } else { lua_pushnil(L) }
            makeClass(L, name: name, engine: name, superAt: -1)
            tk_replace(L, -2)
            var builtins: [(String, SwiftLuaFunction)] = []
            if type == View.self || type == ViewController.self {
                push(L, subclass); rawSetField(L, -2, "subclass")
                builtins = type == View.self ? BuiltinMethods.view : BuiltinMethods.controller
            }
            answerMethods(L, classAt: -1, of: type, count: runtime.nearest(in: methodCounts, forClass: type) ?? 0,
                          builtins: builtins, runtime)
            lua_pushvalue(L, -1)
            runtime.classRefs[ObjectIdentifier(type)] = luaL_ref(L, tk_registryindex())
            rawSetField(L, module, name)
        }
    }

    /// Pushes a new class table inheriting from the class at `superAt` (nil for none).
    /// Its constructor knows the engine class it makes and whether it is a script's subclass
    /// from its upvalues: no field lookup, no string compare when a script makes a node.
    static func makeClass(_ L: LuaState, name: String, engine: String, superAt: Int32) {
        let superIndex = absolute(L, superAt)
        tk_newtable(L)
        push(L, name); rawSetField(L, -2, "__name")
        push(L, engine); rawSetField(L, -2, "__engine")
        lua_pushvalue(L, superIndex); rawSetField(L, -2, "__super")
        tk_newtable(L)
        lua_pushvalue(L, superIndex); rawSetField(L, -2, "__index")
        lua_pushinteger(L, lua_Integer(engineClasses.firstIndex { $0.name == engine } ?? 0))
        lua_pushboolean(L, name == engine ? 0 : 1)
        tk_pushconstructor(L, construct, fieldError, unknownKey)
        rawSetField(L, -2, "__call")
        push(L, classNewIndex); rawSetField(L, -2, "__newindex")
        push(L, classToString); rawSetField(L, -2, "__tostring")
        lua_setmetatable(L, -2)
    }

    /// Lets the engine class table at `classAt` answer its instances' methods, as a Lua class
    /// does (`tk.View.addSubview(parent, child)`, `local addSubview = tk.View.addSubview`):
    /// its metatable's `__index` becomes a table of them (properties are read from
    /// instances only) and of the class's `builtins`, which falls back to the superclass.
    /// Instances never look there: they find the methods in their member table first. The
    /// table is made at its final size from the `count` of the engine class's methods, as
    /// `Members.install` makes the member tables.
    private static func answerMethods(_ L: LuaState, classAt: Int32, of type: AnyClass, count: Int,
                                      builtins: [(String, SwiftLuaFunction)], _ runtime: LuaRuntime) {
        let cls = absolute(L, classAt)
        guard lua_getmetatable(L, cls) != 0 else { return }
        let metatable = lua_gettop(L)
        lua_createtable(L, 0, Int32(count + builtins.count))
        let methods = lua_gettop(L)
        pushRef(L, runtime.members(forClass: type).getters)
        lua_pushnil(L)
        while lua_next(L, -2) != 0 {
            if lua_type(L, -1) == LUA_TFUNCTION {
                lua_pushvalue(L, -2)
                tk_insert(L, -2)
                lua_rawset(L, methods)
            } else {
                tk_pop(L, 1)
            }
        }
        tk_pop(L, 1)
        BuiltinMethods.install(L, builtins, into: methods)
        if rawGetField(L, cls, literal: "__super") == LUA_TTABLE {
            tk_newtable(L)
            tk_insert(L, -2)
            rawSetField(L, -2, "__index")
            lua_setmetatable(L, methods)
        } else {
            tk_pop(L, 1)
        }
        rawSetField(L, metatable, "__index")
        lua_settop(L, metatable - 1)
    }

    /// Refuses a `self` that is not a class table (one with the engine class it makes): the
    /// class metamethods are reachable through the debug library with any value.
    static func checkClass(_ L: LuaState, _ i: Int32, _ function: String) throws {
        let isClass = rawGetField(L, i, "__engine") == LUA_TSTRING
        tk_pop(L, 1)
        guard isClass else { throw argumentError(L, i, function, expected: "a class") }
    }

    /// `Base:subclass("Name")`.
    static let subclass: SwiftLuaFunction = { L in
        guarded(L) { L in
            try checkTable(L, 1, "subclass")
            let name = try checkString(L, 2, "subclass")
            // Class names reach isKindOf, introspect and printed trees: a blank or built-in name
            // would make two classes that no one can tell apart.
            guard !name.isEmpty else { throw LuaError("subclass: a class needs a non-empty name") }
            guard !engineClasses.contains(where: { $0.name == name }) else {
                throw LuaError("subclass: '\(name)' is the name of a built-in class (choose another)")
            }
            guard rawGetField(L, 1, "__engine") == LUA_TSTRING, let engine = string(L, -1) else {
                throw argumentError(L, 1, "subclass", expected: "a class (call it as Base:subclass(name))")
            }
            tk_pop(L, 1)
            if let maker = maker(ofClassNamed: engine) {
                throw LuaError("subclass: \(engine) cannot be subclassed, as scripts do not make it: \(maker)")
            }
            guard chainLength(L, 1) < maxChain else {
                throw LuaError("subclass: classes chain at most \(maxChain) deep (\(name) would be one more)")
            }
            makeClass(L, name: name, engine: engine, superAt: 1)
            return 1
        }
    }

    /// A class defining a method: noted so the engine starts calling that lifecycle method.
    static let classNewIndex: SwiftLuaFunction = { L in
        guarded(L) { L in
            // Self is a class unless called through the debug library, and a nil or NaN key
            // comes from `Class[nil] = v`: the raw set would crash on a non-table, or raise
            // through these Swift frames for such a key.
            try checkClass(L, 1, "__newindex")
            try checkFieldKey(L, 2)
            try checkNotMember(L)
            try LuaRuntime.of(L).noteDefinition(L, key: 2, value: 3)
            lua_settop(L, 3)
            lua_rawset(L, 1)
            return 0
        }
    }

    /// Refuses `Class.name = value` (the class at 1, the key at 2) where the name is a method or
    /// property of the engine class: an instance finds the engine's member first, so the
    /// class's would be stored and never reached (`function Card:addSubview(v)` never called,
    /// `Card.tintColor = red` never read). An instance refuses the same assignment.
    private static func checkNotMember(_ L: LuaState) throws {
        guard lua_type(L, 2) == LUA_TSTRING, let key = string(L, 2) else { return }
        defer { lua_settop(L, 3) }
        guard rawGetField(L, 1, "__engine") == LUA_TSTRING, let engine = string(L, -1),
              let type = engineClasses.first(where: { $0.name == engine })?.type else { return }
        let refs = LuaRuntime.of(L).members(forClass: type)
        pushRef(L, refs.getters)
        lua_pushvalue(L, 2)
        let member = lua_rawget(L, -2)
        guard member != LUA_TNIL else { return }
        _ = rawGetField(L, 1, "__name")
        let className = clipped(string(L, -1) ?? engine)
        pushRef(L, refs.setters)
        let writable = rawGetField(L, -1, key) != LUA_TNIL
        if member == LUA_TLIGHTUSERDATA {
            throw LuaError("cannot set '\(clipped(key))' on class \(className): it is a "
                + (writable ? "property" : "read-only property") + " of every \(engine), which an instance reads instead"
                + (writable ? " (give it in the constructor: \(className){ \(clipped(key)) = ... })" : ""))
        }
        throw LuaError("cannot define '\(clipped(key))' on class \(className): it is a method of \(engine), which an "
            + "instance calls instead (the engine calls a class's lifecycle methods only; give this one another name)")
    }

    static let classToString: SwiftLuaFunction = { L in
        guarded(L) { L in
            try checkClass(L, 1, "__tostring")
            _ = rawGetField(L, 1, "__name")
            push(L, "<class \(string(L, -1) ?? "?")>")
            return 1
        }
    }

    /// `Class{ name = ..., property = ... }`: makes the engine object; its other fields are
    /// applied by the constructor's C function (`tk_construct`), for which this leaves the
    /// class, the table, the object, the setters and whether `screen` made it, and returns
    /// `TK_CTOR_FIELDS`, when there are any.
    /// Upvalue 2: the index in `engineClasses` of the class it makes; 3: whether the class is
    /// a script's subclass (named by its `__name`).
    static let construct: SwiftLuaFunction = { L in
        guarded(L) { L in
            let index = Int(tk_tointeger(L, tk_upvalueindex(2), nil))
            let isSubclass = lua_toboolean(L, tk_upvalueindex(3)) != 0
            // Named only for a subclass and for messages: most constructors touch no string.
            func className() throws -> String {
                guard isSubclass else { return engineClasses[index].name }
                guard rawGetField(L, 1, literal: "__name") == LUA_TSTRING, let name = string(L, -1) else {
                    throw LuaError("not a class")
                }
                tk_pop(L, 1)
                return name
            }
            let subclassName = isSubclass ? try className() : nil
            guard isNil(L, 2) || lua_type(L, 2) == LUA_TTABLE else {
                throw constructorArgumentError(L, try className(), expected: "a table")
            }
            let node: TraitEnvironment
            let hasOtherFields = tk_constructor_name(L, 2) != 0
            do {
                let name = try optString(L, -1, "name")
                tk_pop(L, 1)
                node = try make(L, type: engineClasses[index].type, name: name, className: try className())
            } catch let error as LuaError {
                throw LuaError(fieldMessage(error.description, try className()))
            }
            LuaObject.pushNew(L, node)
            let ud = lua_gettop(L)
            // A script's subclass is kept in the user value; an engine class's instance finds
            // its class from its Swift type (`pushDefaultClass`), so most nodes need no table.
            if let subclassName {
                node.className = subclassName
                LuaObject.pushUserValue(L, ud)
                lua_pushvalue(L, 1)
                lua_rawsetp(L, -2, UVKey.classTable)
                tk_pop(L, 1)
            }
            // `{ name = ... }` alone, the most common table, needs no pass over its pairs; a
            // screen's fields are its system traits, which `make` gave it.
            guard hasOtherFields, !(node is Screen) else { return 1 }
            lua_copy(L, ud, 3)  // class, table, object: as tk_construct expects them
            lua_settop(L, 3)
            pushSetters(L, of: 3, strict: !isSubclass)
            lua_pushboolean(L, node is WindowScene ? 1 : 0)
            return TK_CTOR_FIELDS
        }
    }

    /// Pushes what applies constructor fields to the object at `ud`. An engine class's
    /// constructor (`strict`) takes its properties only, its setters table: a typo (`nmae`,
    /// `scren`) would otherwise become a field and the property silently keep its default, so
    /// every key is looked up before any setter runs. A script's subclass takes any field, as
    /// a plain Lua object, through `newIndexObject` as an assignment would.
    private static func pushSetters(_ L: LuaState, of ud: Int32, strict: Bool) {
        guard strict, let box = LuaObject.box(L, ud) else {
            lua_pushlightuserdata(L, unsafeBitCast(newIndexObject, to: UnsafeMutableRawPointer.self))
            return
        }
        pushRef(L, box.pointee.setters)
    }

    /// A setter's error while `tk_construct` applies a field (the object at 1, the field's key
    /// at 2, the message on top): said as the constructor field it came from.
    static let fieldError: SwiftLuaFunction = { L in
        let L = L!
        let message = string(L, -1) ?? ""
        tk_pop(L, 1)
        push(L, fieldMessage(message, className(L, 1)))
        return TK_RAISE_WHERE
    }

    /// The error for the key on top, which no setter of the object at 1 takes (`tk_construct`).
    static let unknownKey: SwiftLuaFunction = { L in
        guarded(L) { L in throw unknownField(L, key: -1, of: 1, className: className(L, 1)) }
    }

    /// The class name of the object at `i` (the one being made), for messages.
    private static func className(_ L: LuaState, _ i: Int32) -> String {
        LuaObject.peek(L, i).map(LuaObject.className) ?? typeName(L, i)
    }

    /// `bad argument #3 to 'scene' (expected X, got Y)` from a property setter, said as the
    /// constructor field it came from.
    private static func fieldMessage(_ message: String, _ className: String) -> String {
        let firstLine = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
        guard let range = firstLine.firstRange(of: "bad argument #"),
              let to = firstLine[range.upperBound...].firstRange(of: " to '"),
              let end = firstLine[to.upperBound...].firstIndex(of: "'") else { return firstLine }
        let field = firstLine[to.upperBound..<end]
        return "bad field '\(field)' in \(clipped(className)){...}" + firstLine[firstLine.index(after: end)...]
    }

    private static func make(_ L: LuaState, type: TraitEnvironment.Type, name: String?,
                             className: @autoclosure () throws -> String) throws -> TraitEnvironment {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(View.self): return View(name: name)
        case ObjectIdentifier(ScrollView.self): return ScrollView(name: name)
        case ObjectIdentifier(TableView.self): return TableView(name: name)
        case ObjectIdentifier(TextView.self): return TextView(name: name)
        case ObjectIdentifier(Label.self): return Label(name: name)
        case ObjectIdentifier(Button.self): return Button(name: name)
        case ObjectIdentifier(StackView.self): return StackView(name: name)
        case ObjectIdentifier(ViewController.self): return ViewController(name: name)
        case ObjectIdentifier(HostingController.self):
            let root = try field(L, "root") {
                try LuaObject.check(L, -1, Element.self, "root", expected: "an element")
            }
            return HostingController(root: root, name: name)
        case ObjectIdentifier(Window.self): return Window(name: name)
        case ObjectIdentifier(WindowScene.self):
            let screen = try field(L, "screen") {
                try NodeArgs.optional(L, -1, Screen.self, "screen", expected: "a Screen")
            }
            let scene = WindowScene(screen: screen, name: name)
            try LuaRuntime.of(L).traitSettings.apply(to: scene)
            return scene
        case ObjectIdentifier(Screen.self):
            // The constructor's traits, then `--trait` settings over them: the screen's
            // collection is its system traits from the start, as UIScreen's is.
            var traits = MutableTraits(TraitCollection())
            if lua_type(L, 2) == LUA_TTABLE {
                try forEachPair(L, 2) {
                    if string(L, -2) == "name" { return }
                    guard let trait = try TraitValues.traitKey(L, -2) else {
                        throw LuaError("bad key in Screen{...} (expected a trait name, got \(typeName(L, -2)))")
                    }
                    try traits.set(try TraitValues.value(L, -1, for: trait), for: trait)
                }
            }
            let runtime = LuaRuntime.of(L)
            for (trait, value) in runtime.traitSettings.screen { try traits.set(value, for: trait) }
            let screen = Screen(systemTraits: TraitCollection(traits), name: name)
            runtime.application.add(screen)
            return screen
        default:
            throw LuaError("\(clipped(try className())) cannot be made from a script: " + (madeElsewhere[ObjectIdentifier(type)] ?? "no constructor"))
        }
    }

    /// Reads `key` of the properties table (nil when there is none).
    private static func field<T>(_ L: LuaState, _ key: StaticString, _ read: () throws -> T) throws -> T {
        _ = rawGetField(L, 2, literal: key)
        defer { tk_pop(L, 1) }
        return try read()
    }

    /// The error for a constructor field, the key at `key`, that names no property of the
    /// object at `ud`: a read-only property or a method said as such, else the nearest name.
    private static func unknownField(_ L: LuaState, key: Int32, of ud: Int32,
                                     className: @autoclosure () -> String) -> LuaError {
        let key = absolute(L, key)
        let className = clipped(className())  // only for the message: naming an engine type is slow
        if let box = LuaObject.box(L, ud), let what = unassignableMember(L, box, key: key) {
            return LuaError("bad field '\(clipped(string(L, key) ?? ""))' in \(className){...}: it is \(what)")
        }
        var names = ["name"] + LuaRuntime.of(L).setterNames(L, of: ud)
        if className == "WindowScene" { names.append("screen") }
        let properties = " (properties: \(Set(names).sorted().joined(separator: ", ")))"
        guard lua_type(L, key) == LUA_TSTRING, let field = string(L, key) else {
            // `View{ 1 }` or `View{ [true] = ... }`: say the key as written, not its type as a name.
            return LuaError("unknown field [\(TraitValues.describeValue(L, key))] in \(className){...} "
                + "(constructor fields are named: name = ...)" + properties)
        }
        return LuaError("unknown field '\(clipped(field))' in \(className){...}" + didYouMean(field, in: names) + properties)
    }

    /// Whether the object at `object` is of the class (table or name) at `classIndex`.
    static func isKind(_ L: LuaState, _ object: Int32, of classIndex: Int32, _ function: String) throws -> Bool {
        let object = absolute(L, object), target = absolute(L, classIndex)
        let isName = lua_type(L, target) == LUA_TSTRING
        guard isName || lua_type(L, target) == LUA_TTABLE else {
            throw argumentError(L, target, function, expected: "a class or class name")
        }
        // Class names are UTF-8 text (`subclass` refuses others), so other bytes name no class.
        let byName = text(L, target)
        if isName, byName == nil { return false }
        // A Custom element's view is an engine View that carries the element's name. Compared
        // by bytes, as Lua compares strings: Swift's == would take "é" and "e\u{301}" as one.
        if let byName, let node = LuaObject.peek(L, object) as? TraitEnvironment,
           node.className.utf8.elementsEqual(byName.utf8) { return true }
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let runtime = LuaRuntime.of(L)
        if tk_getuservalue(L, object) != LUA_TTABLE || lua_rawgetp(L, -1, UVKey.classTable) != LUA_TTABLE {
            guard runtime.pushDefaultClass(L, object) else { return false }
        }
        // A name is compared as Lua compares strings (the one given is at `target`), so no
        // class name becomes a Swift string on the way up.
        for _ in 0..<maxChain {
            if byName != nil {
                _ = rawGetField(L, -1, literal: "__name")
                if lua_rawequal(L, -1, target) != 0 { return true }
                tk_pop(L, 1)
            } else if lua_rawequal(L, -1, target) != 0 {
                return true
            }
            if rawGetField(L, -1, literal: "__super") != LUA_TTABLE { return false }
            tk_replace(L, -2)
        }
        return false
    }

    /// How many classes the chain from the class at `i` up to its root has (at most `maxChain`).
    static func chainLength(_ L: LuaState, _ i: Int32) -> Int {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        lua_pushvalue(L, i)
        var count = 1
        while count < maxChain, rawGetField(L, -1, literal: "__super") == LUA_TTABLE {
            tk_replace(L, -2)
            count += 1
        }
        return count
    }
}
