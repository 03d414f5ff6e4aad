import CLua
import TraitKit

/// One Lua state driving one engine `Application` (DESIGN.md §3, §7).
///
/// Owns the state, the allocator limits and the registry tables the binding needs (identity
/// cache, anchors, metatables, member tables). Every call from Swift into Lua goes through
/// `tk_pcall`; every call from Lua into Swift through `tk_trampoline`.
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
    private var countingAllocations = false
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
    /// `newIndexObject` as a Lua function, made once: a subclass constructor assigns its fields through it.
    var newIndexRef: Int32 = 0
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
    /// The names of every engine method, for the hint of a method called with `.`.
    private(set) var methodNames: Set<String> = []
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
    /// libraries are the program's; the binding's allocator takes over (`tk_attach`).
    init(attachingTo state: LuaState) {
        limits = .allocate(capacity: 1)
        L = state
        tk_attach(L, limits)
        ownsState = false
        sandboxed = false
        setUp {}
    }

    private func setUp(openLibraries: () -> Void) {
        if let offsets = TraitEnvironment.collectionPointerOffsets {
            limits.pointee.slot_offset = Int32(offsets.slot)
            limits.pointee.collection_offset = Int32(offsets.collection)
        }
        limits.pointee.runtime = Unmanaged.passUnretained(self).toOpaque()
        openLibraries()
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
        // through tk_alloc, which reads the limits, so they stay (one small block per state).
        guard ownsState else { return }
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
            case .node: tk_pushnodeindex(L, indexNodeFallback, collectionCacheRef)
            case .overrides: push(L, OverridesModule.index)
            default: push(L, indexObject)
            }
            rawSetField(L, -2, "__index")
            push(L, kind == .overrides ? OverridesModule.newIndex : newIndexObject); rawSetField(L, -2, "__newindex")
            // A proxy holds no object to release (`tk_push_new_overrides`).
            if kind != .overrides { push(L, LuaObject.collect); rawSetField(L, -2, "__gc") }
            push(L, objectToString); rawSetField(L, -2, "__tostring")
            push(L, objectEquals); rawSetField(L, -2, "__eq")
            push(L, "traitkit object"); rawSetField(L, -2, "__metatable")
            if kind == .collection || kind == .overrides { lua_pushvalue(L, -2); rawSetField(L, -2, "__pairs") }
            if kind == .collection {
                // Last: promoted collections get a copy of the finished metatable (tk_collection_index.h).
                tk_setcollectionindex(L, indexObject)
                promotedCollectionsRef = luaL_ref(L, tk_registryindex())
            }
            metatableRefs.append(luaL_ref(L, tk_registryindex()))
        }
        limits.pointee.overrides_metatable = metatableRefs[Int(LuaObject.Kind.overrides.rawValue)]
        tk_pop(L, 1)  // the __pairs metamethod
        push(L, newIndexObject)
        newIndexRef = luaL_ref(L, tk_registryindex())
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
        let refs = nearest(in: memberRefs, for: object) ?? memberRefs[ObjectIdentifier(TraitEnvironment.self)] ?? (0, 0)
        lastMembers = (type, refs)
        return refs
    }

    /// The entry for the object's class, or for its nearest superclass that has one.
    private func nearest<Value>(in table: [ObjectIdentifier: Value], for object: AnyObject) -> Value? {
        var type: AnyClass? = Swift.type(of: object)
        while let t = type {
            if let value = table[ObjectIdentifier(t)] { return value }
            type = _getSuperclass(t)
        }
        return nil
    }

    func register(_ members: Members, for type: AnyClass) {
        memberRefs[ObjectIdentifier(type)] = members.install(L)
        registeredMembers.append((type, members))
        methodNames.formUnion(members.methods.map(\.0))
    }

    // MARK: Running code

    /// Loads and runs a chunk; returns nil, or the error message (with traceback).
    public func run(chunk: String, name: String, arguments: [String] = []) -> String? {
        var chunk = chunk
        return chunk.withUTF8 { run(bytes: $0, name: name, arguments: arguments) }
    }

    /// Loads and runs a script file's bytes as `lua` runs a file: a byte-order mark and a
    /// `#` first line are skipped, and outside the sandbox a precompiled chunk runs too.
    public func run(script bytes: [UInt8], name: String, arguments: [String] = []) -> String? {
        skippingPrelude(bytes).withUnsafeBufferPointer { run(bytes: $0, name: name, arguments: arguments) }
    }

    private func run(bytes: UnsafeBufferPointer<UInt8>, name: String, arguments: [String]) -> String? {
        beginRun()
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let handler = pushMessageHandler(L)
        let status = bytes.withMemoryRebound(to: CChar.self) {
            tk_loadbuffer(L, $0.baseAddress, $0.count, name, sandboxed ? "t" : "bt")
        }
        if status != LUA_OK { return errorMessage(at: -1) }
        // As lua.c does: the arguments go on the stack, so there must be room for them.
        guard lua_checkstack(L, Int32(clamping: arguments.count + 3)) != 0 else {
            return "too many script arguments (\(arguments.count))"
        }
        for argument in arguments { push(L, argument) }
        if tk_pcall(L, Int32(arguments.count), 0, handler) != LUA_OK { return errorMessage(at: -1) }
        return nil
    }

    /// The error at `i` as text, saying plainly when a limit ended the run.
    func errorMessage(at i: Int32) -> String { errorMessage(L, at: i) }

    func errorMessage(_ L: LuaState, at i: Int32) -> String {
        if limits.pointee.memory_error != 0 {
            limits.pointee.memory_error = 0
            // Give back what the failed code left behind, so the state stays usable.
            tk_fullgc(L)
            return "memory limit of \(limits.pointee.limit / (1024 * 1024)) MB exceeded"
        }
        return string(L, i) ?? "(error object is a \(String(cString: lua_typename(L, lua_type(L, i)))) value)"
    }

    /// Calls the function below `nargs` arguments on the main thread's stack, protected, with
    /// a traceback (the engine's callbacks: handlers, lifecycle methods, providers).
    func protectedCall(nargs: Int32, nresults: Int32 = 0) throws {
        try protectedCall(L, nargs: nargs, nresults: nresults)
    }

    /// Calls the function below `nargs` arguments on `L`'s stack, protected, with a traceback;
    /// throws the failure as a `LuaCallError`. Leaves the stack as it found it minus the call.
    /// A Swift function called from Lua passes the state it was called with: inside a
    /// coroutine that is the coroutine, whose stack holds the function and its arguments.
    func protectedCall(_ L: LuaState, nargs: Int32, nresults: Int32 = 0) throws {
        let base = lua_gettop(L) - nargs
        _ = pushMessageHandler(L)
        tk_insert(L, base)
        do {
            try protectedCall(L, nargs: nargs, nresults: nresults, handler: base)
        } catch {
            lua_settop(L, base - 1)
            throw error
        }
        tk_remove(L, base)
    }

    /// The same call with the traceback handler already at `handler`, below the function
    /// (`pushMessageHandler`): callers that push it first spare the two stack rotations per
    /// call, the cost of a fired handler that matters on large trees. Pops the error on failure.
    func protectedCall(_ L: LuaState, nargs: Int32, nresults: Int32, handler: Int32) throws {
        // Lua code run while the engine records reads must read through Swift (tk_collection_index):
        // collections that answer reads from a table go back to the shared metatable first.
        let savedTracking = limits.pointee.tracking_reads
        limits.pointee.tracking_reads = TraitCollection.isRecordingReads ? 1 : 0
        if limits.pointee.tracking_reads != 0, savedTracking == 0 { demoteCollections(L) }
        defer {
            if savedTracking != 0, limits.pointee.tracking_reads == 0 { demoteCollections(L) }
            limits.pointee.tracking_reads = savedTracking
        }
        let status = tk_pcall(L, nargs, nresults, handler)
        if status != LUA_OK {
            let passable = status == LUA_ERRRUN && limits.pointee.memory_error == 0
            let message = errorMessage(L, at: -1)
            tk_pop(L, 1)
            throw LuaCallError(description: message, passable: passable,
                               valueNumber: passable ? keepErrorValue(L) : 0)
        }
    }

    /// Pushes the traceback handler every protected call runs with; returns its index.
    func pushMessageHandler(_ L: LuaState) -> Int32 {
        lua_pushcclosure(L, tk_msghandler, 0)
        return lua_gettop(L)
    }

    /// Sends every collection with a metatable of its own back to the shared one, so the
    /// reads of Lua code about to run reach the engine's read tracking (tk_collection_index.h). Never raises.
    private func demoteCollections(_ L: LuaState) {
        pushRef(L, promotedCollectionsRef)
        pushRef(L, metatableRefs[Int(LuaObject.Kind.collection.rawValue)])
        tk_demote_collections(L, -2, -1)
        tk_pop(L, 2)
    }

    // MARK: Scripted methods

    /// Runs `node`'s scripted method `name` (per-instance field first, then its Lua class chain)
    /// with `previous` when given; returns false when there is no such method.
    func callMethod(named name: String, on node: TraitEnvironment, argument: AnyObject?) throws -> Bool {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let handler = pushMessageHandler(L)
        guard LuaObject.pushExisting(L, node) else { return false }
        guard pushMethod(L, self: handler + 1, name: name) else { return false }
        lua_pushvalue(L, handler + 1)
        if let argument { LuaObject.push(L, argument, argument is TraitCollection ? .collection : .node) }
        try protectedCall(L, nargs: argument == nil ? 1 : 2, nresults: 0, handler: handler)
        return true
    }

    /// Pushes the function `name` found on the object at `ud` (fields, then class chain).
    func pushMethod(_ L: LuaState, self ud: Int32, name: String) -> Bool {
        if tk_getuservalue(L, ud) == LUA_TTABLE {
            if rawGetField(L, -1, name) == LUA_TFUNCTION { tk_replace(L, -2); return true }
            tk_pop(L, 1)
            if lua_rawgetp(L, -1, UVKey.classTable) == LUA_TTABLE {
                tk_replace(L, -2)
                return findInClassChain(L, name)
            }
            tk_pop(L, 1)
        }
        tk_pop(L, 1)
        guard pushDefaultClass(L, ud) else { return false }
        return findInClassChain(L, name)
    }

    /// With a class table on top, replaces it by `name` found along its `__super` chain, and
    /// with `builtins` in the root class's built-in methods after that (`BuiltinMethods`);
    /// pops it and returns false when there is none.
    func findInClassChain(_ L: LuaState, _ name: String, builtins: Bool = false) -> Bool {
        push(L, name)
        tk_insert(L, -2)
        let found = findInClassChain(L, key: -2, builtins: builtins)
        if found { tk_remove(L, -2) } else { tk_pop(L, 1) }
        return found
    }

    /// The same for the name at `key`, a Lua string already (`__index`'s key): each class is
    /// one raw lookup, with no Swift string made or interned again.
    func findInClassChain(_ L: LuaState, key: Int32, builtins: Bool = false) -> Bool {
        let key = absolute(L, key)
        for _ in 0..<ClassModule.maxChain {
            lua_pushvalue(L, key)
            if lua_rawget(L, -2) == LUA_TFUNCTION { tk_replace(L, -2); return true }
            tk_pop(L, 1)
            if rawGetField(L, -1, "__super") != LUA_TTABLE {
                tk_pop(L, 1)
                if builtins, let name = string(L, key) { return BuiltinMethods.find(L, name) }
                tk_pop(L, 1)
                return false
            }
            tk_replace(L, -2)
        }
        tk_pop(L, 1)
        return false
    }

    /// Pushes the class table of the engine class of the object at `ud`.
    func pushDefaultClass(_ L: LuaState, _ ud: Int32) -> Bool {
        guard let object = LuaObject.peek(L, ud), let ref = nearest(in: classRefs, for: object) else { return false }
        pushRef(L, ref)
        return true
    }

    /// Notes that a script defined lifecycle method `name`, so the engine starts asking for it.
    func noteDefinition(_ L: LuaState, key: Int32, value: Int32) throws {
        guard let name = string(L, key), let event = NodeEvent(rawValue: name) else { return }
        // The engine calls these: anything else would be stored and never called.
        guard lua_type(L, value) == LUA_TFUNCTION else {
            if isNil(L, value) { return }
            throw LuaError("'\(name)' must be a function (the engine calls it as a lifecycle method), got \(typeName(L, value))")
        }
        definedMethods.insert(event)
        BindingHints.declare(event)
    }

    // MARK: Fallbacks for __index / __newindex

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
                    if findInClassChain(L, key: 2, builtins: true) { return 1 }
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
        default:
            let key = string(L, 2) ?? typeName(L, 2)
            let names = memberNames(L, 1)
            throw LuaError("\(typeName(L, 1)) has no field '\(clipped(key))'" + (names.isEmpty ? "" : " (it has: \(names.joined(separator: ", ")))"))
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
        var candidates = memberNames(L, 1) + NodeEvent.allCases.map(\.rawValue)
        if tk_getuservalue(L, 1) == LUA_TTABLE {
            try? forEachPair(L, -1) { if let name = string(L, -2) { candidates.append(name) } }
        }
        tk_pop(L, 1)
        let owner = (LuaObject.peek(L, 1) as? TraitEnvironment)?.debugName ?? typeName(L, 1)
        return LuaError("\(owner) has no member '\(clipped(key))'" + didYouMean(key, in: candidates)
            + " (fields a script sets on it can be read back)")
    }

    /// The names of the members of the object at `i`, sorted, for an unknown-field error.
    private func memberNames(_ L: LuaState, _ i: Int32) -> [String] {
        guard let box = LuaObject.box(L, i) else { return [] }
        pushRef(L, box.pointee.members)
        defer { tk_pop(L, 1) }
        var names: [String] = []
        try? forEachPair(L, -1) { if let name = string(L, -2) { names.append(name) } }
        return names.sorted()
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
        var names: [String] = []
        pushRef(L, box.pointee.setters)
        try? forEachPair(L, -1) { if let name = string(L, -2) { names.append(name) } }
        tk_pop(L, 1)
        return names
    }
}

/// A set of `NodeEvent`s as bits: checked for every changed node, so no hashing.
struct EventMask {
    private var bits: UInt32 = 0
    private static let index: [NodeEvent: Int] = Dictionary(
        uniqueKeysWithValues: NodeEvent.allCases.enumerated().map { ($1, $0) })
    func contains(_ event: NodeEvent) -> Bool {
        bits != 0 && bits & (1 << UInt32(Self.index[event]!)) != 0
    }

    mutating func insert(_ event: NodeEvent) { bits |= 1 << UInt32(Self.index[event]!) }
}

/// `__tostring` for engine objects.
let objectToString: SwiftLuaFunction = { L in
    guarded(L) { L in
        guard let box = LuaObject.box(L, 1) else {
            throw argumentError(L, 1, "__tostring", expected: "a TraitKit object")
        }
        if box.pointee.kind == LuaObject.Kind.overrides.rawValue, let node = LuaObject.overridesNode(L, 1) {
            push(L, node.traitOverridesIfAny?.description ?? "<TraitOverrides>")
            return 1
        }
        guard let raw = box.pointee.object else { push(L, "<collected object>"); return 1 }
        push(L, LuaRuntime.describe(Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue()))
        return 1
    }
}

/// `__eq`: collections and static colors compare by value, everything else by identity.
let objectEquals: SwiftLuaFunction = { L in
    guarded(L) { L in
        let a = LuaObject.peek(L, 1), b = LuaObject.peek(L, 2)
        if let a = a as? TraitCollection, let b = b as? TraitCollection {
            lua_pushboolean(L, a == b ? 1 : 0)
        } else if let a = a as? Color, let b = b as? Color {
            lua_pushboolean(L, a == b ? 1 : 0)
        } else {
            lua_pushboolean(L, a != nil && a === b ? 1 : 0)
        }
        return 1
    }
}

extension LuaRuntime {
    static func describe(_ object: AnyObject) -> String {
        switch object {
        case let node as TraitEnvironment: return "<\(node.debugName)>"
        case let custom as CustomStringConvertible: return custom.description
        default: return "<\(LuaObject.className(object))>"
        }
    }
}

extension LuaRuntime {
    /// `--memory-limit`: bytes Lua may hold (0: none). Going over it ends the run (`tk_hook`).
    public var memoryLimit: Int {
        get { limits.pointee.limit }
        set {
            limits.pointee.limit = newValue
            tk_setcounting(L, limits, newValue > 0 || countsAllocations ? 1 : 0)
            tk_resethook(L)
        }
    }

    /// Whether the allocator counts what Lua allocates (`tk_Limits.used`, `.allocations`).
    /// Off, a state without a memory limit allocates as `lua` does; `traitkit bench` turns
    /// it on for its allocation figures.
    public var countsAllocations: Bool {
        get { countingAllocations }
        set {
            countingAllocations = newValue
            tk_setcounting(L, limits, newValue || memoryLimit > 0 ? 1 : 0)
        }
    }

    /// `--timeout`: seconds from now after which running Lua code is stopped.
    public var timeout: Double? {
        get { limits.pointee.deadline > 0 ? limits.pointee.timeout : nil }
        set {
            limits.pointee.timeout = newValue ?? 0
            limits.pointee.deadline = newValue.map { tk_now() + $0 } ?? 0
            tk_resethook(L)
        }
    }

    /// Gives a new run (a script, a REPL input) the budget back after a limit ended the last:
    /// the limits stay, the end they caused is forgotten.
    public func beginRun() {
        limits.pointee.ended = 0
        limits.pointee.memory_error = 0
        tk_resethook(L)
        tk_forget_error(L)
    }

    /// Whether a limit ended the current run (it stays ended until `beginRun`).
    public var limitEnded: Bool { limits.pointee.ended != 0 }

    /// Sets the global `arg` as `lua` does: arg[0] the script, arg[1...] its arguments, and
    /// the command-line words before the script (the tool, its options) at arg[-n]...arg[-1].
    public func setScriptArguments(script: String, arguments: [String], preceding: [String] = []) {
        lua_createtable(L, Int32(arguments.count), Int32(preceding.count + 1))
        for (n, word) in preceding.reversed().enumerated() {
            push(L, word)
            lua_rawseti(L, -2, lua_Integer(-1 - n))
        }
        push(L, script)
        lua_rawseti(L, -2, 0)
        for (n, argument) in arguments.enumerated() {
            push(L, argument)
            lua_rawseti(L, -2, lua_Integer(n + 1))
        }
        rawSetGlobal(L, "arg")
    }
}

extension LuaRuntime {
    /// The number at `table.key` in the globals, if there is one (for tools reading results).
    public func globalNumber(table: String, key: String) -> Double? {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard rawGetGlobal(L, table) == LUA_TTABLE, rawGetField(L, -1, key) == LUA_TNUMBER else { return nil }
        return tk_tonumber(L, -1, nil)
    }
}

/// The runtime as closures handed to the engine see it: nil once the state is closed.
///
/// A weak reference would do the same, but it gives the runtime a side table, and every
/// retain and release of the runtime then takes Swift's slow path (a tenth of the cost of a
/// Lua handler called from an update). The runtime clears the link when it closes, before it
/// can go away.
final class RuntimeLink {
    private var ref: Unmanaged<LuaRuntime>?

    init(_ runtime: LuaRuntime) { ref = .passUnretained(runtime) }

    var runtime: LuaRuntime? {
        get { ref?.takeUnretainedValue() }
        set { ref = newValue.map(Unmanaged.passUnretained) }
    }

    /// Runs `body` with the runtime, without retaining it (a fired Lua handler would pay an
    /// atomic increment and decrement); nil once the state is closed.
    @inline(__always)
    func withRuntime<Result>(_ body: (LuaRuntime) throws -> Result) rethrows -> Result? {
        try ref?._withUnsafeGuaranteedRef(body)
    }
}
