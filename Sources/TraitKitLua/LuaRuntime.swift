import CLua
import TraitKit

/// One Lua state driving one engine `Application` (DESIGN.md §3, §7).
///
/// Owns the state, the allocator limits and the registry tables the binding needs (identity
/// cache, anchors, metatables, member tables). Every call from Swift into Lua goes through
/// `tk_pcall`; every call from Lua into Swift through `tk_trampoline`. Its other parts:
/// running code (`LuaRuntime+Running.swift`), the limits (`+Limits`), scripted methods
/// (`+ScriptedMethods`) and what `__index` and `__newindex` fall back to (`+Fallbacks`).
public final class LuaRuntime {
    /// The Lua state, for code that extends the binding with the C API.
    public let L: LuaState
    let limits: UnsafeMutablePointer<tk_Limits>
    /// The engine run loop `tk.update()` turns.
    public let application = Application()
    /// Whether the state runs with `--sandbox`'s restrictions.
    public let sandboxed: Bool
    /// Whether this runtime made its state and closes it; a runtime attached to another
    /// program's state (`require "traitkit"` from lua5.4) leaves that to the program.
    let ownsState: Bool
    @exclusivity(unchecked) private(set) var closed = false
    /// Backs `countsAllocations`.
    var countingAllocations = false
    /// The Lua release the binding was built against, as `lua -v` names it ("Lua 5.4.6").
    public static let luaRelease = "Lua \(LUA_VERSION_MAJOR).\(LUA_VERSION_MINOR).\(LUA_VERSION_RELEASE)"

    /// The identity cache: object address → userdata, weak values; nodes at an index they
    /// keep (`NodeSlots`).
    var cacheRef: Int32 = 0
    /// This runtime's tag in the nodes' slot words, the cache indices given back, and how
    /// many indices were ever given out (`NodeSlots`).
    let slotTag = NodeSlots.newTag()
    @exclusivity(unchecked) var freeSlots: [UInt32] = []
    @exclusivity(unchecked) var slotCount: UInt32 = 0
    /// The identity cache of collections, a table of its own: a script reads a few thousand
    /// collections among tens of thousands of nodes, and their lookups (every
    /// `node.traitCollection` whose collection changed) walk a table that size, not the nodes'.
    var collectionCacheRef: Int32 = 0
    /// The collection whose userdata the collections' identity cache also holds under key 1 (see
    /// `LuaObject.push`): the `previous` every handler of a region gets, found without hashing.
    var lastCollection: UnsafeMutableRawPointer?
    var anchoredRef: Int32 = 0
    /// The REPL session driving this state, if any (for `:watch` output).
    weak var replSession: LuaRepl?
    var environmentKeysRef: Int32 = 0
    var callTargetRef: Int32 = 0
    /// `t[m]`: a method looked up as a call would; nil when the lookup raises.
    var methodLookupRef: Int32 = 0
    /// Trait name (the Lua string) → the trait, as light userdata (TraitValues.traitKey).
    var traitNamesRef: Int32 = 0
    /// Trait id + 1 → the trait's cases: index + 1 → name as a Lua string, name → index (TraitValues.pushCases).
    var caseNamesRef: Int32 = 0
    @exclusivity(unchecked) var metatableRefs: [Int32] = []
    /// The weak-keyed set of collections with a metatable of their own (`tk_collection_index`).
    var promotedCollectionsRef: Int32 = 0
    @exclusivity(unchecked) private var memberRefs: [ObjectIdentifier: (getters: Int32, setters: Int32)] = [:] {
        didSet {
            lastMembers = (nil, (0, 0))
            // Every overrides proxy's, for the C that makes them (tk_push_new_overrides).
            let proxy = memberRefs[ObjectIdentifier(OverridesModule.Proxy.self)] ?? (0, 0)
            limits.pointee.overrides_members = proxy.getters
            limits.pointee.overrides_setters = proxy.setters
        }
    }
    /// The last class `members(for:)` answered: scripts make objects of one class in runs,
    /// and each answer otherwise costs a hash per class up the chain.
    @exclusivity(unchecked) private var lastMembers: (type: ObjectIdentifier?, refs: (getters: Int32, setters: Int32)) = (nil, (0, 0))
    /// What `register` was given, in order: the names each class offers, for the checks and
    /// references built on them.
    private(set) var registeredMembers: [(type: AnyClass, members: Members)] = []
    /// Updates run by script calls under way, and the error values they keep (`UpdateErrors`).
    var updateDepth = 0
    var errorValuesRef: Int32 = 0
    var nextErrorValue = 1
    var classRefs: [ObjectIdentifier: Int32] = [:]
    /// The list `recordLoadedFiles` fills (0 when not recording).
    var loadedFilesRef: Int32 = 0
    /// Lifecycle methods some script defined somewhere: skips lookups for the rest.
    var definedMethods = EventMask()
    /// The id of the last Lua registration made (`HandlerSlot`).
    var lastHandlerId: Int64 = 0
    /// Lua value (its address) → its box, unretained: a box leaves in its deinit.
    var valueBoxes: [UnsafeRawPointer: Unmanaged<LuaValueBox>] = [:]
    /// Box address → the value it holds, weak values: a box never keeps its value alive.
    var boxValuesRef: Int32 = 0
    /// Override values replaced since the last `tk.update()` began (`ValueAnchors`).
    var retiredRef: Int32 = 0
    /// `--trait name=value` settings: every Screen a script makes has these system traits,
    /// whatever its constructor says (the person running the script asked for them), and
    /// every WindowScene these custom traits; the script's own calls still change them after.
    public var traitSettings = TraitSettings()
    /// The script's named colors and images (`tk.Color.named`, `tk.Image.named`).
    public let assets = AssetCatalog()
    /// "color:NAME" / "image:NAME" → the registered userdata (`AssetsModule`).
    var assetAnchorsRef: Int32 = 0

    /// Makes a state with the standard libraries (or the sandbox's subset) and the `traitkit`
    /// module available to `require`.
    public init(sandbox: Bool = false) {
        limits = .allocate(capacity: 1)
        L = tk_newstate(limits)
        ownsState = true
        sandboxed = sandbox
        setUp { Sandbox.openLibraries(L, sandboxed: sandbox) }
    }

    /// A runtime for a state another program made and closes (`openModule`): its
    /// libraries are the program's; the binding's allocator takes over (`tk_attach`). The
    /// runtime keeps the state's main thread, as one that makes its state does: `state` may
    /// be a coroutine (a `require` inside one), which the collector frees once unreferenced.
    init(attachingTo state: LuaState) {
        // The C library's block: tk_alloc frees it with the state's last (tk_free_attached).
        limits = malloc(MemoryLayout<tk_Limits>.size)!.bindMemory(to: tk_Limits.self, capacity: 1)
        tk_attach(state, limits)
        L = limits.pointee.main!
        ownsState = false
        sandboxed = false
        setUp { [L] in Self.makeSentinel(L) }
    }

    /// Installs the binding; `first` runs before it makes any Lua object (the libraries of a
    /// state of its own; the sentinel of an attached one, `makeSentinel`).
    private func setUp(_ first: () -> Void) {
        if let offsets = TraitEnvironment.collectionPointerOffsets {
            limits.pointee.slot_offset = Int32(offsets.slot)
            limits.pointee.collection_offset = Int32(offsets.collection)
        }
        limits.pointee.runtime = Unmanaged.passUnretained(self).toOpaque()
        first()
        tk_make_function_set(L)
        tk_guard_setupvalue(L)
        installRegistryTables()
        LuaModule.install(self)
    }

    deinit { close() }

    /// What engine-held closures and boxes keep instead of a weak reference to the runtime
    /// (cleared when the state closes).
    private(set) lazy var link = RuntimeLink(self)

    /// The binding of every node this runtime wraps (`NodeAnchor.adopt`).
    private(set) lazy var nodeAnchor = NodeAnchor(runtime: self)

    /// Closes the state: every userdata is finalized and releases its object.
    public func close() {
        guard !closed else { return }
        closed = true
        link.runtime = nil
        // An attached state is closing itself (this runs from its finalizer): Lua still frees
        // through tk_alloc, which reads the limits, so they stay until its last block
        // (tk_free_attached), without the runtime, which is released next: the finalizers that
        // run after this one (of objects made before `require "traitkit"`) are refused a call
        // (tk_run_swift).
        guard ownsState else {
            limits.pointee.runtime = nil
            return
        }
        lua_close(L)
        limits.deallocate()
    }

    static func of(_ L: LuaState) -> LuaRuntime {
        unretained(L).takeUnretainedValue()
    }

    /// The runtime of `L`, not retained: for the lookups that run for every object pushed.
    static func unretained(_ L: LuaState) -> Unmanaged<LuaRuntime> {
        Unmanaged<LuaRuntime>.fromOpaque(tk_limits(L).pointee.runtime!)
    }

    private func installRegistryTables() {
        // Identity cache: object address → userdata, weak values.
        tk_newtable(L)
        makeWeak(L, "v")
        cacheRef = luaL_ref(L, tk_registryindex())
        tk_newtable(L)
        makeWeak(L, "v")
        collectionCacheRef = luaL_ref(L, tk_registryindex())
        // Values of boxes: weak values.
        tk_newtable(L)
        makeWeak(L, "v")
        boxValuesRef = luaL_ref(L, tk_registryindex())
        tk_newtable(L)
        retiredRef = luaL_ref(L, tk_registryindex())
        tk_newtable(L)
        errorValuesRef = luaL_ref(L, tk_registryindex())
        // Userdata owned by the application itself (screens): strong.
        tk_newtable(L)
        anchoredRef = luaL_ref(L, tk_registryindex())
        tk_newtable(L)
        traitNamesRef = luaL_ref(L, tk_registryindex())
        tk_newtable(L)
        caseNamesRef = luaL_ref(L, tk_registryindex())
        Pairs.pushMetamethod(L)
        for kind in LuaObject.Kind.allCases {
            tk_newtable(L)
            switch kind {
            case .node: tk_pushnodeindex(L, indexNodeFallback, collectionCacheRef, UVKey.classTable)
            case .overrides: push(L, OverridesModule.index)
            default: push(L, indexObject)
            }
            rawSetField(L, -2, "__index")
            switch kind {
            case .node:
                tk_newtable(L)
                for event in NodeEvent.allCases {
                    lua_pushboolean(L, 1)
                    rawSetField(L, -2, event.rawValue)
                }
                tk_pushnodenewindex(L, newIndexObject)
            case .overrides: push(L, OverridesModule.newIndex)
            default: push(L, newIndexObject)
            }
            rawSetField(L, -2, "__newindex")
            // A proxy holds no object to release (`tk_push_new_overrides`).
            if kind != .overrides { push(L, LuaObject.collect); rawSetField(L, -2, "__gc") }
            push(L, objectToString); rawSetField(L, -2, "__tostring")
            push(L, objectEquals); rawSetField(L, -2, "__eq")
            push(L, "traitkit object"); rawSetField(L, -2, "__metatable")
            if kind == .collection || kind == .overrides { lua_pushvalue(L, -2); rawSetField(L, -2, "__pairs") }
            if kind == .node { Pairs.pushNodeMetamethod(L); rawSetField(L, -2, "__pairs") }
            if kind == .collection {
                // Last: promoted collections get a copy of the finished metatable (tk_collection_index.h).
                tk_setcollectionindex(L, indexObject)
                promotedCollectionsRef = luaL_ref(L, tk_registryindex())
            }
            metatableRefs.append(luaL_ref(L, tk_registryindex()))
        }
        limits.pointee.overrides_metatable = metatableRefs[Int(LuaObject.Kind.overrides.rawValue)]
        tk_pop(L, 1)  // the __pairs metamethod
        // Two functions made by one chunk: the target-action call, and the lookup that
        // registration checks with. A lookup that raises (an engine node has no such member)
        // counts as no method.
        let source = "local pcall, type, error, tostring = pcall, type, error, tostring "
            + "local function index(t, m) return t[m] end "
            + "local function lookup(t, m) local ok, f = pcall(index, t, m) if ok then return f end end "
            + "return function(t, m, n, p) local f = lookup(t, m) if type(f) ~= 'function' then "
            + "error(('the target of a trait change registration on %s has no method %q (target: %s)')"
            + ":format(tostring(n), m, tostring(t)), 0) end "
            + "return f(t, n, p) end, lookup"
        _ = tk_loadbuffer(L, source, source.utf8.count, "=[traitkit target-action]", "t")
        _ = tk_pcall(L, 0, 2, 0)
        methodLookupRef = luaL_ref(L, tk_registryindex())
        callTargetRef = luaL_ref(L, tk_registryindex())
    }

    /// The member tables for an object (per Swift class for nodes, per kind otherwise).
    func members(for object: AnyObject, _ kind: LuaObject.Kind) -> (getters: Int32, setters: Int32) {
        let type = ObjectIdentifier(Swift.type(of: object))
        if type == lastMembers.type { return lastMembers.refs }
        let refs = members(forClass: Swift.type(of: object))
        lastMembers = (type, refs)
        return refs
    }

    /// The member tables of instances of an engine class.
    func members(forClass type: AnyClass) -> (getters: Int32, setters: Int32) {
        nearest(in: memberRefs, forClass: type) ?? memberRefs[ObjectIdentifier(TraitEnvironment.self)] ?? (0, 0)
    }

    /// The entry for the object's class, or for its nearest superclass that has one.
    func nearest<Value>(in table: [ObjectIdentifier: Value], for object: AnyObject) -> Value? {
        nearest(in: table, forClass: Swift.type(of: object))
    }

    /// The entry for the class, or for its nearest superclass that has one.
    func nearest<Value>(in table: [ObjectIdentifier: Value], forClass type: AnyClass) -> Value? {
        var type: AnyClass? = type
        while let t = type {
            if let value = table[ObjectIdentifier(t)] { return value }
            type = _getSuperclass(t)
        }
        return nil
    }

    func register(_ members: Members, for type: AnyClass) {
        memberRefs[ObjectIdentifier(type)] = members.install(L)
        registeredMembers.append((type, members))
    }

    /// Whether some engine class has a method `name`, for the hint of a method called with
    /// `.`: looked up when that error is made, not kept (a set of every method's name cost
    /// about a twentieth of the tool's start-up).
    func isMethodName(_ name: String) -> Bool {
        registeredMembers.contains { $0.members.methods.contains { $0.0 == name } }
    }
}
