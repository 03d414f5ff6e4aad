import CLua
import Testing
import TraitKit
@testable import TraitKitLua

@Suite("Node slots")
struct NodeSlotsTests {
    /// Sets global `name` of `runtime` to the userdata of `node`, as the binding pushes it.
    private func setGlobal(_ runtime: LuaRuntime, _ name: String, _ node: TraitEnvironment) {
        LuaObject.push(runtime.L, node)
        lua_setglobal(runtime.L, name)
    }

    private func expectRuns(_ runtime: LuaRuntime, _ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = runtime.run(chunk: source, name: "=test")
        #expect(error == nil, "\(error ?? "")", sourceLocation: sourceLocation)
    }

    /// A script that makes and drops views in rounds keeps an identity cache as long as the
    /// views alive at once: the collector gives each freed view's index back.
    @Test func indicesOfCollectedViewsAreReused() {
        let runtime = LuaRuntime()
        expectRuns(runtime, """
            local tk = require "traitkit"
            for round = 1, 5 do
              local views = {}
              for i = 1, 200 do views[i] = tk.View{ name = "v" .. i } end
              assert(rawequal(views[7], views[7]) and views[7].name == "v7")
              views = nil
              collectgarbage(); collectgarbage()
            end
            """)
        #expect(runtime.slotCount <= 210, "\(runtime.slotCount) indices for 200 views alive at once")
    }

    /// A node the engine keeps after its userdata was collected gets a new userdata when a
    /// script sees it again, and that one is the node's one value from then on.
    @Test func aNodeSeenAgainAfterItsUserdataWasCollectedIsOneValueAgain() {
        let runtime = LuaRuntime()
        let node = View(name: "kept")
        setGlobal(runtime, "first", node)
        expectRuns(runtime, """
            first.note = "old fields go with the old userdata"
            first = nil
            collectgarbage(); collectgarbage()
            """)
        setGlobal(runtime, "again", node)
        setGlobal(runtime, "same", node)
        expectRuns(runtime, """
            assert(rawequal(again, same))
            assert(again.name == "kept" and not pcall(function() return again.note end))
            """)
    }

    /// A node seen by two runtimes is one value in each, whichever of them made a userdata
    /// for it first, and after the first one's userdata was collected.
    @Test func aNodeInTwoRuntimesIsOneValueInEach() {
        let a = LuaRuntime(), b = LuaRuntime()
        let node = View(name: "shared")
        setGlobal(a, "x", node)
        setGlobal(b, "x", node)
        setGlobal(a, "y", node)
        setGlobal(b, "y", node)
        expectRuns(a, "assert(rawequal(x, y)); x, y = nil, nil; collectgarbage(); collectgarbage()")
        expectRuns(b, "assert(rawequal(x, y)); y = nil")
        setGlobal(b, "y", node)
        setGlobal(a, "x", node)
        setGlobal(a, "y", node)
        expectRuns(b, "assert(rawequal(x, y))")
        expectRuns(a, "assert(rawequal(x, y))")
    }

    /// A finalizer run by hand (through the debug library) leaves a node the engine keeps
    /// usable: the next time a script reaches it, it gets a new userdata.
    @Test func aViewFinalizedByHandIsReachedThroughANewValue() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            window.rootViewController = tk.ViewController{}
            local parent, child = tk.View{ name = "parent" }, tk.View{ name = "child" }
            window.rootViewController.view:addSubview(parent)
            parent:addSubview(child)
            debug.getmetatable(parent).__gc(parent)
            assert(not pcall(function() return parent.name end))
            local again = child.superview
            assert(not rawequal(again, parent) and again.name == "parent")
            assert(rawequal(child.superview, again) and rawequal(again.subviews[1], child))
            """)
    }

    /// The collector empties a dropped userdata's cache entry before it runs the userdata's
    /// finalizer. A node reached again in between gets a new userdata, and the old one's
    /// finalizer leaves the node bound to the new one: its fields survive a move into a
    /// window and a full collection.
    @Test func aFinalizerRunAfterTheNodeGotANewValueLeavesTheNodeBound() {
        let runtime = LuaRuntime()
        let L = runtime.L
        let node = View(name: "kept")
        setGlobal(runtime, "old", node)
        // One step of the collector at a time: the smallest step size, the debt paid by hand.
        expectRuns(runtime, """
            old = nil
            collectgarbage(); collectgarbage("incremental", 1000, 100, 1)
            function step() collectgarbage("step", 0) end
            """)
        setGlobal(runtime, "old", node)
        expectRuns(runtime, "old = nil")
        let top = lua_gettop(L)
        for _ in 0..<100_000 {
            guard LuaObject.pushExisting(L, node) else { break }
            lua_settop(L, top)
            lua_getglobal(L, "step")
            #expect(lua_pcallk(L, 0, 0, 0, 0, nil) == LUA_OK)
        }
        #expect(!LuaObject.pushExisting(L, node), "the collector never emptied the entry")
        #expect(node.binding === runtime.nodeAnchor, "the old userdata's finalizer ran with the entry")
        setGlobal(runtime, "new", node)
        expectRuns(runtime, """
            collectgarbage("incremental", 200, 100, 13); collectgarbage(); collectgarbage()
            local tk = require "traitkit"
            new.note = "kept"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            window.rootViewController = tk.ViewController{}
            window.rootViewController.view:addSubview(new)
            keep = window
            new = nil
            collectgarbage(); collectgarbage()
            assert(keep.rootViewController.view.subviews[1].note == "kept")
            """)
        #expect(node.binding === runtime.nodeAnchor)
    }

    /// A node's binding belongs to the runtime that made its newest userdata: another
    /// runtime collecting its own userdata of the node leaves it.
    @Test func collectingANodeInOneRuntimeLeavesAnotherRuntimesBinding() {
        let a = LuaRuntime(), b = LuaRuntime()
        let node = View(name: "shared")
        setGlobal(a, "x", node)
        setGlobal(b, "x", node)
        expectRuns(a, "x = nil; collectgarbage(); collectgarbage()")
        #expect(node.binding === b.nodeAnchor)
        expectRuns(b, """
            local tk = require "traitkit"
            x.note = "kept"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            window.rootViewController = tk.ViewController{}
            window.rootViewController.view:addSubview(x)
            keep, x = window, nil
            collectgarbage(); collectgarbage()
            assert(keep.rootViewController.view.subviews[1].note == "kept")
            """)
    }
}
