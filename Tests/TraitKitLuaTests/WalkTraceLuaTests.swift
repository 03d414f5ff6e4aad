import CLua
import Testing
import TraitKit
@testable import TraitKitLua

/// The binding's part of the walk trace (WalkTrace.swift): firing a Lua handler reports the
/// node's slot in the identity cache, its userdata and its handler, so the next walk prefetches
/// them. The slot is read from Lua's private table layout (`identity_slots.h`), so the first test
/// checks it against the installed library: were a Lua update to move a field, it fails here.
@Suite("Walk trace from Lua")
struct WalkTraceLuaTests {
    @Test func identitySlotsNameWhereLuaKeepsEveryKey() throws {
        try #require(TK_IDENTITY_SLOTS == 1, "built against a Lua without the 5.4 table layout")
        let L = try #require(luaL_newstate())
        defer { lua_close(L) }
        // Keys as Lua sees object addresses: 16-byte aligned, scattered over a few megabytes
        // (a light userdata is only a value, never read), enough of them for collision chains.
        let count = 20_000
        func key(_ i: Int) -> UnsafeRawPointer { UnsafeRawPointer(bitPattern: 0x10_0000 + 16 * (i * 40_503 % (16 * count)))! }
        tk_newtable(L)
        for i in 0..<count {
            lua_pushboolean(L, 1)
            lua_rawsetp(L, -2, key(i))
        }
        let table = lua_topointer(L, -1)
        var chained = 0
        for i in 0..<count {
            var main: UnsafeRawPointer?, found: UnsafeRawPointer?
            tk_identity_slots(table, key(i), &main, &found)
            let slot = try #require(found, "key \(i) not found where Lua's layout says")
            #expect(main != nil)
            if slot != main { chained += 1 }
        }
        // Some keys sit down a chain from their main position, so that path is checked too.
        #expect(chained > 0)
        var main: UnsafeRawPointer?, found: UnsafeRawPointer?
        tk_identity_slots(table, UnsafeRawPointer(bitPattern: 0x8)!, &main, &found)
        #expect(found == nil)
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
        // Per fired handler at least: the view, its registration, the identity cache, the
        // userdata, the handler.
        #expect(walk.touches >= 120 * 5)
        // All but a few: each flush adds the previous collection's userdata to the identity
        // cache, and Lua may move a colliding key to make room (a node then has a new slot).
        #expect(walk.followed >= walk.touches - walk.touches / 100)
        #expect(runtime.run(chunk: "assert(fired == 4 * 120)", name: "=check") == nil)
    }
}
