import CLua
import TraitKit

/// A Lua value held by the engine: an object-kind trait value (compared by identity) or work
/// queued with `tk.async`.
///
/// The box finds its value through a weak-valued table, so the box itself never keeps the
/// value alive (DESIGN.md §7). What does is one of two holds:
/// - `.anchored`: the value sits in the user value of the userdata that stands for its Swift
///   holder (a node's `traitOverrides`, a collection, a builder), so a value that refers back
///   to its node (`vc.traitOverrides.Coordinator = vc`) is a cycle inside Lua's heap, which
///   its collector frees when the script drops the hierarchy (`ValueAnchors`);
/// - `.pinned`: a registry reference, for holders no userdata stands for (a screen's system
///   traits, an image asset's variants, environment values, trait defaults, queued work). It
///   lasts as long as the box, as UIKit's holders keep their values.
///
/// The same Lua table or function gets the same box while one is alive, so identity holds
/// across reads and writes.
final class LuaValueBox: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: only used on the thread of its state.
    enum Hold { case anchored, pinned }

    private let link: RuntimeLink
    /// `lua_topointer` of the value: the identity map's key (nil for numbers and booleans).
    private let key: UnsafeRawPointer?
    private var ref: Int32?
    /// How Lua's `tostring` shows the value, kept for printing collections without Lua.
    let description: String

    private init(runtime: LuaRuntime, key: UnsafeRawPointer?, description: String) {
        self.link = runtime.link
        self.key = key
        self.description = description
    }

    /// The address that keys this box's entry in the weak table.
    private var address: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The box of the value at `i`, made on first use, pinned if `hold` asks for it.
    static func make(_ L: LuaState, _ i: Int32, _ hold: Hold) -> LuaValueBox {
        let runtime = LuaRuntime.of(L)
        let i = absolute(L, i)
        let key = lua_topointer(L, i)
        let box: LuaValueBox
        // A box outlives its value when nothing anchors it; the address may then be a new value's.
        if let key, let existing = runtime.valueBoxes[key]?.takeUnretainedValue(), existing.holds(L, i) {
            box = existing
        } else {
            box = LuaValueBox(runtime: runtime, key: key, description: describe(L, i))
            pushRef(L, runtime.boxValuesRef)
            lua_pushvalue(L, i)
            lua_rawsetp(L, -2, box.address)
            tk_pop(L, 1)
            if let key { runtime.valueBoxes[key] = Unmanaged.passUnretained(box) }
        }
        if hold == .pinned, box.ref == nil {
            lua_pushvalue(L, i)
            box.ref = luaL_ref(L, tk_registryindex())
        }
        return box
    }

    /// Pushes the value, or nil once nothing holds it any more.
    func push(_ L: LuaState) {
        pushRef(L, LuaRuntime.of(L).boxValuesRef)
        lua_rawgetp(L, -1, address)
        tk_replace(L, -2)
    }

    private func holds(_ L: LuaState, _ i: Int32) -> Bool {
        push(L)
        defer { tk_pop(L, 1) }
        return lua_rawequal(L, -1, i) != 0
    }

    private static func describe(_ L: LuaState, _ i: Int32) -> String {
        if let object = LuaObject.peek(L, i) { return LuaRuntime.describe(object) }
        switch lua_type(L, i) {
        case LUA_TSTRING: return string(L, i) ?? ""
        case LUA_TNUMBER, LUA_TBOOLEAN: return TraitValues.describeValue(L, i)
        default: return "\(typeName(L, i)): 0x" + String(UInt(bitPattern: lua_topointer(L, i)), radix: 16)
        }
    }

    deinit {
        guard let runtime = link.runtime else { return }
        let L = runtime.L
        if let key, runtime.valueBoxes[key]?.toOpaque() == address { runtime.valueBoxes[key] = nil }
        pushRef(L, runtime.boxValuesRef)
        lua_pushnil(L)
        lua_rawsetp(L, -2, address)
        tk_pop(L, 1)
        if let ref { luaL_unref(L, tk_registryindex(), ref) }
    }
}
