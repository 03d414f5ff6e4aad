import CLua
import TraitKit

/// Engine objects as Lua full userdata (DESIGN.md §7).
///
/// A userdata holds one retained reference to its Swift object. The same object is always the
/// same Lua value: a weak-valued table maps the object's address to its userdata. Per-object
/// Lua state (fields, handlers, the Lua class) lives in the userdata's user values, where
/// Lua's collector sees it, never in registry references that a cycle could pin.
enum LuaObject {
    /// What kind of engine object a userdata holds; picks its metatable.
    enum Kind: Int32, CaseIterable {
        case node, collection, trait, color, imageAsset, registration, overrides, mutableTraits, application
        case environmentKey, element, environment, configuration
    }

    /// Defined in C (tk_box.h), where the node `__index` fast path reads it too.
    typealias Box = tk_Box
    static let magic: UInt64 = TK_BOX_MAGIC

    /// The box of the userdata at `i`, if it is one of ours. (`lua_touserdata` answers for a
    /// light userdata too, but its `lua_rawlen` is 0: only a full userdata of our size is read.)
    static func box(_ L: LuaState, _ i: Int32) -> UnsafeMutablePointer<Box>? {
        tk_anybox(L, i)
    }

    /// The box of the live engine object at `i` (the `self` of a metamethod), or an error
    /// that says what came instead: metamethods are reachable through the debug library.
    static func checkBox(_ L: LuaState, _ i: Int32) throws -> UnsafeMutablePointer<Box> {
        guard let box = box(L, i) else {
            throw LuaError("bad self for a TraitKit object's metamethod (expected a TraitKit object, got \(TraitKitLua.typeName(L, i)))")
        }
        guard box.pointee.object != nil else {
            throw LuaError("attempt to use a TraitKit object after its finalizer ran")
        }
        return box
    }

    /// The object at `i`, if it is one of ours and still alive. Never a node's
    /// `traitOverrides`, which holds no object (`overridesNode`).
    static func peek(_ L: LuaState, _ i: Int32) -> AnyObject? {
        guard let box = box(L, i), let object = box.pointee.object else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(object).takeUnretainedValue()
    }

    /// The node whose `traitOverrides` the value at `i` is, if it is one and its node is alive.
    /// A proxy reaches its node only through the node's userdata, whose finalizer releases
    /// the node: a proxy that a finalizer brings back after that finds nothing, where an
    /// object pointer of its own would dangle.
    static func overridesNode(_ L: LuaState, _ i: Int32) -> TraitEnvironment? {
        guard let box = box(L, i), box.pointee.kind == Kind.overrides.rawValue else { return nil }
        lua_getiuservalue(L, i, TK_PROXY_NODE_SLOT)
        defer { tk_pop(L, 1) }
        // The proxy at `i` keeps the node's userdata, and with it the node, alive. A script
        // can put any value there (debug.setuservalue): only a node's box is taken for one.
        guard let node = self.box(L, -1), node.pointee.kind == Kind.node.rawValue,
              let object = node.pointee.object else { return nil }
        return Unmanaged<TraitEnvironment>.fromOpaque(object).takeUnretainedValue()
    }

    /// The object at `i` as `T`, or an argument error naming what was expected.
    static func check<T: AnyObject>(_ L: LuaState, _ i: Int32, _ type: T.Type, _ function: String,
                                    expected: String? = nil) throws -> T {
        guard let object = peek(L, i) as? T else {
            throw argumentError(L, i, function, expected: expected ?? LuaObject.typeName(T.self))
        }
        return object
    }

    static func typeName(_ type: AnyObject.Type) -> String {
        String(describing: type)
    }

    static func className(_ object: AnyObject) -> String {
        if let node = object as? TraitEnvironment { return node.className }
        // The engine's kinds of registration are one type to scripts.
        if object is TraitChangeRegistration { return typeName(TraitChangeRegistration.self) }
        return String(describing: Swift.type(of: object))
    }

    /// The names of the members of the object at `i`, sorted, for an unknown-name error.
    static func memberNames(_ L: LuaState, _ i: Int32) -> [String] {
        guard let box = box(L, i) else { return [] }
        pushRef(L, box.pointee.members)
        defer { tk_pop(L, 1) }
        return stringKeys(L, -1).sorted()
    }

    /// Pushes the userdata for `object`, making it on first use.
    ///
    /// Collections have an identity cache of their own (`LuaRuntime.collectionCacheRef`). The
    /// last collection pushed is also kept under key 1 of that (weak-valued) cache:
    /// an update hands the same `previous` to every handler of a region, and a light-userdata
    /// key costs Lua a hash, a division and a chain walk. The entry and `lastCollection` change
    /// together; once the collector clears the entry (before the userdata's `__gc` releases the
    /// collection, so before its address can be reused) the lookup falls back to the hash.
    static func push(_ L: LuaState, _ object: AnyObject, _ kind: Kind) {
        if kind == .node, let node = object as? TraitEnvironment { return push(L, node) }
        let key = Unmanaged.passUnretained(object).toOpaque()
        let runtime = LuaRuntime.unretained(L)
        let isCollection = kind == .collection
        pushRef(L, runtime._withUnsafeGuaranteedRef { isCollection ? $0.collectionCacheRef : $0.cacheRef })
        if isCollection, pushIfLastCollection(L, key, cache: -1, runtime) {
            tk_replace(L, -2)
            return
        }
        if lua_rawgetp(L, -1, key) == LUA_TUSERDATA {
            if isCollection { rememberCollection(L, key, runtime) }
            tk_replace(L, -2)
            return
        }
        tk_pop(L, 1)
        create(L, object, kind, cache: -1, runtime)
        if isCollection { rememberCollection(L, key, runtime) }
        tk_replace(L, -2)
        if isCollection, let collection = object as? TraitCollection { ValueAnchors.anchorObjects(L, of: collection, in: -1) }
    }

    /// Pushes the userdata for `node`, making it on first use.
    static func push(_ L: LuaState, _ node: TraitEnvironment) {
        if !pushExisting(L, node) { pushNew(L, node) }
    }

    /// Pushes a new userdata for a node that has none, such as one the caller has just made:
    /// for it a lookup, by address as it has no index yet (`NodeSlots`), is bound to miss.
    static func pushNew(_ L: LuaState, _ node: TraitEnvironment) {
        let runtime = LuaRuntime.unretained(L)
        pushRef(L, runtime._withUnsafeGuaranteedRef { $0.cacheRef })
        let cache = lua_gettop(L)
        runtime._withUnsafeGuaranteedRef { createNode(L, node, .node, cache: cache, $0) }
        tk_replace(L, -2)
    }

    /// Pushes a new userdata for an object the binding makes and reaches only through a user
    /// value or a variable from then on (a registration token): it is never pushed again by
    /// identity, so it takes no identity-cache entry (a hash insertion into a table as large as
    /// the number of objects a script holds).
    static func pushUnshared(_ L: LuaState, _ object: AnyObject, _ kind: Kind) {
        create(L, object, kind, cache: nil, LuaRuntime.unretained(L))
    }

    /// Makes the userdata for `object`, enters it in the identity cache at `cache` (if any)
    /// under the object's address, and pushes it.
    private static func create(_ L: LuaState, _ object: AnyObject, _ kind: Kind, cache: Int32?,
                               _ runtime: Unmanaged<LuaRuntime>) {
        let cache = cache.map { absolute(L, $0) }
        runtime._withUnsafeGuaranteedRef { create(L, object, kind, cache: cache, $0) }
    }

    /// `create` with the runtime borrowed (`owner`) and the cache's index absolute.
    private static func create(_ L: LuaState, _ object: AnyObject, _ kind: Kind, cache: Int32?, _ owner: LuaRuntime) {
        if let node = object as? TraitEnvironment { return createNode(L, node, kind, cache: cache, owner) }
        // Collections have two more user values: their last read (tk_collection_index).
        let raw = tk_newuserdata(L, MemoryLayout<Box>.size, kind == .collection ? TK_COLLECTION_SLOTS : 1)!
        initialize(L, raw, object, kind, owner)
        if let cache {
            lua_pushvalue(L, -1)
            lua_rawsetp(L, cache, Unmanaged.passUnretained(object).toOpaque())
        }
    }

    /// `create` for a node: six more user values, its cached collection userdata
    /// (tk_node_index), its handlers (`HandlerSlot`), its `traitOverrides` proxy
    /// (`OverridesModule.push`) and three links of the chains that anchor it to its owner
    /// (`NodeAnchor`); its cache entry by index (`NodeSlots`).
    private static func createNode(_ L: LuaState, _ node: TraitEnvironment, _ kind: Kind, cache: Int32?, _ owner: LuaRuntime) {
        let raw = tk_newuserdata(L, MemoryLayout<Box>.size, TK_NODE_SLOTS)!
        initialize(L, raw, node, kind, owner)
        if let cache, kind == .node {
            NodeSlots.enter(L, node, cache: cache, owner)
        } else if let cache {
            lua_pushvalue(L, -1)
            lua_rawsetp(L, cache, Unmanaged.passUnretained(node).toOpaque())
        }
        if type(of: node) == Screen.self {  // no overrides: tk_node_index leaves it to Swift
            lua_pushboolean(L, 0)
            _ = lua_setiuservalue(L, -2, TK_OVERRIDES_SLOT)
        }
        NodeAnchor.adopt(L, -1, node, owner)
    }

    /// Fills the new userdata's box at `raw` (on top), which retains `object`, and sets its metatable.
    private static func initialize(_ L: LuaState, _ raw: UnsafeMutableRawPointer, _ object: AnyObject, _ kind: Kind,
                                   _ owner: LuaRuntime) {
        let members = owner.members(for: object, kind)
        raw.bindMemory(to: Box.self, capacity: 1).initialize(
            to: Box(magic: magic, object: Unmanaged.passRetained(object).toOpaque(), kind: kind.rawValue,
                    members: members.getters, setters: members.setters, collection: nil, handler: 0))
        pushRef(L, owner.metatableRefs[Int(kind.rawValue)])
        lua_setmetatable(L, -2)
    }

    /// The identity cache's key for the last collection pushed (object keys are light userdata).
    private static let lastCollectionKey: lua_Integer = 1

    /// Pushes the userdata of the last collection pushed if that is `key`'s and the identity
    /// cache (at `cache`) still holds it; returns whether it did (nothing pushed otherwise).
    private static func pushIfLastCollection(_ L: LuaState, _ key: UnsafeMutableRawPointer, cache: Int32,
                                             _ runtime: Unmanaged<LuaRuntime>) -> Bool {
        guard runtime._withUnsafeGuaranteedRef({ $0.lastCollection }) == key else { return false }
        if lua_rawgeti(L, cache, lastCollectionKey) == LUA_TUSERDATA { return true }
        tk_pop(L, 1)
        return false
    }

    /// With the collection's userdata on top and the identity cache below it: keeps both as
    /// the last collection pushed.
    private static func rememberCollection(_ L: LuaState, _ key: UnsafeMutableRawPointer, _ runtime: Unmanaged<LuaRuntime>) {
        lua_pushvalue(L, -1)
        lua_rawseti(L, -3, lastCollectionKey)
        runtime._withUnsafeGuaranteedRef { $0.lastCollection = key }
    }

    /// Pushes an optional object, or nil.
    static func push(_ L: LuaState, _ object: AnyObject?, _ kind: Kind) {
        if let object { push(L, object, kind) } else { lua_pushnil(L) }
    }

    /// Pushes the userdata of `object` if it is the first or second value of the running C
    /// function (the `self` or the argument of the method that moved it); returns whether it
    /// did. Cheaper than the identity cache's hash chain, a cache miss or two in a large one;
    /// and a userdata there is the object's one userdata whatever function it is.
    static func pushArgument(_ L: LuaState, _ object: AnyObject) -> Bool {
        tk_push_argument(L, Unmanaged.passUnretained(object).toOpaque()) != 0
    }

    /// Pushes the userdata of `node` only if it exists already; returns whether it did.
    static func pushExisting(_ L: LuaState, _ node: TraitEnvironment) -> Bool {
        let runtime = LuaRuntime.unretained(L)
        pushRef(L, runtime._withUnsafeGuaranteedRef { $0.cacheRef })
        let found = runtime._withUnsafeGuaranteedRef { NodeSlots.push(L, node, cache: -1, $0) }
        if found { tk_replace(L, -2) } else { tk_pop(L, 1) }
        return found
    }

    /// Pushes the userdata of `object` only if it exists already; returns whether it did.
    static func pushExisting(_ L: LuaState, _ object: AnyObject) -> Bool {
        if let node = object as? TraitEnvironment { return pushExisting(L, node) }
        pushRef(L, LuaRuntime.unretained(L)._withUnsafeGuaranteedRef { $0.cacheRef })
        let found = lua_rawgetp(L, -1, Unmanaged.passUnretained(object).toOpaque()) == LUA_TUSERDATA
        tk_replace(L, -2)
        if !found { tk_pop(L, 1) }
        return found
    }

    /// With the identity cache at `cache`: pushes the userdata of `collection` (the `previous`
    /// of a fired handler), found without hashing when it is the last collection pushed.
    static func pushCollection(_ L: LuaState, _ collection: TraitCollection, cache: Int32,
                               _ runtime: Unmanaged<LuaRuntime>) {
        guard !pushIfLastCollection(L, Unmanaged.passUnretained(collection).toOpaque(), cache: cache, runtime) else { return }
        push(L, collection, .collection)
    }

    /// `__gc`: drops the Swift reference (and the node's binding, if it belongs to this userdata).
    static let collect: SwiftLuaFunction = { L in
        guard let L, let box = box(L, 1), let object = box.pointee.object else { return 0 }
        box.pointee.object = nil
        let unmanaged = Unmanaged<AnyObject>.fromOpaque(object)
        if let node = unmanaged.takeUnretainedValue() as? TraitEnvironment {
            // The binding is this userdata's unless the node has a newer one, or another
            // runtime's.
            let runtime = LuaRuntime.of(L)
            if NodeSlots.release(L, node, ud: 1, runtime), node.binding === runtime.nodeAnchor {
                node.binding = nil
            }
        }
        unmanaged.release()
        return 0
    }

    /// Stores the value at `value` in the user value of the userdata at `ud` under `key`, so it
    /// lives as long as that object (a dynamic color's provider, a cell's configuration).
    ///
    /// A value that keeps nothing in Lua (nil, a color made in Swift such as `tk.Color.systemBlue`)
    /// only clears what was kept under `key`: the engine holds the Swift object, and a view
    /// given a system color gets no user value table for it.
    static func keep(_ L: LuaState, value: Int32, in ud: Int32, key: UnsafeRawPointer) {
        let value = absolute(L, value)
        guard holdsLuaValues(L, value) else {
            if tk_getuservalue(L, ud) == LUA_TTABLE {
                lua_pushnil(L)
                lua_rawsetp(L, -2, key)
            }
            tk_pop(L, 1)
            return
        }
        pushUserValue(L, ud)
        lua_pushvalue(L, value)
        lua_rawsetp(L, -2, key)
        tk_pop(L, 1)
    }

    /// Whether the value at `i` holds Lua values that must live while the engine uses it:
    /// anything but nil and a color whose userdata keeps nothing (a color's provider function
    /// is kept in its user value table).
    private static func holdsLuaValues(_ L: LuaState, _ i: Int32) -> Bool {
        switch lua_type(L, i) {
        case LUA_TNIL:
            return false
        case LUA_TUSERDATA:
            guard let box = box(L, i), box.pointee.kind == Kind.color.rawValue else { return true }
            let kept = tk_getuservalue(L, i) == LUA_TTABLE
            tk_pop(L, 1)
            return kept
        default:
            return true
        }
    }

    /// Pushes the table stored under `key` in the user value of the userdata at `i`, making
    /// both on first use (held elements).
    static func pushUserValueTable(_ L: LuaState, _ i: Int32, _ key: UnsafeRawPointer) {
        pushUserValue(L, i)
        if lua_rawgetp(L, -1, key) != LUA_TTABLE {
            tk_pop(L, 1)
            tk_newtable(L)
            lua_pushvalue(L, -1)
            lua_rawsetp(L, -3, key)
        }
        tk_replace(L, -2)
    }

    /// The user value table of the userdata at `i`, made on first use; pushed on the stack.
    static func pushUserValue(_ L: LuaState, _ i: Int32) {
        let ud = absolute(L, i)
        if tk_getuservalue(L, ud) == LUA_TTABLE { return }
        tk_pop(L, 1)
        tk_newtable(L)
        lua_pushvalue(L, -1)
        _ = tk_setuservalue(L, ud)
    }
}

/// Private keys of the user value table, as light userdata (cannot clash with script keys).
enum UVKey {
    nonisolated(unsafe) static let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 16)
    static var classTable: UnsafeRawPointer { UnsafeRawPointer(storage) }
    static var value: UnsafeRawPointer { UnsafeRawPointer(storage + 4) }
    static var backgroundColor: UnsafeRawPointer { UnsafeRawPointer(storage + 5) }
    static var tintColor: UnsafeRawPointer { UnsafeRawPointer(storage + 6) }
    static var held: UnsafeRawPointer { UnsafeRawPointer(storage + 7) }
    static var children: UnsafeRawPointer { UnsafeRawPointer(storage + 8) }
    static var configuration: UnsafeRawPointer { UnsafeRawPointer(storage + 9) }
    static var anchors: UnsafeRawPointer { UnsafeRawPointer(storage + 10) }
}
