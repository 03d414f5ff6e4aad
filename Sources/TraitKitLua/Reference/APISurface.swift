import CLua
import TraitKit

/// Every name a script reaches from `require "traitkit"`, read off the binding's own tables:
/// the module table and its sub-tables, the class tables, the member tables each engine class
/// registers, the built-in lifecycle methods and the option lists constructors check.
///
/// The API reference (`LuaReference`) must describe exactly these names; `traitkit stubs`
/// and the tests hold the two together, so a member added to the binding without a reference
/// entry, or an entry left behind by a removed member, fails the suite.
public enum APISurface {
    /// What a name is, as a script uses it.
    public enum Kind: String, Sendable, CaseIterable {
        /// `tk.update()`, `tk.Color.hex(s)`.
        case function
        /// A callable class or module table: `tk.View{...}`, `tk.Color(fn)`.
        case constructor
        /// `view:addSubview(child)`, `tk.View:subclass(name)`.
        case method
        /// A method the engine calls and a script may override (and call as `super`).
        case callback
        /// `view.backgroundColor`: readable and assignable.
        case property
        /// `view.superview`: readable only.
        case readOnlyProperty
        /// A fixed value of a table: `tk.traits.userInterfaceStyle`, `tk.Color.systemBlue`.
        case value
        /// A key of a table a constructor or function takes: `tk.defineTrait{ name = ... }`.
        case field
    }

    /// One name: `tk.update`, `View:addSubview`, `View.superview`, `tk.defineTrait{name}`.
    public struct Entry: Hashable, Comparable, Sendable {
        /// Where the name lives: `tk.update`, `View:addSubview`, `View.superview`, `tk.tree{resolved}`.
        public let path: String
        /// What the name is.
        public let kind: Kind
        public static func < (a: Entry, b: Entry) -> Bool { a.path < b.path }
    }

    /// The surface of a fresh state.
    public static func entries() -> [Entry] {
        let runtime = LuaRuntime()
        defer { runtime.close() }
        return (moduleEntries(runtime) + memberEntries(runtime) + callbackEntries() + fieldEntries()).sorted()
    }

    /// The Lua name scripts see for an engine or binding class.
    static func className(_ type: AnyClass) -> String {
        if let engine = ClassModule.engineClasses.first(where: { $0.type == type }) { return engine.name }
        if type == OverridesModule.Proxy.self { return "TraitOverrides" }
        if type == CollectionModule.Builder.self { return "TraitCollectionBuilder" }
        return String(describing: type)
    }

    // MARK: The module table

    private static func moduleEntries(_ runtime: LuaRuntime) -> [Entry] {
        let L = runtime.L
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        lua_getfield(L, tk_registryindex(), LUA_LOADED_TABLE)
        _ = rawGetField(L, -1, "traitkit")
        var entries = TraitModule.semanticSets.keys.map { Entry(path: "tk." + $0, kind: .value) }
        entries += tableEntries(L, lua_gettop(L), prefix: "tk", nested: true)
        entries.append(Entry(path: "tk.TraitCollection.current", kind: .property))
        return entries
    }

    /// The string keys of the table at `t`: functions, callable tables (constructors, whose
    /// own keys are listed too when `nested`), other tables (listed when `nested`) and values.
    private static func tableEntries(_ L: LuaState, _ t: Int32, prefix: String, nested: Bool) -> [Entry] {
        var entries: [Entry] = []
        try? forEachPair(L, t) {
            guard lua_type(L, -2) == LUA_TSTRING, let key = string(L, -2), !key.hasPrefix("__") else { return }
            let path = prefix + "." + key
            switch lua_type(L, -1) {
            case LUA_TFUNCTION:
                let isClassMethod = rawGetField(L, t, "__engine") == LUA_TSTRING
                tk_pop(L, 1)
                if isClassMethod {
                    entries.append(Entry(path: prefix + ":" + key, kind: .method))
                } else {
                    let isConstructor = key.first?.isUppercase == true
                    entries.append(Entry(path: path, kind: isConstructor ? .constructor : .function))
                }
            case LUA_TTABLE where nested:
                if isCallable(L, -1) { entries.append(Entry(path: path, kind: isMadeElsewhere(L, -1) ? .value : .constructor)) }
                entries += tableEntries(L, lua_gettop(L), prefix: path, nested: false)
            case LUA_TTABLE:
                entries.append(Entry(path: path, kind: .constructor))
            default:
                entries.append(Entry(path: path, kind: .value))
            }
        }
        return entries
    }

    /// Whether the table at `i` is the class table of an engine class scripts do not make.
    private static func isMadeElsewhere(_ L: LuaState, _ i: Int32) -> Bool {
        defer { tk_pop(L, 1) }
        guard rawGetField(L, i, "__engine") == LUA_TSTRING, let engine = string(L, -1) else { return false }
        return ClassModule.maker(ofClassNamed: engine) != nil
    }

    private static func isCallable(_ L: LuaState, _ i: Int32) -> Bool {
        guard lua_getmetatable(L, i) != 0 else { return false }
        defer { tk_pop(L, 2) }
        return rawGetField(L, -1, "__call") == LUA_TFUNCTION
    }

    // MARK: Member tables

    /// Each class's properties and methods, less those it shares with the nearest registered
    /// superclass (a `Label` lists `text`, not the `View` members it inherits).
    private static func memberEntries(_ runtime: LuaRuntime) -> [Entry] {
        let registered = runtime.registeredMembers
        var entries: [Entry] = []
        for entry in registered {
            let type: AnyClass = entry.type, members = entry.members
            let inherited = superclassMembers(of: type, in: registered)
            let owner = className(type)
            let setters = Set(members.setters.map(\.0))
            for name in Set(members.getters.map(\.0)).subtracting(inherited.getters) {
                entries.append(Entry(path: owner + "." + name, kind: setters.contains(name) ? .property : .readOnlyProperty))
            }
            for name in setters.subtracting(members.getters.map(\.0)).subtracting(inherited.setters) {
                entries.append(Entry(path: owner + "." + name, kind: .property))
            }
            for name in Set(members.methods.map(\.0)).subtracting(inherited.methods) {
                entries.append(Entry(path: owner + ":" + name, kind: .method))
            }
        }
        return entries
    }

    private static func superclassMembers(of type: AnyClass, in registered: [(type: AnyClass, members: Members)])
        -> (getters: Set<String>, setters: Set<String>, methods: Set<String>)
    {
        var next: AnyClass? = _getSuperclass(type)
        while let t = next {
            if let found = registered.first(where: { $0.type == t }) {
                return (Set(found.members.getters.map(\.0)), Set(found.members.setters.map(\.0)),
                        Set(found.members.methods.map(\.0)))
            }
            next = _getSuperclass(t)
        }
        return ([], [], [])
    }

    // MARK: Lifecycle methods and option lists

    private static func callbackEntries() -> [Entry] {
        BuiltinMethods.view.map { Entry(path: "View:" + $0.0, kind: .callback) }
            + BuiltinMethods.controller.map { Entry(path: "ViewController:" + $0.0, kind: .callback) }
    }

    /// The keys of the tables functions take, from the lists they check against.
    private static func fieldEntries() -> [Entry] {
        var lists: [(String, [String])] = [
            ("tk.defineTrait", TraitModule.fields),
            ("tk.EnvironmentKey", DeclarativeModule.keyFields),
            ("tk.HostingConfiguration", DeclarativeModule.configurationFields),
            ("tk.elements.Custom", DeclarativeModule.customFields),
            ("tk.elements.ViewRepresentable", DeclarativeModule.representableFields),
            ("tk.elements.ViewControllerRepresentable", DeclarativeModule.representableFields),
            ("tk.tree", LuaModule.treeOptions),
            ("tk.TraitCollection.fromJSON", CollectionModule.fromJSONOptions),
        ]
        lists += Element.Primitive.allCases.map { ("tk.elements." + $0.rawValue, $0.attributes) }
        return lists.flatMap { owner, fields in fields.map { Entry(path: owner + "{" + $0 + "}", kind: .field) } }
    }
}
