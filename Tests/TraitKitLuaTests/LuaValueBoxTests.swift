import Testing
@testable import TraitKitLua

/// Lua values held as object-kind trait values (`LuaValueBox`, `ValueAnchors`): they live as
/// long as what holds them, and a value that refers back to its node never pins it (§7).
@Suite("Lua values in traits")
struct LuaValueBoxTests {
    @Test func overrideValuesThatReferToTheirNodeAreCollected() {
        expectLua("""
            local tk = require "traitkit"
            local Obj = tk.defineTrait{ name = "Obj", kind = "object" }
            local weak = setmetatable({}, { __mode = "v" })
            for i = 1, 2000 do
              local vc, v = tk.ViewController{}, tk.View{}
              vc.view:addSubview(v)
              vc.traitOverrides.Obj = vc                      -- a controller hands itself down
              v.traitOverrides.Obj = { owner = v, index = i }  -- a model that points back
              v:updateTraitsIfNeeded()
              weak[#weak + 1] = vc
              weak[#weak + 1] = v
            end
            collectgarbage(); collectgarbage()
            assert(#weak == 0, #weak .. " nodes survived")
            """)
    }

    @Test func anOverrideValueLivesWhileItIsSetAndUntilTheNextUpdate() {
        expectLua("""
            local tk = require "traitkit"
            local Obj = tk.defineTrait{ name = "Obj", kind = "object" }
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.ViewController{}
            local parent, child = tk.View{}, tk.View{}
            w.rootViewController.view:addSubview(parent)
            parent:addSubview(child)
            local previous
            child:registerForTraitChanges({Obj}, function(_, prev) previous = prev end)
            parent.traitOverrides.Obj = { name = "first" }
            collectgarbage(); collectgarbage()
            tk.update()
            assert(child.traitCollection.Obj.name == "first", "inherited, after a collection")
            assert(rawequal(child.traitCollection.Obj, parent.traitOverrides.Obj), "the same table")

            -- Replaced: the collections keep the old value until the update (R6).
            parent.traitOverrides.Obj = { name = "second" }
            collectgarbage(); collectgarbage()
            assert(child.traitCollection.Obj.name == "first", "stale until the update")
            tk.update()
            assert(child.traitCollection.Obj.name == "second")
            collectgarbage(); collectgarbage()
            assert(previous.Obj.name == "first", "the handler's previous collection keeps its value")

            -- A collection the script keeps keeps its values after the override is gone.
            local kept = child.traitCollection
            parent.traitOverrides:remove(Obj)
            tk.update()
            collectgarbage(); collectgarbage()
            assert(kept.Obj.name == "second")
            assert(child.traitCollection.Obj == nil)
            """)
    }

    @Test func builtCollectionsKeepTheirValues() {
        expectLua("""
            local tk = require "traitkit"
            local Obj = tk.defineTrait{ name = "Obj", kind = "object" }
            local tc = tk.TraitCollection(function(t)
              t.Obj = { name = "built" }
              collectgarbage(); collectgarbage()       -- mid-build: the builder holds it
            end)
            local modified = tk.TraitCollection{}:modifying{ Obj = { name = "modified" } }
            collectgarbage(); collectgarbage()
            assert(tc.Obj.name == "built")
            assert(modified.Obj.name == "modified")
            local t = {}
            assert(tostring(tk.TraitCollection{ Obj = t }) == "<TraitCollection: Obj = " .. tostring(t) .. ">")
            local v = tk.View{ name = "card" }
            assert(tostring(tk.TraitCollection{ Obj = v }) == "<TraitCollection: Obj = " .. tostring(v) .. ">")
            """)
    }

    @Test func screensAndEnvironmentValuesKeepTheirValues() {
        expectLua("""
            local tk = require "traitkit"
            local Obj = tk.defineTrait{ name = "Obj", kind = "object" }
            local screen = tk.Screen{ Obj = { name = "screen" } }
            screen:setSystemTraits{ Obj = { name = "set" } }
            local w = tk.Window{ scene = tk.WindowScene{ screen = screen } }
            w.rootViewController = tk.ViewController{}
            local ran = false
            tk.async(function() ran = true end)
            collectgarbage(); collectgarbage()
            tk.update()
            assert(ran, "queued work survived a collection")
            collectgarbage(); collectgarbage()
            assert(w.rootViewController.traitCollection.Obj.name == "set")
            """)
    }

    /// An unchanged value is not a change: setting the same table again fires nothing.
    @Test func theSameTableIsTheSameValue() {
        expectLua("""
            local tk = require "traitkit"
            local Obj = tk.defineTrait{ name = "Obj", kind = "object" }
            local v = tk.View{}
            local t, fired = {}, 0
            v:registerForTraitChanges({Obj}, function() fired = fired + 1 end)
            v.traitOverrides.Obj = t
            v:updateTraitsIfNeeded()
            collectgarbage()
            v.traitOverrides.Obj = t
            v:updateTraitsIfNeeded()
            assert(fired == 1, fired)
            assert(rawequal(v.traitCollection.Obj, t))
            """)
    }
}
