import CLua
import Synchronization
import TraitKit

/// Nodes in the identity cache by index, not by address.
///
/// A script makes a userdata for most nodes it touches, and the identity cache (object
/// address → userdata, weak values) grows with them: entering a node under its address is a
/// pointer hash and, as the table doubles, a rehash of every entry, about a fifth of what a
/// constructor costs. So a node's userdata goes into the cache's array part instead, at an
/// index the node keeps (`TraitEnvironment.bindingSlot`): entering it is a store, finding it
/// a load.
///
/// A node keeps one index, for the first runtime that makes it a userdata; the slot word
/// holds that runtime's tag in its high half. Other runtimes enter the node under its
/// address, as other objects. An index is given back when the collector finalizes the
/// userdata it holds (the weak entry is cleared by then), unless the node got a new
/// userdata at the same index meanwhile; freed indices are reused first, so the array
/// part stays as long as the number of node userdata alive at once.
enum NodeSlots {
    private static let nextTag = Atomic<UInt32>(1)

    /// A tag no other runtime of the process has.
    static func newTag() -> UInt32 { nextTag.add(1, ordering: .relaxed).oldValue }

    /// The index `node` has in this runtime's cache, if it has one there.
    @inline(__always)
    private static func index(_ node: TraitEnvironment, _ runtime: LuaRuntime) -> lua_Integer? {
        let word = node.bindingSlot
        guard UInt32(truncatingIfNeeded: word >> 32) == runtime.slotTag else { return nil }
        return lua_Integer(UInt32(truncatingIfNeeded: word))
    }

    /// With the identity cache at `cache`: pushes the userdata of `node` and returns true if
    /// it has a live one; pushes nothing otherwise.
    static func push(_ L: LuaState, _ node: TraitEnvironment, cache: Int32, _ runtime: LuaRuntime) -> Bool {
        let found = if let index = index(node, runtime) {
            lua_rawgeti(L, cache, index)
        } else {
            lua_rawgetp(L, cache, Unmanaged.passUnretained(node).toOpaque())
        }
        if found == LUA_TUSERDATA { return true }
        tk_pop(L, 1)
        return false
    }

    /// With the identity cache at `cache` and the new userdata of `node` on top: enters it in
    /// the cache (the userdata stays on top).
    static func enter(_ L: LuaState, _ node: TraitEnvironment, cache: Int32, _ runtime: LuaRuntime) {
        lua_pushvalue(L, -1)
        if node.bindingSlot == 0 { node.bindingSlot = runtime.takeSlot() }
        if let index = index(node, runtime) {
            lua_rawseti(L, cache, index)
        } else {
            lua_rawsetp(L, cache, Unmanaged.passUnretained(node).toOpaque())
        }
    }

    /// The finalizer of the userdata at `ud`, which holds `node`: empties the node's entry and
    /// gives back its index if the entry is empty or still this userdata (when the state
    /// closes, or when a script ran the finalizer by hand). Returns whether it was: false when
    /// the node got a new userdata after the collector cleared the entry, which then owns the
    /// node's binding.
    static func release(_ L: LuaState, _ node: TraitEnvironment, ud: Int32, _ runtime: LuaRuntime) -> Bool {
        let index = index(node, runtime)
        let address = Unmanaged.passUnretained(node).toOpaque()
        pushRef(L, runtime.cacheRef)
        let entry = if let index { lua_rawgeti(L, -1, index) } else { lua_rawgetp(L, -1, address) }
        let current = entry == LUA_TNIL || lua_rawequal(L, -1, ud) != 0
        tk_pop(L, 1)
        if current, let index {
            lua_pushnil(L)
            lua_rawseti(L, -2, index)
            node.bindingSlot = 0
            // A closing state makes no userdata again: no use keeping its indices.
            if !runtime.closed { runtime.freeSlots.append(UInt32(truncatingIfNeeded: index)) }
        } else if current, entry != LUA_TNIL {
            lua_pushnil(L)
            lua_rawsetp(L, -2, address)
        }
        tk_pop(L, 1)
        return current
    }
}

extension LuaRuntime {
    /// An index of the identity cache no node holds, as a node's slot word.
    func takeSlot() -> UInt64 {
        let index: UInt32
        if let free = freeSlots.popLast() {
            index = free
        } else {
            slotCount += 1
            index = slotCount
        }
        return UInt64(slotTag) << 32 | UInt64(index)
    }
}
