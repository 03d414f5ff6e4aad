import CLua
import Testing
import TraitKit
@testable import TraitKitLua

/// The binding's part of the walk trace (WalkTrace.swift): firing a Lua handler reports its
/// number's entries in the handler table and the function it calls, so the next walk
/// prefetches them. The entries' address is read from Lua's private table layout
/// (`array_slots.h`), so the first test checks it against the installed library: were a Lua
/// update to move a field, it fails here.
@Suite("Walk trace from Lua")
struct WalkTraceLuaTests {
    @Test func arraySlotsNameWhereLuaKeepsEveryEntry() throws {
        try #require(TK_ARRAY_SLOTS == 1, "built against a Lua without the 5.4 table layout")
        let L = try #require(luaL_newstate())
        defer { lua_close(L) }
        // Values Lua stores as they are (a light userdata is only a pointer, never read), in
        // a table grown one entry at a time as the handler table is, so the array part moves.
        func value(_ i: Int) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 0x10_0000 + 16 * i)! }
        let count = 5_000
        tk_newtable(L)
        for i in 1...count {
            lua_pushlightuserdata(L, value(i))
            lua_rawseti(L, -2, lua_Integer(i))
        }
        let table = lua_topointer(L, -1)
        for i in 1...count {
            let slot = try #require(tk_array_slot(table, lua_Integer(i)), "no slot for \(i)")
            #expect(slot.load(as: UnsafeRawPointer.self) == UnsafeRawPointer(value(i)), "index \(i)")
            #expect(slot.load(fromByteOffset: 8, as: UInt8.self) == UInt8(LUA_TLIGHTUSERDATA), "index \(i)")
        }
        #expect(tk_array_slot(table, 0) == nil)
        #expect(tk_array_slot(nil, 1) == nil)
    }

    @Test func aRepeatedLuaFlushFollowsItsWalkWithTheBindingsTouches() {
        let runtime = LuaRuntime()
        let error = runtime.run(chunk: """
            local tk = require "traitkit"
            local Theme = tk.defineTrait{ name = "WalkTraceTheme", values = {"a", "b", "c"}, default = "a" }
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            window.rootViewController = tk.ViewController{}
            local top = window.rootViewController.view
            fired = 0
            for c = 1, 40 do
              local container = tk.View{}
              top:addSubview(container)
              for i = 1, 10 do
                local view = tk.View{}
                container:addSubview(view)
                if i % 3 == 0 then view:registerForTraitChanges({ Theme }, function() fired = fired + 1 end) end
              end
            end
            tk.update()
            flip = function(value) top.traitOverrides[Theme] = value; tk.update() end
            for _, value in ipairs{ "b", "c", "b", "c" } do flip(value) end
            """, name: "=walk")
        #expect(error == nil)
        let walk = WalkTrace.lastUpdate
        // Per fired handler at least: the view, its registration, the closure's context, its
        // number, the handler table's entries, the handler.
        #expect(walk.touches >= 120 * 6)
        // All: nothing a flush does moves what the next one touches.
        #expect(walk.followed == walk.touches)
        #expect(runtime.run(chunk: "assert(fired == 4 * 120)", name: "=check") == nil)
    }
}
