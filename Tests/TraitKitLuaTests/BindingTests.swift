import Foundation
import Testing
import CLua
@testable import TraitKitLua

@Suite("Lua binding")
struct BindingTests {
    @Test func sameSwiftObjectIsTheSameLuaValue() {
        expectLua("""
            local tk = require "traitkit"
            local a, b = tk.View{ name = "a" }, tk.View{ name = "b" }
            a:addSubview(b)
            assert(rawequal(a.subviews[1], b))
            assert(rawequal(b.superview, a))
            local vc = tk.ViewController{}
            assert(rawequal(vc.view, vc.view))
            assert(rawequal(vc.view.viewController, vc))
            """)
    }

    /// Every handler of a region gets the same `previous` value, and once the collector has
    /// freed a collection (whose address a new one may then take) the next push is still the
    /// right collection: the identity cache's entry for the last collection pushed goes with it.
    @Test func handlersShareTheirPreviousAndFreedCollectionsAreNotPushedAgain() {
        expectLua("""
            local tk = require "traitkit"
            local Theme = tk.defineTrait{ name = "PushTheme", values = {"a", "b", "c", "d"}, default = "a" }
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}
            window.rootViewController = root
            local seen = {}
            for _ = 1, 3 do
              local v = tk.View{}
              root.view:addSubview(v)
              v:registerForTraitChanges({ Theme }, function(_, previous) seen[#seen + 1] = previous end)
            end
            tk.update()
            local order = { "a", "b", "c", "d" }
            for round = 1, 12 do
              seen = {}
              root.view.traitOverrides.PushTheme = order[round % 4 + 1]
              tk.update()
              assert(#seen == 3, "three handlers fired")
              assert(rawequal(seen[1], seen[2]) and rawequal(seen[2], seen[3]), "one previous, one value")
              assert(seen[1].PushTheme == order[(round - 1) % 4 + 1], "round " .. round .. ": " .. seen[1].PushTheme)
              seen = nil
              collectgarbage(); collectgarbage()
              local other = tk.TraitCollection{ PushTheme = "d", userInterfaceStyle = "dark" }
              assert(other.PushTheme == "d" and other.userInterfaceStyle == "dark")
              assert(root.view.traitCollection.PushTheme == order[round % 4 + 1])
            end
            """)
    }

    /// Trait reads by name and by trait object are remembered per collection (collections
    /// never change): repeated and interleaved reads agree before and after the collection
    /// takes a metatable of its own, members still win, records come back as fresh tables,
    /// and a node's new collection after an update has its own values.
    @Test func repeatedReadsByNameAgreeAndRecordsStayFresh() {
        expectLua("""
            local tk = require "traitkit"
            local Box = tk.defineTrait{ name = "MemoBox", kind = "record", default = { w = 1 } }
            local tc = tk.TraitCollection{ userInterfaceStyle = "dark" }
            for _ = 1, 3 do assert(tc.userInterfaceStyle == "dark" and tc.horizontalSizeClass == "unspecified") end
            local Theme = tk.defineTrait{ name = "MemoTheme", values = { "a", "b" }, default = "a" }
            local mixed = tk.TraitCollection{ MemoTheme = "b", displayScale = 3 }
            for i = 1, 40 do
              assert(mixed[Theme] == "b" and mixed[Theme] == "b", "read " .. i)
              if i % 3 == 0 then assert(mixed.displayScale == 3 and mixed[Theme] == "b") end
              if i % 5 == 0 then assert(mixed.MemoTheme == "b" and mixed.userInterfaceStyle == "unspecified") end
            end
            assert(type(tc.modifying) == "function", "a member, not a trait")
            local box = tc.MemoBox; box.w = 99
            assert(tc.MemoBox.w == 1, "a record read is a fresh table")
            local ok, err = pcall(function() return tc.NoSuchMemoTrait end)
            assert(not ok and err:find("unknown trait", 1, true), err)
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}; window.rootViewController = root
            tk.update()
            local before = root.view.traitCollection
            assert(before.userInterfaceStyle == "unspecified")
            root.view.overrideUserInterfaceStyle = "dark"; tk.update()
            assert(root.view.traitCollection.userInterfaceStyle == "dark" and before.userInterfaceStyle == "unspecified")
            """)
    }

    /// A collection read again and again by name answers from its user values, then from a
    /// table of its own (tk_collection_index.h); it must stay the same value with the same behaviour:
    /// identity, equality, printing, members, errors that name the script's line, and it must
    /// not outlive its last reference.
    @Test func collectionsAnsweringFromATableBehaveAsBefore() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}; window.rootViewController = root
            tk.update()
            local tc = root.view.traitCollection
            local printed = tostring(tc)
            for _ = 1, 3 do assert(tc.userInterfaceStyle == "unspecified") end
            assert(rawequal(tc, root.view.traitCollection))
            assert(getmetatable(tc) == "traitkit object")
            assert(tostring(tc) == printed)
            local copy = tc:modifying(function(t) end)
            assert(not rawequal(copy, tc) and copy == tc and tc == copy, "equal by value")
            assert(tc:changedTraits(tk.TraitCollection{ userInterfaceStyle = "dark" })[1] == "userInterfaceStyle")
            assert(tc.horizontalSizeClass == "unspecified", "a name not read before")
            local ok, err = pcall(function() return tc.noSuchTrait end)
            assert(not ok and err:find(":15: unknown trait 'noSuchTrait'", 1, true), err)
            ok, err = pcall(function() tc.userInterfaceStyle = "dark" end)
            assert(not ok and tc.userInterfaceStyle == "unspecified", "still read-only")
            local live, after = setmetatable({}, { __mode = "k" }), {}
            for round = 1, 3 do
              for i = 1, 20000 do
                local c = tk.TraitCollection{ displayScale = i }
                for _ = 1, 20 do assert(c.displayScale == i) end  -- promoted
                live[c] = true
              end
              collectgarbage(); collectgarbage(); collectgarbage()
              after[round] = collectgarbage("count")
            end
            assert(next(live) == nil, "promoted collections are collected")
            -- What they held goes too: 40,000 collections kept would be megabytes. The bound
            -- leaves room for the binding's pointer-keyed tables, whose size after a round
            -- depends on where the collector's minor collections fell.
            assert(after[3] < after[1] + 1024, "and what they held: +" .. after[3] - after[1] .. " KB")
            """)
    }

    /// A read remembered outside layout is still recorded inside `layoutSubviews` (R8 tracking).
    /// `node.traitCollection` is answered in C from the node's cached userdata while the node
    /// still has that collection; an update, a move, or a hostile call must not fool it.
    @Test func cachedCollectionFollowsUpdatesAndRefusesStrangers() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}; window.rootViewController = root
            local a, b = tk.View{}, tk.View{}
            root.view:addSubview(a); a:addSubview(b)
            tk.update()
            local first = b.traitCollection
            assert(rawequal(b.traitCollection, first), "repeated reads give the cached userdata")
            a.overrideUserInterfaceStyle = "dark"
            assert(b.traitCollection.userInterfaceStyle == "unspecified", "no change before the update (R6)")
            tk.update()
            assert(b.traitCollection.userInterfaceStyle == "dark")
            assert(not rawequal(b.traitCollection, first))
            b:removeFromSuperview(); root.view:addSubview(b); tk.update()
            assert(b.traitCollection.userInterfaceStyle == "unspecified", "moved out from under the override")
            local index = debug.getmetatable(b).__index
            assert(type(index) == "function")
            for _, stranger in ipairs{ first, {}, a.traitOverrides, 42 } do
              local ok, err = pcall(index, stranger, "traitCollection")
              assert(not ok and type(err) == "string", tostring(err))
            end
            """)
    }

    /// After an update, nodes that share a collection read one userdata: the first read makes
    /// it, the others find it (in C, through the identity cache) and cache it as their own.
    @Test func nodesSharingACollectionReadOneUserdata() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}; window.rootViewController = root
            local a, b, c = tk.View{}, tk.View{}, tk.View{}
            root.view:addSubview(a); a:addSubview(b); a:addSubview(c)
            tk.update()
            assert(rawequal(b.traitCollection, a.traitCollection), "a child sharing its parent's collection")
            a.overrideUserInterfaceStyle = "dark"
            tk.update()
            local made = c.traitCollection
            assert(made.userInterfaceStyle == "dark")
            for _ = 1, 2 do
              assert(rawequal(b.traitCollection, made) and rawequal(a.traitCollection, made), "found, then cached")
            end
            b.overrideUserInterfaceStyle = "light"
            tk.update()
            assert(b.traitCollection.userInterfaceStyle == "light" and rawequal(c.traitCollection, made))
            """)
    }

    /// `node.traitOverrides` is one proxy per node, answered in C once made: it writes through
    /// to its own node, survives the script dropping it, and the C path refuses what is not a
    /// node as the Swift one does.
    @Test func overridesProxyIsMadeOnceAndAnsweredForItsOwnNode() {
        expectLua("""
            local tk = require "traitkit"
            local a, b = tk.View{ name = "a" }, tk.View{ name = "b" }
            local first = a.traitOverrides
            assert(rawequal(a.traitOverrides, first) and not rawequal(b.traitOverrides, first))
            first.userInterfaceStyle = "dark"
            assert(a.traitOverrides.userInterfaceStyle == "dark")
            assert(not b.traitOverrides:contains("userInterfaceStyle"))
            first = nil; collectgarbage(); collectgarbage()
            assert(a.traitOverrides.userInterfaceStyle == "dark", "the proxy lives as long as its node")
            local index = debug.getmetatable(a).__index
            assert(type(index) == "function")
            for _, stranger in ipairs{ a.traitOverrides, a.traitCollection, {}, 42 } do
              local ok, err = pcall(index, stranger, "traitOverrides")
              assert(not ok and type(err) == "string", tostring(err))
            end
            local ok, err = pcall(function() return tk.Screen{}.traitOverrides end)
            assert(not ok and err:find("a Screen has no traitOverrides"), tostring(err))
            """)
    }

    /// A proxy reaches its node through the node's userdata: one that a finalizer brings back
    /// after the node's own finalizer ran refuses every use with an error, and never reaches
    /// the released node.
    @Test func aResurrectedOverridesProxyOutlivingItsNodeIsRefused() {
        expectLua("""
            local tk = require "traitkit"
            local saved
            do
              local v = tk.View{ name = "gone" }
              local proxy = v.traitOverrides
              proxy.userInterfaceStyle = "dark"
              -- Marked for finalization after v, so finalized before it, in the same cycle.
              setmetatable({}, { __gc = function() saved = proxy end })
            end
            collectgarbage(); collectgarbage()
            assert(saved, "the finalizer ran")
            for _, use in ipairs{
              function() saved.userInterfaceStyle = "light" end,
              function() return saved.userInterfaceStyle end,
              function() return saved:contains("userInterfaceStyle") end,
              function() return pairs(saved) end,
            } do
              local ok, err = pcall(use)
              assert(not ok and tostring(err):find("finalizer ran"), tostring(err))
            end
            assert(tostring(saved) == "<collected object>")
            """)
    }

    /// The engine keeps nodes (and the closures of their registrations, colors, async work)
    /// after the script's state is closed; calling them then must do nothing, not touch the
    /// closed state.
    @Test func closuresOutliveAClosedState() throws {
        let runtime = LuaRuntime()
        let error = runtime.run(chunk: """
            local tk = require "traitkit"
            window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}; window.rootViewController = root
            local calls = 0
            root.view:registerForTraitChanges({ "userInterfaceStyle" }, function() calls = calls + 1 end)
            root.view.backgroundColor = tk.Color(function(tc) return tk.Color.red end)
            tk.async(function() calls = calls + 1 end)
            function root.view:traitCollectionDidChange() calls = calls + 1 end
            function root.view:layoutSubviews() calls = calls + 1 end
            """, name: "=closed")
        #expect(error == nil)
        let app = runtime.application
        runtime.close()
        for screen in app.screens { screen.setSystemTraits { $0.userInterfaceStyle = .dark } }
        try app.update()
        #expect(app.screens.first?.traitCollection.userInterfaceStyle == .dark)
        for window in app.windows { window.rootViewController?.view.setNeedsLayout() }
        try app.update()
    }

    /// A view keeps a color's provider alive while the color is set, whatever the script
    /// still holds; setting a color made in Swift (or nil) lets the old provider go.
    @Test func aViewKeepsItsColorsProviderExactlyWhileItUsesIt() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}; window.rootViewController = root
            local view = tk.View{}
            root.view:addSubview(view)
            local alive = setmetatable({}, { __mode = "k" })
            local function provider(tc) return tc.userInterfaceStyle == "dark" and tk.Color.white or tk.Color.black end
            alive[provider] = true
            view.backgroundColor = tk.Color(provider)
            view.tintColor = tk.Color(provider):withAlphaComponent(0.5)
            provider = nil
            collectgarbage(); collectgarbage()
            assert(next(alive), "the provider went while the view used it")
            tk.update()
            local dark = tk.TraitCollection{ userInterfaceStyle = "dark" }
            assert(view.backgroundColor:resolvedColor(dark) == tk.Color.white)
            assert(view.tintColor:resolvedColor(dark).alpha == 0.5)
            view.backgroundColor = tk.Color.systemBlue
            collectgarbage(); collectgarbage()
            assert(next(alive), "the tint color still uses the provider")
            view.tintColor = nil
            collectgarbage(); collectgarbage()
            assert(next(alive) == nil, "the provider outlived the colors that used it")
            assert(view.backgroundColor == tk.Color.systemBlue)
            """)
    }

    @Test func rememberedReadsAreStillTrackedInLayout() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}; window.rootViewController = root
            local Card = tk.View:subclass("MemoCard")
            local layouts = 0
            function Card:layoutSubviews() layouts = layouts + 1; local _ = self.traitCollection.userInterfaceStyle end
            local card = Card{}
            root.view:addSubview(card)
            tk.update()
            for _ = 1, 3 do local _ = card.traitCollection.userInterfaceStyle end  -- remembered now
            card:setNeedsLayout(); tk.update()
            local before = layouts
            card.overrideUserInterfaceStyle = "dark"; tk.update()
            assert(layouts == before + 1, "a tracked read must ask for layout again: " .. layouts .. " vs " .. before)
            """)
    }

    @Test func errorsCarryTheCallersPositionAndNameWhatWasExpected() {
        let error = runLua("""
            local tk = require "traitkit"
            local v = tk.View{ name = "v" }
            v.traitOverrides.horizontalSizeClass = "big"
            """, name: "@card.lua")
        #expect(error?.hasPrefix("card.lua:3: invalid value \"big\" for trait horizontalSizeClass (expected one of: unspecified, compact, regular)") == true)
    }

    @Test func assigningToAReadOnlyMemberIsAnError() {
        let cases: [(String, String)] = [
            ("v.window = w", "cannot set 'window' of View 'v': it is a read-only property"),
            ("v.superview = tk.View{}", "cannot set 'superview' of View 'v': it is a read-only property"),
            ("v.addSubview = print", "cannot set 'addSubview' of View 'v': it is a method"),
            ("w.scene.screen = tk.Screen{}", "cannot set 'screen' of WindowScene: it is a read-only property"),
            ("v.traitOverrides.remove = 1", "cannot set 'remove' of TraitOverrides: it is a method"),
            // The properties scripts most often assign say what to write instead.
            ("v.traitCollection = tk.TraitCollection{}", "cannot set 'traitCollection' of View 'v': it is a read-only property (set node.traitOverrides instead; tk.update() then recomputes the collection)"),
            ("v.subviews = {}", "cannot set 'subviews' of View 'v': it is a read-only property (add with view:addSubview(child) or view:insertSubview(child, i))"),
            ("tk.ViewController{}.parent = nil", "cannot set 'parent' of ViewController: it is a read-only property (add it with parent:addChild(controller), remove it with controller:removeFromParent())"),
            ("tk.TraitCollection{}[tk.traits.displayScale] = 2",
             "cannot set field 'displayScale' of TraitCollection: collections are immutable (tc:modifying{ displayScale = value } makes a changed copy)"),
            // Objects without per-instance fields name what can be set.
            ("tk.app.styel = 'dark'", "cannot set field 'styel' of Application (settable: userInterfaceStyle)"),
            ("tk.Color.systemBlue.shade = 0.5", "cannot set field 'shade' of Color (it has no settable fields)"),
        ]
        expectLuaErrors(cases, prelude: """
            local tk = require "traitkit"
            local w, v = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }, tk.View{ name = "v" }
            """, file: "props.lua")
        expectLua("""
            local tk = require "traitkit"
            local v = tk.View{ name = "v" }
            v.myField = 3
            function v:layoutSubviews() end
            assert(v.myField == 3 and type(v.layoutSubviews) == "function", "fields and lifecycle methods stay free")
            v.traitOverrides.userInterfaceStyle = "dark"
            assert(tostring(v.traitOverrides) == "<TraitOverrides of View 'v': userInterfaceStyle = dark>", tostring(v.traitOverrides))
            """)
    }

    /// A node's `traitOverrides` userdata holds the node itself, yet never passes for it: not
    /// as a method's self or argument, not to `pairs`, not in equality, and the hierarchy stays
    /// as it was.
    @Test func aTraitOverridesObjectNeverPassesForItsNode() {
        expectLuaErrors([
            ("p:addSubview(o)", "bad argument #1 to 'addSubview' (expected a View, got TraitOverrides)"),
            ("v.removeFromSuperview(o)", "bad argument #1 to 'removeFromSuperview' (expected a View, got TraitOverrides"),
            ("p.addSubview(o, tk.View{})", "bad argument #1 to 'addSubview' (expected a View, got TraitOverrides"),
            ("v.registerForTraitChanges(o, { 'userInterfaceStyle' }, print)",
             "bad argument #1 to 'registerForTraitChanges' (expected a node, got TraitOverrides"),
            ("o.contains(v, 'userInterfaceStyle')", "bad argument #1 to 'contains' (expected traitOverrides, got View"),
        ], prelude: """
            local tk = require "traitkit"
            local p, v = tk.View{ name = "p" }, tk.View{ name = "v" }
            local o = v.traitOverrides
            """, file: "proxy.lua")
        expectLua("""
            local tk = require "traitkit"
            local p, v = tk.View{ name = "p" }, tk.View{ name = "v" }
            local o = v.traitOverrides
            assert(o ~= v and rawequal(o, v.traitOverrides), "one proxy per node, not the node")
            pcall(p.addSubview, p, o)
            assert(#p.subviews == 0 and v.superview == nil, "nothing moved")
            o.userInterfaceStyle = "dark"
            local seen = {}
            for name, value in pairs(o) do seen[#seen + 1] = name .. "=" .. value end
            assert(table.concat(seen, ",") == "userInterfaceStyle=dark", table.concat(seen, ","))
            assert(tostring(o) == "<TraitOverrides of View 'v': userInterfaceStyle = dark>", tostring(o))
            local ok, err = pcall(debug.getmetatable(o).__pairs, v)
            assert(not ok and err:find("expected a TraitCollection or traitOverrides, got View", 1, true), tostring(err))
            """)
    }

    /// A function that returns the wrong thing is placed where it is defined (the line to fix),
    /// once, whoever called the update or the resolve that ran it.
    @Test func aBodyThatReturnsNoElementIsNamed() {
        let error = runLua("""
            local tk = require "traitkit"
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local row = tk.elements.Custom{ name = "SettingsRow", body = function(env) return 42 end }
            w.rootViewController = tk.HostingController{ root = row }
            tk.update()
            """, name: "@rows.lua")
        #expect(error?.hasPrefix("rows.lua:3: the body of Custom element 'SettingsRow' must return an element (got number)\n") == true,
                "\(error ?? "no error")")
        let cases: [(String, String)] = [
            ("tk.HostingController{ root = tk.elements.ViewRepresentable{ make = function()\n return tk.ViewController{} end } }",
             "made.lua:3: ViewRepresentable: 'make' must return a View (got ViewController)"),
            ("tk.HostingController{ root = tk.elements.ViewControllerRepresentable{ make = function() end } }",
             "made.lua:3: ViewControllerRepresentable: 'make' must return a ViewController (got nil)"),
            ("tk.HostingController{ root = tk.elements.Text{ text = tostring(tk.Color(\nfunction() return 5 end):resolvedColor()) } }",
             "made.lua:4: a dynamic color's provider must return a Color (got number)"),
        ]
        for (host, message) in cases {
            let error = runLua("""
                local tk = require "traitkit"
                local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
                w.rootViewController = \(host)
                tk.update()
                """, name: "@made.lua")
            #expect(error?.hasPrefix(message + "\n") == true, "\(error ?? "no error")")
        }
    }

    /// Subview positions count from 1, as Lua's do; 0 (UIKit's first index) is an error that
    /// says so rather than a silent insert somewhere else.
    @Test func insertSubviewPositionsCountFromOne() {
        expectLua("""
            local tk = require "traitkit"
            local v, a, b, c = tk.View{}, tk.View{ name = "a" }, tk.View{ name = "b" }, tk.View{ name = "c" }
            v:addSubview(a); v:addSubview(b)
            v:insertSubview(c, 2)
            assert(v.subviews[2] == c and #v.subviews == 3)
            v:insertSubview(c, 3)  -- a subview moving among its siblings: 1 to 3
            assert(v.subviews[3] == c)
            local ok, err = pcall(function() v:insertSubview(tk.View{}, 0) end)
            assert(err:find("bad argument #2 to 'insertSubview' (position 0 out of bounds, expected 1 to 4)", 1, true), err)
            ok, err = pcall(function() v:insertSubview(c, 4) end)
            assert(err:find("position 4 out of bounds, expected 1 to 3", 1, true), err)
            assert(#v.subviews == 3 and v.subviews[3] == c, "a refused insert changes nothing")
            """)
    }

    /// A binding call that runs a script function (builder functions, performAsCurrent, color
    /// providers, a subclass's method a constructor field's setter calls) lets the function's
    /// error out as a Lua function would: the same value.
    @Test func scriptErrorsPassThroughCallsThatRunScriptFunctions() {
        expectLua("""
            local tk = require "traitkit"
            local problem = { code = 7 }
            local dark = tk.TraitCollection{ userInterfaceStyle = "dark" }
            local Tinted = tk.View:subclass("Tinted")
            function Tinted:tintColorDidChange() error(problem) end
            local calls = {
              function() Tinted{ tintColor = tk.Color.systemRed } end,
              function() Tinted{}.tintColor = tk.Color.systemRed end,
              function() dark:performAsCurrent(function() error(problem) end) end,
              function() tk.TraitCollection(function() error(problem) end) end,
              function() dark:modifying(function() error(problem) end) end,
              function() tk.Color(function() error(problem) end):resolvedColor(dark) end,
              function() tk.ImageAsset():register("x", function() error(problem) end) end,
              function() tk.Screen{}:setSystemTraits(function() error(problem) end) end,
            }
            for i, call in ipairs(calls) do
              local ok, err = pcall(call)
              assert(not ok and rawequal(err, problem), "call " .. i .. ": " .. tostring(err))
            end
            local ok, err = pcall(dark.performAsCurrent, dark, function() error("plain message", 0) end)
            assert(err == "plain message", err)
            ok, err = pcall(dark.performAsCurrent, dark, function() error(42) end)
            assert(err == 42 and math.type(err) == "integer", tostring(err))
            ok, err = pcall(dark.performAsCurrent, dark, 5)  -- the call's own errors are as before
            assert(err:find("bad argument #2 to 'performAsCurrent' (expected a function, got number)", 1, true), err)
            """)
    }

    @Test func staticColorsCompareByValue() {
        expectLua("""
            local tk = require "traitkit"
            local dark = tk.TraitCollection{ userInterfaceStyle = "dark" }
            assert(tk.Color.hex("#FFF") == tk.Color.hex("#FFFFFF"))
            assert(tk.Color.systemBackground:resolvedColor(dark) == tk.Color.black)
            assert(tk.Color.hex("#FFF") ~= tk.Color.hex("#FFFE"))
            local provider = function() return tk.Color.black end
            assert(tk.Color(provider) ~= tk.Color(provider), "dynamic colors are equal only to themselves")
            """)
    }

    /// The dark-mode notes' ways to get a color for a CGColor: `cgColor` and the components
    /// resolve with `TraitCollection.current`, whether `performAsCurrent` or an assignment set
    /// it; a provider's error comes out of the read, not a black color.
    @Test func cgColorAndComponentsResolveWithTheCurrentCollection() {
        expectLua("""
            local tk = require "traitkit"
            local dark = tk.TraitCollection{ userInterfaceStyle = "dark" }
            dark:performAsCurrent(function()
              assert(tostring(tk.Color.label.cgColor) == "#FFFFFFFF" and tk.Color.label.red == 1)
            end)
            assert(tostring(tk.Color.label.cgColor) == "#000000FF" and tk.Color.label.red == 0)
            local saved = tk.TraitCollection.current
            tk.TraitCollection.current = dark
            assert(tostring(tk.Color.label.cgColor) == "#FFFFFFFF")
            tk.TraitCollection.current = saved
            assert(tostring(tk.Color.label.cgColor) == "#000000FF", "the assignment left a field behind")
            local ok, e = pcall(function() tk.TraitCollection.current = "dark" end)
            assert(not ok and e:find("expected a TraitCollection, got string", 1, true), tostring(e))
            ok, e = pcall(function() tk.TraitCollection.defaults = saved end)
            assert(not ok and e:find("only 'current' can be set", 1, true), tostring(e))
            assert(not tk.Color.label.cgColor.isDynamic and tk.Color.white.cgColor == tk.Color.white)
            local failing = tk.Color(function() error("no color here") end)
            ok, e = pcall(function() return failing.red end)
            assert(not ok and e:find("no color here", 1, true), tostring(e))
            ok, e = pcall(function() return failing.cgColor end)
            assert(not ok and e:find("no color here", 1, true), tostring(e))
            local endless; endless = tk.Color(function() return endless end)
            ok, e = pcall(function() return endless.cgColor end)
            assert(not ok and e:find("did not resolve", 1, true), tostring(e))
            """)
    }

    /// A translucent dynamic color keeps the provider of the color it came from, even once
    /// that color is garbage.
    @Test func withAlphaComponentKeepsTheProviderAlive() {
        expectLua("""
            local tk = require "traitkit"
            local dark = tk.TraitCollection{ userInterfaceStyle = "dark" }
            local function translucent()  -- the opaque color is garbage once this returns
              return tk.Color(function(tc) return tc.userInterfaceStyle == "dark" and tk.Color.black or tk.Color.white end)
                :withAlphaComponent(0.5)
            end
            local half = translucent()
            collectgarbage(); collectgarbage()
            assert(half.isDynamic and tostring(half:resolvedColor(dark)) == "#00000080", tostring(half:resolvedColor(dark)))
            local light = tk.TraitCollection{ userInterfaceStyle = "light" }
            assert(tostring(half:resolvedColor(light)) == "#FFFFFF80", tostring(half:resolvedColor(light)))
            assert(tostring(tk.Color.hex("#336699"):withAlphaComponent(0.5)) == "#33669980")
            """)
    }

    /// `host.root` reads back the element it was given and, assigned, renders the new tree;
    /// the old tree's Lua functions are released with it.
    @Test func aHostingControllersRootCanBeReplaced() {
        expectLua("""
            local tk = require "traitkit"
            local E = tk.elements
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local first = E.Text{ text = "first" }
            local host = tk.HostingController{ root = first }
            assert(rawequal(host.root, first))
            w.rootViewController = host
            tk.update()
            local weak = setmetatable({}, { __mode = "v" })
            do
              local body = function(env) return E.Text{ text = "scheme " .. env.colorScheme } end
              weak.body = body
              host.root = E.Custom{ name = "Row", body = body }
            end
            assert(host.view:findChild("Row"):findChild("Label").text == "scheme light")
            w.overrideUserInterfaceStyle = "dark"; tk.update()
            assert(host.view:findChild("Label").text == "scheme dark")
            host.root = first
            collectgarbage(); collectgarbage()
            assert(weak.body == nil, "the replaced tree is still held")
            assert(host.view:findChild("Label").text == "first")
            assert(host.view:findChild("Row") == nil)
            local ok, err = pcall(function() host.root = 5 end)
            assert(err:find("bad value for 'root' (expected an element, got number)", 1, true), err)
            """)
    }

    /// A view loaded by the engine (a window's root, a presented or represented controller)
    /// reports a raising loadView or viewDidLoad where the script asked for it.
    @Test func viewLoadingErrorsReachTheScript() {
        let setUp = """
            local tk = require "traitkit"
            local Bad = tk.ViewController:subclass("Bad")
            function Bad:viewDidLoad() error("no view today") end
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}

            """
        for line in ["w.rootViewController = Bad{}",
                     "w.rootViewController = root; tk.update(); root:present(Bad{})",
                     "w.rootViewController = tk.HostingController{ root = tk.elements.ViewControllerRepresentable{ make = function() return Bad{} end } }; tk.update()"] {
            let error = runLua(setUp + line, name: "@load.lua")
            #expect(error?.hasPrefix("load.lua:3: no view today") == true, "\(line): \(error ?? "no error")")
        }
    }

    @Test func subclassNamesAreNeitherBlankNorBuiltIn() {
        #expect(runLua("local tk = require 'traitkit'\nlocal C = tk.View:subclass('')", name: "@c.lua")?
            .hasPrefix("c.lua:2: subclass: a class needs a non-empty name") == true)
        #expect(runLua("local tk = require 'traitkit'\nlocal C = tk.ViewController:subclass('View')", name: "@c.lua")?
            .hasPrefix("c.lua:2: subclass: 'View' is the name of a built-in class (choose another)") == true)
        expectLua("local tk = require 'traitkit'; assert(tostring(tk.View:subclass('Card')) == '<class Card>')")
    }

    /// A subclass takes any field, and the constructor keeps each on the stack until it has
    /// looked them all up: a table with more pairs than the stack holds (Lua's limit is a
    /// million slots, three per field) goes through a list of its pairs instead, with the
    /// same results and the same errors.
    @Test func constructorTablesLargerThanTheStackAreApplied() {
        expectLua("""
            local tk = require "traitkit"
            local Big = tk.View:subclass("Big")
            local fields = { name = "big", backgroundColor = tk.Color.systemRed }
            for i = 1, 350000 do fields["f" .. i] = i end
            local v = Big(fields)
            assert(v.name == "big" and v.f1 == 1 and v.f350000 == 350000, "a field went missing")
            assert(v.backgroundColor == tk.Color.systemRed, "the property was not set")
            fields.tintColor = 5
            local ok, err = pcall(Big, fields)
            assert(not ok and err:find("bad field 'tintColor' in Big{...} (expected a Color, got number)", 1, true), err)
            """)
    }

    /// isKindOf and method lookup follow `__super` one class at a time: past 18 classes the
    /// check used to overrun the Lua stack, and past 64 it answered false and lost methods.
    @Test func deepSubclassChainsKeepTheirMethodsAndKind() {
        expectLua("""
            local tk = require "traitkit"
            local Base = tk.View:subclass("DeepBase")
            local drawn = 0
            function Base:draw() drawn = drawn + 1 end
            local C = Base
            for i = 2, 99 do C = C:subclass("Deep" .. i) end
            local v = C{}
            assert(v:isKindOf(tk.View) and v:isKindOf(Base) and v:isKindOf("DeepBase") and v:isKindOf(C))
            assert(not v:isKindOf(tk.ViewController) and not v:isKindOf("Deep100"))
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.ViewController{}
            w.rootViewController.view:addSubview(v)
            tk.update()
            assert(drawn == 1, "a method 98 classes up is found")
            local ok, err = pcall(C.subclass, C, "OneTooMany")
            assert(not ok and err:find("subclass: classes chain at most 100 deep", 1, true), err)
            rawset(Base, "__super", C) -- a loop made by hand ends the lookup instead of spinning
            assert(not v:isKindOf(tk.ViewController))
            """)
    }

    /// A subclass's instances read what their classes hold, values as well as methods, as
    /// instances of a plain Lua class do; their own fields hide their classes'.
    @Test func subclassInstancesReadTheirClassesValues() {
        expectLua("""
            local tk = require "traitkit"
            local Card = tk.View:subclass("ValueCard")
            Card.cornerRadius = 8
            Card.style = { inset = 2 }
            function Card:radius() return self.cornerRadius end
            local Big = Card:subclass("BigValueCard")
            Big.cornerRadius = 16
            local c, b = Card{}, Big{}
            assert(c.cornerRadius == 8 and b.cornerRadius == 16 and b.style == Card.style)
            assert(c:radius() == 8 and b:radius() == 16)
            c.cornerRadius = 4
            assert(c.cornerRadius == 4 and Card.cornerRadius == 8 and c:radius() == 4)
            c.cornerRadius = nil
            assert(c.cornerRadius == 8 and c.missing == nil and b.nothing == nil)
            rawset(Card, "__super", Big) -- a loop made by hand ends the lookup
            assert(c.nothing == nil and c.cornerRadius == 8)
            """)
    }

    /// A class table answers its instances' methods, as a Lua class does: called with the
    /// instance first, or kept in a local; properties stay the instances' own.
    @Test func classTablesAnswerTheirInstancesMethods() {
        expectLua("""
            local tk = require "traitkit"
            local Card = tk.View:subclass("MethodCard")
            local parent, card = tk.View{ name = "p" }, Card{ name = "c" }
            tk.View.addSubview(parent, card)
            assert(card.superview == parent)
            local remove = Card.removeFromSuperview
            remove(card)
            assert(card.superview == nil)
            assert(type(tk.Window.addSubview) == "function" and type(tk.Window.layoutIfNeeded) == "function")
            assert(type(tk.ViewController.addChild) == "function" and type(tk.Screen.setSystemTraits) == "function")
            assert(tk.View.backgroundColor == nil and tk.View.superview == nil and tk.Window.rootViewController == nil)
            assert(Card.nothing == nil and tk.View.nothing == nil and card.nothing == nil)
            assert(tk.Window.layoutSubviews == tk.View.layoutSubviews and Card.subclass == tk.View.subclass)
            local ok, err = pcall(tk.View.addSubview, parent, "x")
            assert(not ok and err:find("bad argument #2 to 'addSubview' (expected a View, got string)", 1, true), err)
            local token = tk.View.registerForTraitChanges(card, { "userInterfaceStyle" }, function() end)
            assert(tostring(token) == "<TraitChangeRegistration>", tostring(token))
            """)
    }

    /// A class cannot take a name its engine class already has: an instance finds the engine's
    /// method or property first, so `function Card:addSubview(v)` would never be called and
    /// `Card.tintColor = c` never read. Lifecycle methods and other names are the class's.
    @Test func aClassCannotDefineWhatItsEngineClassHas() {
        expectLua("""
            local tk = require "traitkit"
            local Card = tk.View:subclass("MemberCard")
            local function refused(key, value)
              local ok, err = pcall(function() Card[key] = value end)
              assert(not ok and rawget(Card, key) == nil, key)
              return err
            end
            local err = refused("addSubview", function() end)
            assert(err:find("cannot define 'addSubview' on class MemberCard: it is a method of View", 1, true), err)
            err = refused("tintColor", tk.Color.red)
            assert(err:find("property of every View", 1, true) and err:find("MemberCard{ tintColor = ... }", 1, true), err)
            err = refused("traitCollection", 1)
            assert(err:find("read-only property", 1, true) and not err:find("constructor", 1, true), err)
            local VC = tk.ViewController:subclass("MemberController")
            assert(not pcall(function() function VC:present() end end))
            function Card:layoutSubviews() self.laidOut = true end
            function Card:describe() return "card" end
            Card.cornerRadius = 8
            local c = Card{ name = "c" }
            assert(c:describe() == "card" and c.cornerRadius == 8)
            """)
    }

    /// Assigning to a node: a property runs its setter, a member without one is refused with
    /// what it is, a lifecycle method must be a function and is then called by the engine, and
    /// any other name is a field the node keeps, the first and every later one alike.
    @Test func assignmentsToANodeReachSettersFieldsAndLifecycleMethods() {
        expectLua("""
            local tk = require "traitkit"
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.ViewController{}
            local v = tk.View{ name = "v" }
            v.extra = 1
            v.extra = 2
            v[1] = "one"
            assert(v.extra == 2 and v[1] == "one")
            v.name = "w"
            assert(v.name == "w")
            local ok, err = pcall(function() v.superview = 1 end)
            assert(not ok and err:find("test:11: cannot set 'superview' of View 'w': it is a read-only property", 1, true), err)
            ok, err = pcall(function() v.addSubview = 1 end)
            assert(not ok and err:find("it is a method", 1, true), err)
            ok, err = pcall(function() v.layoutSubviews = 5 end)
            assert(not ok and err:find("'layoutSubviews' must be a function", 1, true), err)
            v.layoutSubviews = function(self) self.laid = true end
            w.rootViewController.view:addSubview(v)
            tk.update()
            assert(v.laid, "the engine called the method set on the instance")
            """)
    }

    /// A script's tintColorDidChange that sets a tint again is stopped with a message at the
    /// line that set it, and the views take tints as before afterwards.
    @Test func aTintThatNeverSettlesEndsWithAMessage() {
        expectLua("""
            local tk = require "traitkit"
            local Card = tk.View:subclass("TintCard")
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.ViewController{}
            local outer, inner = Card{ name = "outer" }, Card{ name = "inner" }
            w.rootViewController.view:addSubview(outer); outer:addSubview(inner)
            function Card:tintColorDidChange()
              outer.tintColor = tk.Color(function() return tk.Color.blue end)
            end
            local ok, err = pcall(function() w.rootViewController.view.tintColor = tk.Color.red end)
            assert(not ok and err:find("test:8: tintColor of TintCard 'outer' not set: tint changes nested 32 deep", 1, true), err)
            function Card:tintColorDidChange() self.seen = true end
            outer.tintColor = tk.Color.green
            assert(outer.seen and inner.seen and inner.tintColor == tk.Color.green)
            """)
    }

    /// A lifecycle method that starts itself again (a willMoveToParent that adds the child
    /// again) is stopped 32 deep with a message that says so, where Lua's C stack said only
    /// "C stack overflow"; one that tries twice at each level, catching the error, ends at once
    /// too (it took time exponential in the depth, about 2^99 calls). Containment works as
    /// before afterwards.
    @Test func aLifecycleMethodThatStartsItselfAgainIsStopped() {
        expectLua("""
            local tk = require "traitkit"
            local Ctl = tk.ViewController:subclass("AgainController")
            local root = tk.ViewController{ name = "root" }
            local c = Ctl{ name = "c" }
            function Ctl:willMoveToParent(parent) root:addChild(c) end
            local ok, err = pcall(root.addChild, root, c)
            assert(not ok and err:find("test:5: willMoveToParent of AgainController 'c' not called: "
              .. "lifecycle methods nested 32 deep", 1, true), err)
            local calls, errors = 0, 0
            function Ctl:willMoveToParent(parent)
              calls = calls + 1
              if calls > 1000 then return end  -- an engine without the limit fails here, not hangs
              for _ = 1, 2 do if not pcall(root.addChild, root, c) then errors = errors + 1 end end
            end
            pcall(root.addChild, root, c)
            assert(calls <= 64 and errors > 0, calls .. " calls")
            function Ctl:willMoveToParent(parent) self.moved = parent end
            local other = tk.ViewController{ name = "other" }
            other:addChild(c)
            assert(c.moved == other and c.parent == other)
            """)
    }

    /// A target that loses its method after registering fails at the change, naming its node.
    @Test func aTargetWithoutTheMethodIsNamedWithItsNode() {
        let error = runLua("""
            local tk = require "traitkit"
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.ViewController{}
            local v = tk.View{ name = "v" }
            w.rootViewController.view:addSubview(v)
            function v:themeChanged() end
            v:registerForTraitChanges({ "userInterfaceStyle" }, "themeChanged")
            v.themeChanged = nil
            w.scene.traitOverrides.userInterfaceStyle = "dark"
            tk.update()
            """)
        #expect(error?.hasPrefix("the target of a trait change registration on <View 'v'> has no method \"themeChanged\" (target: <View 'v'>)") == true,
                "\(error ?? "no error")")
    }

    @Test func anUnknownFieldErrorListsWhatThereIs() {
        let error = runLua("local tk = require 'traitkit'\nlocal T = tk.defineTrait{ name = 'FieldsTheme', values = { 'a', 'b' } }\nprint(T.values)", name: "@f.lua")
        #expect(error?.hasPrefix("f.lua:3: Trait has no field 'values' (it has: affectsColorAppearance, cases, default, identifier, kind, name)") == true,
                "\(error ?? "no error")")
    }

    @Test func elementFieldsAreChecked() {
        let cases: [(String, String)] = [
            ("E.Text{ txt = 'x' }", "bad field 'txt' in Text{...} (expected one of: text, color, name)"),
            ("E.ScrollView{ bounces = 'no' }", "bad field 'bounces' in ScrollView{...} (expected a boolean, got string)"),
            ("E.Button{ title = {} }", "bad field 'title' in Button{...} (expected a string, got table)"),
            ("E.VStack{ nme = 'x' }", "bad field 'nme' in VStack{...} (expected 'name')"),
            // The elements made from functions check their tables as strictly: SwiftUI's
            // updateUIViewController ported as `update` would otherwise never run, unsaid.
            ("E.ViewControllerRepresentable{ make = tk.ViewController, update = print }",
             "ViewControllerRepresentable: unknown field 'update' (expected make)"),
            ("E.ViewRepresentable{ make = tk.View, mak = 1 }", "ViewRepresentable: unknown field 'mak' (expected make)"),
            ("E.Custom{ name = 'C', body = print, bdy = print }", "Custom: unknown field 'bdy' (expected name, body)"),
            ("tk.HostingConfiguration{ root = E.Text{}, rot = 1 }", "HostingConfiguration: unknown field 'rot' (expected root)"),
            ("tk.HostingConfiguration{ E.Text{} }",
             "HostingConfiguration: field names must be strings (got a number key; expected root)"),
        ]
        expectLuaErrors(cases, prelude: "local tk = require 'traitkit'; local E = tk.elements", file: "ui.lua")
        expectLua("""
            local tk = require "traitkit"
            local E = tk.elements
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.HostingController{ root = E.VStack{ E.Text{ text = 5 }, name = "stack" } }
            tk.update()
            local view = w.rootViewController.view
            assert(view:findChild("Label").text == "5", "a number reads as Lua prints it")
            assert(view:findChild("StackView").name == "stack")
            """)
    }

    /// A key's table is checked like `defineTrait`'s; a key shows its name, default and bridge.
    @Test func environmentKeyFieldsAreChecked() {
        let cases: [(String, String)] = [
            ("tk.EnvironmentKey{ name = 'k', defualt = 1 }",
             "EnvironmentKey: unknown field 'defualt' (expected name, default, bridge, read, write)"),
            ("tk.EnvironmentKey{ name = 'k', read = 5 }", "EnvironmentKey: 'read' must be a function (got number)"),
            ("tk.EnvironmentKey{ name = 'colorScheme' }",
             "EnvironmentKey: 'colorScheme' is a built-in key (it bridges userInterfaceStyle); choose another name"),
            ("tk.EnvironmentKey{ name = 'k', bridge = 'displayScale', write = print }",
             "EnvironmentKey: give either 'bridge' (one trait) or 'read'/'write' functions, not both"),
        ]
        expectLuaErrors(cases, prelude: "local tk = require 'traitkit'", file: "keys.lua")
        expectLua("""
            local tk = require "traitkit"
            local k = tk.EnvironmentKey{ name = "style", bridge = "userInterfaceStyle", default = "dark" }
            assert(tostring(k) == "<EnvironmentKey 'style'>" and k.name == "style")
            assert(k.default == "dark" and k.bridge == tk.traits.userInterfaceStyle)
            local plain = tk.EnvironmentKey{ name = "accent", default = 3, read = function() return 4 end, write = print }
            assert(plain.default == 3 and plain.bridge == nil)
            assert(tostring(tk.elements.Text{ text = "x" }:environment(k, "light")) == "<Element Text with style>")
            """)
    }

    /// R1 for keys: defining a key again the same way (a script loaded twice in the REPL) gives
    /// the same key, so an element that set it keeps its value; the new read function runs.
    /// Before, the name went to a new key and the element's body read the default.
    @Test func redefiningAnEnvironmentKeyTheSameWayReturnsIt() {
        expectLua("""
            local tk = require "traitkit"
            local E = tk.elements
            local accent = tk.EnvironmentKey{ name = "accent", default = "blue" }
            local level = tk.EnvironmentKey{ name = "level", default = 0, read = function() return 1 end }
            local seen
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            window.rootViewController = tk.HostingController{ root = E.Custom{ name = "c", body = function(env)
              seen = env.accent .. " " .. env.level .. " " .. env.colorScheme
              return E.Text{ text = seen } end }:environment(accent, "red") }
            tk.update()
            assert(seen == "red 1 light", seen)
            assert(rawequal(tk.EnvironmentKey{ name = "accent", default = "blue" }, accent))
            assert(rawequal(tk.EnvironmentKey{ name = "level", default = 0,
              read = function(tc) return tc.userInterfaceStyle == "dark" and 2 or 3 end }, level))
            window.scene.screen:setSystemTraits{ userInterfaceStyle = "dark" }
            tk.update()
            assert(seen == "red 2 dark", seen)
            local theme = tk.defineTrait{ name = "KeyTheme", values = { "plain", "bold" }, default = "plain" }
            local bridged = tk.EnvironmentKey{ name = "theme", bridge = theme }
            assert(rawequal(tk.EnvironmentKey{ name = "theme", bridge = "KeyTheme", default = "plain" }, bridged))
            """)
        let prelude = """
            local tk = require 'traitkit'
            tk.defineTrait{ name = 'KeyGap', default = 8 }
            tk.EnvironmentKey{ name = 'gap', bridge = 'KeyGap' }
            tk.EnvironmentKey{ name = 'accent', default = 'blue' }
            tk.EnvironmentKey{ name = 'level', default = 0, read = print }
            """
        let cases: [(String, String)] = [
            ("tk.EnvironmentKey{ name = 'gap', bridge = 'displayScale' }",
             "EnvironmentKey: 'gap' is already defined differently (it bridges KeyGap)"),
            ("tk.EnvironmentKey{ name = 'gap', bridge = 'KeyGap', default = 4 }",
             "EnvironmentKey: 'gap' is already defined differently (its default is 8)"),
            ("tk.EnvironmentKey{ name = 'accent', default = 'red' }",
             "EnvironmentKey: 'accent' is already defined differently (its default is \"blue\")"),
            ("tk.EnvironmentKey{ name = 'accent', bridge = 'KeyGap' }",
             "EnvironmentKey: 'accent' is already defined differently (it bridges no trait)"),
            ("tk.EnvironmentKey{ name = 'level', default = 0 }",
             "EnvironmentKey: 'level' is already defined differently (it has a read function)"),
            ("tk.EnvironmentKey{ name = 'level', default = 0, read = print, write = print }",
             "EnvironmentKey: 'level' is already defined differently (it has no write function)"),
        ]
        expectLuaErrors(cases, prelude: prelude, file: "keys.lua")
    }

    /// A built-in key's value is checked where the script sets it, with SwiftUI's names.
    @Test func environmentValuesAreCheckedWhereTheyAreSet() {
        let cases: [(String, String)] = [
            ("E.Text{ text = 'x' }:environment('colorScheme', 'purple')",
             "invalid value \"purple\" for environment key 'colorScheme' (expected one of: light, dark)"),
            ("E.Text{ text = 'x' }:environment('displayScale', 0)",
             "invalid value 0 for environment key 'displayScale' (expected a positive number)"),
            ("local e = E.Text{} for i = 1, 1000 do e = e:environment('displayScale', 2) end",
             "environment: elements nest at most 1000 levels deep (this one would be 1001)"),
            ("local e = E.Text{} for i = 1, 999 do e = e:introspect('Label', print) end; E.VStack{ e }",
             "VStack: elements nest at most 1000 levels deep (this one would be 1001)"),
        ]
        expectLuaErrors(cases, prelude: "local tk = require 'traitkit'; local E = tk.elements", file: "ui.lua")
        expectLua("""
            local tk = require "traitkit"
            local E = tk.elements
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{ horizontalSizeClass = "regular" } } }
            local made = {}
            local function hosted(key, value)
              return E.ViewControllerRepresentable{ make = function()
                local c = tk.ViewController{}; made[#made + 1] = c; return c end }:environment(key, value)
            end
            w.rootViewController = tk.HostingController{ root = E.VStack{
              hosted("displayScale", 2), hosted("horizontalSizeClass", nil), hosted("dynamicTypeSize", "xLarge") } }
            tk.update()
            assert(made[1].traitCollection.displayScale == 2)
            assert(made[2].traitCollection.horizontalSizeClass == "unspecified")
            assert(made[3].traitCollection.preferredContentSizeCategory == "extraLarge")
            """)
    }

    @Test func numbersThatAreNotFiniteAreRefusedWithThePosition() {
        let nan = runLua("""
            local tk = require "traitkit"
            local Width = tk.defineTrait{ name = "BindingWidth", default = 0.5 }
            local v = tk.View{}
            v.traitOverrides.BindingWidth = 0/0
            """, name: "@card.lua")
        #expect(nan?.hasPrefix("card.lua:4: invalid value ") == true)
        #expect(nan?.contains("nan for trait BindingWidth (expected a finite number)") == true)
        let record = runLua("""
            local tk = require "traitkit"
            local Insets = tk.defineTrait{ name = "BindingInsets", default = { top = 0 } }
            local tc = tk.TraitCollection{ BindingInsets = { top = math.huge } }
            """, name: "@card.lua")
        #expect(record?.hasPrefix("card.lua:3: record field 'top' of trait BindingInsets must be a finite number (got inf)") == true)
        expectLua("""
            local tk = require "traitkit"
            local Insets = tk.defineTrait{ name = "BindingInsets2", identifier = "insets", default = { top = 0 } }
            local a = tk.TraitCollection{ BindingInsets2 = { top = 2 } }
            assert(a == tk.TraitCollection{ BindingInsets2 = { top = 2.0 } }, "1 == 1.0 in a record, as in Lua")
            assert(tk.TraitCollection.fromJSON(a:toJSON()) == a, "a record survives JSON")
            -- Every digit survives too: 64-bit integers, and floats that 14 digits would round.
            local Count = tk.defineTrait{ name = "BindingCount", default = 0, kind = "integer" }
            local Ratio = tk.defineTrait{ name = "BindingRatio", default = 0.5 }
            local Pad = tk.defineTrait{ name = "BindingPad", default = { n = 0, x = 0.5 } }
            local b = tk.TraitCollection{ BindingCount = math.maxinteger, BindingRatio = 0.1 + 0.2,
                                          BindingPad = { n = math.mininteger, x = 1 / 3 } }
            local back = tk.TraitCollection.fromJSON(b:toJSON())
            assert(back == b, b:toJSON())
            assert(back.BindingCount == math.maxinteger and math.type(back.BindingCount) == "integer")
            assert(back.BindingRatio == 0.1 + 0.2 and back.BindingPad.x == 1 / 3 and back.BindingPad.n == math.mininteger)
            """)
    }

    /// A string trait holds text: bytes that are not UTF-8 are refused where they are set,
    /// shown as escapes, instead of being replaced so that the value read back is another
    /// string than the one set. Any UTF-8, an embedded zero included, reads back as set, and
    /// two strings are the same value exactly when Lua's `==` says so.
    @Test func stringTraitsHoldUTF8Text() {
        expectLuaErrors([
            ("local tc = tk.TraitCollection{ BindingText = '\\x80bad' }",
             "invalid value \"\\x80bad\" for trait BindingText (expected UTF-8 text)"),
            ("v.traitOverrides.BindingText = 'ok\\xff'", "invalid value \"ok\\xFF\" for trait BindingText (expected UTF-8 text)"),
            ("local tc = tk.TraitCollection{ BindingTextRecord = { s = '\\xc3' } }",
             "record field 's' of trait BindingTextRecord must be UTF-8 text (got \"\\xC3\")"),
            ("tk.defineTrait{ name = 'BindingText2', default = '\\xfe' }",
             "defineTrait: default \"\\xFE\" of trait 'BindingText2' is not UTF-8 text"),
        ], prelude: """
            local tk = require "traitkit"
            tk.defineTrait{ name = "BindingText", default = "" }
            tk.defineTrait{ name = "BindingTextRecord", default = { s = "" } }
            local v = tk.View{}
            """, file: "text.lua")
        expectLua("""
            local tk = require "traitkit"
            tk.defineTrait{ name = "BindingText3", default = "" }
            for _, s in ipairs{ "é✓😀", "a\\0b", "" } do
              local tc = tk.TraitCollection{ BindingText3 = s }
              assert(tc.BindingText3 == s and tk.TraitCollection.fromJSON(tc:toJSON()).BindingText3 == s)
            end
            -- Strings compare as Lua compares them, by bytes: an accented letter and the same
            -- letter with a combining accent are two values, and changing one to the other is a change.
            local composed, decomposed = "\\u{E9}", "e\\u{301}"
            assert(tk.TraitCollection{ BindingText3 = composed } ~= tk.TraitCollection{ BindingText3 = decomposed })
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.ViewController{}
            local v, fired = w.rootViewController.view, 0
            v:registerForTraitChanges({ "BindingText3" }, function() fired = fired + 1 end)
            v.traitOverrides.BindingText3 = composed; tk.update()
            v.traitOverrides.BindingText3 = decomposed; tk.update()
            assert(fired == 2 and v.traitCollection.BindingText3 == decomposed and v.traitOverrides.BindingText3 == decomposed)
            """)
    }

    /// Names and titles are text too: a name that is not UTF-8 is refused where it is given
    /// (it would read back as another string, or take two names for one), and names compare by
    /// bytes, as Lua compares them, so "é" and "e" with a combining accent are two names.
    @Test func namesAndTitlesAreUTF8TextComparedByBytes() {
        expectLuaErrors([
            ("tk.View{ name = 'a\\xff' }", "bad field 'name' in View{...} (expected UTF-8 text, got \"a\\xFF\")"),
            ("tk.View{}.name = 'a\\xff'", "bad value for 'name' (expected UTF-8 text, got \"a\\xFF\")"),
            ("tk.Label{}.text = '\\xc3'", "bad value for 'text' (expected UTF-8 text, got \"\\xC3\")"),
            ("tk.defineTrait{ name = 'A\\xff', default = 1 }",
             "defineTrait: 'name' must be a non-empty string of UTF-8 text (got \"A\\xFF\")"),
            ("tk.defineTrait{ name = 'NamesEnum', values = { 'ok', '\\xfe' } }",
             "defineTrait: 'values' must be a list of strings of UTF-8 text (got \"\\xFE\")"),
            ("tk.View:subclass('C\\xff')", "bad argument #1 to 'subclass' (expected UTF-8 text, got \"C\\xFF\")"),
            ("local x = tk.TraitCollection{}['\\xff']", "unknown trait '\\xFF'"),
            ("tk.elements.Custom{ name = '\\xff', body = function() end }",
             "Custom: 'name' must be a string of UTF-8 text (got \"\\xFF\")"),
            ("tk.Color.register('\\xff', tk.Color.red)",
             "bad argument #1 to 'Color.register' (expected UTF-8 text, got \"\\xFF\")"),
        ], prelude: """
            local tk = require "traitkit"
            """, file: "names.lua")
        expectLua("""
            local tk = require "traitkit"
            local composed, decomposed = "Names\\u{E9}", "Namese\\u{301}"
            local a = tk.defineTrait{ name = composed, default = 1 }
            local b = tk.defineTrait{ name = decomposed, default = 2 }
            assert(a ~= b and a.name == composed and b.name == decomposed)
            assert(tk.TraitCollection{ [composed] = 5 }[decomposed] == 2)
            local E = tk.defineTrait{ name = "NamesCase", values = { "\\u{E9}", "e\\u{301}" } }
            local tc = tk.TraitCollection{ NamesCase = "e\\u{301}" }
            assert(tc.NamesCase == "e\\u{301}", tc.NamesCase)
            local C = tk.View:subclass("Caf\\u{E9}")
            assert(C{}:isKindOf("Caf\\u{E9}") and not C{}:isKindOf("Cafe\\u{301}") and not C{}:isKindOf("Caf\\xff"))
            local v = tk.View{ name = "\\u{E9}\\0x" }
            assert(v.name == "\\u{E9}\\0x")
            -- An environment value is any Lua value, so other bytes are kept as they are.
            tk.EnvironmentKey{ name = "namesBlob", default = "" }
            local got
            local root = tk.elements.Custom{ body = function(env) got = env.namesBlob; return tk.elements.Text{} end }
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.HostingController{ root = root:environment("namesBlob", "a\\xff") }
            tk.update()
            assert(got == "a\\xff", got)
            """)
    }

    @Test func wrongSelfAndWrongArgumentsAreLuaErrors() {
        let cases: [(String, String)] = [
            ("local v = tk.View{}; v.addSubview(5, v)", "bad argument #1 to 'addSubview' (expected a View, got number; use ':' to call a method)"),
            // Numbered as luaL_argerror numbers them: `self` does not count in a `:` call.
            ("local v = tk.View{}; v:addSubview(nil)", "bad argument #1 to 'addSubview' (expected a View, got nil)"),
            ("local v = tk.View{}; v.addSubview(v, nil)", "bad argument #2 to 'addSubview' (expected a View, got nil)"),
            ("local v = tk.View{}; local t = { f = v.addSubview }; t:f(v)", "calling 'addSubview' on bad self (expected a View, got table)"),
            ("tk.TraitCollection{}:modifying(5)", "bad argument #1 to 'modifying' (expected a table of traits or a builder function, got number)"),
            // An assignment names the property; a constructor counts from its own first argument.
            ("tk.Window{}.scene = 5", "bad value for 'scene' (expected a WindowScene, got number)"),
            ("tk.View(5)", "bad argument #1 to 'View' (expected a table, got number)"),
            ("tk.View:subclass('Card')(5)", "bad argument #1 to 'Card' (expected a table, got number)"),
            ("tk.TraitCollection(5)", "bad argument #1 to 'TraitCollection' (expected a table of traits or a builder function, got number)"),
            ("tk.Color(5)", "bad argument #1 to 'Color' (expected a provider function; a static color is tk.Color.rgba(r, g, b[, a]) or tk.Color.hex(\"#RRGGBB\"), got number)"),
            ("local v = tk.View{}; v:addSubview(tk.ViewController{})", "expected a View, got ViewController"),
            ("tk.View{}:registerForTraitChanges({}, function() end)", "at least one trait"),
            ("local T = tk.defineTrait{ name = 'Lone', default = 0 }; tk.View{}:registerForTraitChanges(T, function() end)",
             "bad argument #1 to 'registerForTraitChanges' (expected a list of traits, such as { Theme }, got Trait)"),
            ("tk.View{}:registerForTraitChanges({'nope'}, function() end)", "unknown trait 'nope'"),
            ("tk.View{}:registerForTraitChanges({'displayScale'}, 42)", "bad argument #2 to 'registerForTraitChanges'"),
            ("tk.defineTrait{ name = 'X1', values = {'a'}, kind = 'integer' }", "its kind is enum"),
            ("tk.defineTrait{ name = 'X2' }", "needs a 'default'"),
            ("tk.defineTrait{ name = 'X3', default = 1, colour = true }", "unknown field 'colour'"),
            ("local s = tk.Screen{}; local x = s.traitOverrides", "a Screen has no traitOverrides"),
            ("tk.TraitCollection{ [42] = 1 }", "expected a trait or trait name, got number"),
            ("tk.Color.hex('#12')", "invalid color \"#12\""),
            // A component that is not a finite number would be clamped to a color nobody asked for.
            ("tk.Color.rgba(1, math.huge, 0)", "bad argument #2 to 'Color.rgba' (expected a finite number, got inf)"),
            ("tk.Color.white:withAlphaComponent(-math.huge)", "bad argument #1 to 'withAlphaComponent' (expected a finite number, got -inf)"),
            ("tk.ViewController{}:present(tk.ViewController{})", "not in a window"),
            ("tk.TraitCollection.fromJSON(string.rep('[', 100000))", "nesting deeper than 512 levels"),
            ("tk.Window{ scene = 5 }", "bad field 'scene' in Window{...} (expected a WindowScene, got number)"),
            ("tk.View{ name = 5 }", "bad field 'name' in View{...} (expected a string, got number)"),
            ("tk.HostingController{ root = 5 }", "bad field 'root' in HostingController{...}"),
            // A subclass's fields go through its `__newindex`; a setter's error names the field.
            ("tk.View:subclass('Card2'){ extra = 1, backgroundColor = 5 }",
             "bad field 'backgroundColor' in Card2{...} (expected a Color, got number)"),
            ("tk.Color(function() return 5 end):resolvedColor(tk.TraitCollection{})", "must return a Color"),
            ("tk.elements.VStack{ 5 }", "item 1 is not an element"),
            ("tk.ImageAsset():register('', {})", "register: an image needs a name (got an empty string)"),
            ("tk.EnvironmentKey{ name = 'k', bridge = 'nope' }", "unknown trait 'nope'"),
            ("""
             local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
             w.rootViewController = tk.ViewController{}
             w.rootViewController.view:registerForTraitChanges({'displayScale'}, function() tk.update() end)
             w.scene.traitOverrides.displayScale = 2
             tk.update()
             """, "update() was called from a callback during an update"),
        ]
        for (code, fragment) in cases {
            let error = runLua("local tk = require 'traitkit'\n" + code) ?? "(no error)"
            #expect(error.contains(fragment), "\(code) → \(error)")
        }
    }

    @Test func failingHandlerDoesNotStopTheUpdateAndIsRaisedWithItsPosition() {
        let runtime = LuaRuntime()
        let error = runtime.run(chunk: """
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}
            window.rootViewController = root
            local a, b = tk.View{ name = "a" }, tk.View{ name = "b" }
            root.view:addSubview(a); root.view:addSubview(b)
            tk.update()
            a:registerForTraitChanges({"displayScale"}, function() error("boom") end)
            seen = false
            b:registerForTraitChanges({"displayScale"}, function() seen = true end)
            window.scene.screen:setSystemTraits{ displayScale = 2 }
            local ok, err = pcall(tk.update)
            assert(not ok and err:find("handler.lua:8: boom", 1, true), err)
            assert(err:find("stack traceback", 1, true))
            assert(seen, "the other handler ran")
            assert(b.traitCollection.displayScale == 2, "the pass completed")
            tk.update()
            """, name: "@handler.lua")
        #expect(error == nil, "\(error ?? "")")
    }

    @Test func droppedNodesWithSelfCapturingHandlersAreCollected() {
        expectLua("""
            local tk = require "traitkit"
            local weak = setmetatable({}, { __mode = "v" })
            for i = 1, 2000 do
              local parent, child = tk.View{}, tk.View{}
              parent:addSubview(child)
              child:registerForTraitChanges({"displayScale"}, function() return parent, child end)
              child.backgroundColor = tk.Color(function() return child and tk.Color.white end)
              weak[#weak + 1] = child
            end
            collectgarbage(); collectgarbage()
            assert(#weak == 0, #weak .. " children survived")
            """)
    }

    /// Fired handlers are found through their node's userdata (HandlerSlot): after
    /// collections, each still gets its own node, a collected target is skipped, an
    /// unregistered one is gone, and a token passed to the wrong node leaves its handler in place.
    @Test func handlersFindTheirNodeAcrossCollectionsAndUnregistration() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}
            window.rootViewController = root
            local log, tokens = {}, {}
            for i = 1, 6 do
              local view = tk.View{ name = "v" .. i }
              root.view:addSubview(view)
              tokens[i] = view:registerForTraitChanges({"userInterfaceStyle"}, function(node, previous)
                log[#log + 1] = node.name .. ":" .. previous.userInterfaceStyle
              end)
            end
            do
              local target = { hit = function(self, node) log[#log + 1] = "target:" .. node.name end }
              root.view.subviews[1]:registerForTraitChanges({"userInterfaceStyle"}, target, "hit")
            end
            local views = root.view.subviews
            views[2]:unregisterForTraitChanges(tokens[2])
            local kept, tokens6 = tokens[4], tokens[6]
            tokens = nil
            collectgarbage(); collectgarbage()
            views[4]:unregisterForTraitChanges(kept)
            views[5]:unregisterForTraitChanges(tokens6)  -- not views[5]'s: unregisters nothing
            local late = {}
            views[3]:registerForTraitChanges({"userInterfaceStyle"}, function(node) late[#late + 1] = node end)
            root.view.traitOverrides.userInterfaceStyle = "dark"
            tk.update()
            assert(table.concat(log, " ") == "v1:unspecified v3:unspecified v5:unspecified v6:unspecified",
                   table.concat(log, " "))
            assert(#late == 1 and rawequal(late[1], views[3]))
            """)
    }

    /// As in Swift (RegistrationTests): a handler that ends its own registration and the next
    /// one, dropping the last references to both, runs to its end; the ended one does not fire;
    /// one it adds fires from the next update on.
    @Test func handlersThatChangeTheirNodesRegistrationsWhileFiring() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}
            window.rootViewController = root
            local view = tk.View{}
            root.view:addSubview(view)
            local tokens, log = {}, {}
            tokens[1] = view:registerForTraitChanges({"userInterfaceStyle"}, function(node)
              node:unregisterForTraitChanges(tokens[1])
              node:unregisterForTraitChanges(tokens[2])
              tokens = {}
              collectgarbage(); collectgarbage()
              node:registerForTraitChanges({"userInterfaceStyle"}, function() log[#log + 1] = "added" end)
              log[#log + 1] = "first"
            end)
            tokens[2] = view:registerForTraitChanges({"userInterfaceStyle"}, function() log[#log + 1] = "second" end)
            root.view.traitOverrides.userInterfaceStyle = "dark"
            tk.update()
            assert(table.concat(log, " ") == "first", table.concat(log, " "))
            root.view.traitOverrides.userInterfaceStyle = "light"
            tk.update()
            assert(table.concat(log, " ") == "first added", table.concat(log, " "))
            """)
    }

    /// A node's only handler sits in its userdata itself; a second turns the slot into a table
    /// (HandlerSlot). Registering and unregistering in any order keeps exactly the live
    /// handlers, in registration order.
    @Test func handlersSurviveTheSlotGrowingAndShrinking() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}
            window.rootViewController = root
            local view, log = tk.View{}, {}
            root.view:addSubview(view)
            local function handler(tag) return function() log[#log + 1] = tag end end
            local function flip(style)
              log = {}
              root.view.traitOverrides.userInterfaceStyle = style
              tk.update()
              return table.concat(log, " ")
            end
            local a = view:registerForTraitChanges({"userInterfaceStyle"}, handler("a"))
            assert(flip("dark") == "a")
            local b = view:registerForTraitChanges({"userInterfaceStyle"}, handler("b"))
            assert(flip("light") == "a b")
            view:unregisterForTraitChanges(a)
            local c = view:registerForTraitChanges({"userInterfaceStyle"}, handler("c"))
            assert(flip("dark") == "b c")
            view:unregisterForTraitChanges(b)
            view:unregisterForTraitChanges(c)
            view:unregisterForTraitChanges(c)
            assert(flip("light") == "")
            local d = view:registerForTraitChanges({"userInterfaceStyle"}, handler("d"))
            assert(flip("dark") == "d")
            view:unregisterForTraitChanges(d)
            local e = view:registerForTraitChanges({"userInterfaceStyle"}, handler("e"))
            view:unregisterForTraitChanges(d)
            assert(flip("light") == "e")
            """)
    }

    /// Firing finds a registration through its node's userdata and its id (HandlerSlot).
    /// Registrations made after others were dropped (their nodes collected) or unregistered
    /// fire with their own node and handler, and an unregistered handler never fires again.
    @Test func registrationsFireWithTheirOwnNodeAndHandler() throws {
        let runtime = LuaRuntime()
        let error = runtime.run(chunk: """
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}
            window.rootViewController = root
            local log = {}
            local function flip(style)
              log = {}
              root.view.traitOverrides.userInterfaceStyle = style
              tk.update()
              return table.concat(log, " ")
            end
            local function build(tag, count)
              local parent = tk.View{ name = tag }
              root.view:addSubview(parent)
              for i = 1, count do
                local view = tk.View{ name = tag .. i }
                parent:addSubview(view)
                view:registerForTraitChanges({"userInterfaceStyle"}, function(node, previous)
                  log[#log + 1] = node.name .. (rawequal(node, view) and "" or "(wrong node)")
                end)
              end
              return parent
            end
            build("a", 50):removeFromSuperview()
            collectgarbage(); collectgarbage()
            build("b", 50)
            local expected = {}
            for i = 1, 50 do expected[i] = "b" .. i end
            assert(flip("dark") == table.concat(expected, " "), log[1])

            local c, d = tk.View{ name = "c" }, tk.View{ name = "d" }
            root.view:addSubview(c); root.view:addSubview(d)
            local token = c:registerForTraitChanges({"userInterfaceStyle"}, function() log[#log + 1] = "c" end)
            assert(flip("light") == table.concat(expected, " ") .. " c")
            c:unregisterForTraitChanges(token)
            token = nil
            collectgarbage(); collectgarbage()
            d:registerForTraitChanges({"userInterfaceStyle"}, function(node) log[#log + 1] = node.name end)
            expected[#expected + 1] = "d"
            assert(flip("dark") == table.concat(expected, " "), table.concat(log, " "))
            """, name: "=numbers")
        #expect(error == nil, "\(error ?? "")")
    }

    /// A host that drives updates from Swift calls into Lua with nothing of Lua's below: every
    /// callback, run or failed, must leave the state's stack as it found it, or a long-running
    /// host grows it until Lua runs out of stack.
    @Test func callbacksLeaveTheStackAsTheyFoundIt() throws {
        let runtime = LuaRuntime()
        let error = runtime.run(chunk: """
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}
            window.rootViewController = root
            local a, b, c = tk.View{}, tk.View{}, tk.View{}
            root.view:addSubview(a); root.view:addSubview(b); root.view:addSubview(c)
            calls = 0
            local function count() calls = calls + 1 end
            a:registerForTraitChanges({"userInterfaceStyle"}, count)
            a:registerForTraitChanges({"userInterfaceStyle"}, function() error("handler failed") end)
            -- Targets are held weakly (R7): the script keeps its own, or a collection in
            -- between would end the registration (the full one in flip makes that certain).
            target = { hit = count }
            b:registerForTraitChanges({"userInterfaceStyle"}, target, "hit")
            function b:traitCollectionDidChange(previous) count() end
            function c:traitCollectionDidChange(previous) error("method failed") end
            function flip(style) root.view.traitOverrides.userInterfaceStyle = style; collectgarbage() end
            """, name: "=stack")
        try #require(error == nil, "\(error ?? "")")
        let top = lua_gettop(runtime.L)
        for style in ["dark", "light", "dark"] {
            try #require(runtime.run(chunk: "flip('\(style)')", name: "=flip") == nil)
            #expect(throws: (any Error).self) { try runtime.application.update() }
            #expect(lua_gettop(runtime.L) == top)
        }
        #expect(runtime.globalNumber(table: "_G", key: "calls") == 9)
    }

    @Test func aViewInAWindowKeepsItsLuaState() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root = tk.ViewController{}
            window.rootViewController = root
            do
              local Card = tk.View:subclass("Card")
              function Card:layoutSubviews() self.laidOut = (self.laidOut or 0) + 1 end
              local card = Card{ name = "card" }
              card.note = "kept"
              root.view:addSubview(card)
            end
            collectgarbage(); collectgarbage()
            tk.update()
            local card = root.view.subviews[1]
            assert(card.note == "kept" and card.laidOut == 1 and card.className == "Card")
            """)
    }

    /// Nodes join and leave their owner's chain (NodeAnchor) first, in the middle and last,
    /// and move between owners: after every step each node the window still owns keeps its
    /// Lua state, and each dropped one is collected.
    @Test func ownedNodesKeepTheirLuaStateThroughMovesAndOnlyThey() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            window.rootViewController = tk.ViewController{}
            local a, b = tk.View{ name = "a" }, tk.View{ name = "b" }
            window.rootViewController.view:addSubview(a)
            window.rootViewController.view:addSubview(b)
            local gone = setmetatable({}, { __mode = "k" })
            for i = 1, 6 do local v = tk.View{ name = "v" .. i }; v.tag = i; a:addSubview(v) end
            local function check()
              collectgarbage(); collectgarbage()
              for _, parent in ipairs{ a, b } do
                for _, v in ipairs(parent.subviews) do
                  assert(v.tag == tonumber(v.name:sub(2)), v.name .. " lost its field")
                end
              end
              assert(next(gone) == nil, "a dropped view survived")
            end
            local function take(name)
              for _, parent in ipairs{ a, b } do
                for _, v in ipairs(parent.subviews) do if v.name == name then return v end end
              end
            end
            check()
            b:addSubview(take("v6"))     -- the last joined: first in its chain
            b:addSubview(take("v1"))     -- the first joined: last in its chain
            b:addSubview(take("v3"))     -- from the middle
            check()
            a:addSubview(take("v1"))     -- back again
            local dropped = take("v4"); dropped:removeFromSuperview(); gone[dropped] = true
            dropped = take("v6"); dropped:removeFromSuperview(); gone[dropped] = true
            dropped = nil
            check()
            assert(#a.subviews == 3 and #b.subviews == 1)
            for i = 1, 3 do local v = tk.View{ name = "v" .. (6 + i) }; v.tag = 6 + i; b:addSubview(v) end
            check()
            """)
    }

    /// §7: exactly the sandbox's library set; binary chunks refused; messages say why.
    @Test func sandboxRemovesWhatItShould() {
        let runtime = LuaRuntime(sandbox: true)
        #expect(runtime.run(chunk: """
            assert(io == nil and debug == nil, "io and debug are gone")
            assert(os.getenv == nil and os.execute == nil and os.remove == nil, "os keeps only clock, time, date")
            assert(type(os.clock()) == "number" and type(os.time()) == "number" and type(os.date()) == "string")
            local ok, err = pcall(dofile, "x.lua")
            assert(not ok and err:find("sandboxed", 1, true), err)
            local f, why = load(string.dump(function() end))
            assert(f == nil and why:find("binary", 1, true), "a binary chunk must not load")
            ok, err = pcall(load, string.dump(function() end), "b", "b")
            assert(not ok and err:find("binary chunks are refused", 1, true), tostring(err))
            assert(load("return 1 + 1")() == 2, "text chunks load")
            ok, err = pcall(package.loadlib, "x.so", "f")
            assert(not ok and err:find("sandboxed", 1, true))
            assert(require("traitkit").View{ name = "v" }.name == "v", "the module is there")
            assert(require("string") == string, "built-in modules load")
            """, name: "=sandbox") == nil)
    }

    /// §7: under the sandbox `require` never touches the file system, whatever the script does
    /// to `package`: a file that exists and one that does not give the same error, which says
    /// why; preloaded modules and modules a script's own searcher supplies still load.
    @Test func sandboxedRequireCannotReadOrProbeFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("traitkit-sandbox-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "return 'read from disk'".write(to: folder.appendingPathComponent("present.lua"), atomically: true, encoding: .utf8)
        #expect(runLua("""
            package.path = "\(folder.path)/?.lua;/etc/?"
            local function message(name)
              local ok, err = pcall(require, name)
              assert(not ok, name .. " must not load")
              return (err:gsub(name, "NAME"))
            end
            local present, passwd, absent = message("present"), message("passwd"), message("absent")
            assert(present == absent and passwd == absent, present .. " / " .. passwd .. " / " .. absent)
            assert(absent:find("sandboxed", 1, true) and absent:find("preloaded", 1, true), absent)
            assert(package.searchpath == nil and package.searchers[3] == nil)
            package.preload.mine = function(name) return { name = name } end
            assert(require("mine").name == "mine")
            table.insert(package.searchers, function(name) return function() return name .. "!" end end)
            assert(require("made") == "made!")
            """, sandbox: true) == nil)
        // Outside the sandbox the same path loads the file.
        #expect(runLua("package.path = '\(folder.path)/?.lua'; assert(require('present') == 'read from disk')") == nil)
    }

    @Test func memoryLimitEndsARunawayScriptCleanly() {
        let runtime = LuaRuntime()
        runtime.memoryLimit = 16 * 1024 * 1024
        let error = runtime.run(chunk: "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end", name: "=runaway")
        #expect(error == "memory limit of 16 MB exceeded")
        #expect(runtime.run(chunk: "collectgarbage() local tk = require 'traitkit' assert(tk.View{ name = 'ok' }.name == 'ok')", name: "=after") == nil)
    }

    /// A state allocates without counting until a limit asks for it; a limit set later counts
    /// what Lua already holds, and lifting it lets the script grow again.
    @Test func aLimitSetLaterCountsWhatLuaAlreadyHolds() {
        let runtime = LuaRuntime()
        #expect(runtime.run(chunk: "held = {} for i = 1, 80000 do held[i] = ('x'):rep(100) .. i end", name: "=hold") == nil)
        runtime.memoryLimit = 16 * 1024 * 1024
        let grow = "local more = {} for i = 1, 40000 do more[i] = ('y'):rep(100) .. i end"
        #expect(runtime.run(chunk: grow, name: "=grow") == "memory limit of 16 MB exceeded")
        runtime.memoryLimit = 0
        #expect(runtime.run(chunk: grow, name: "=grow") == nil)
    }

    /// A node's first `traitOverrides` makes its proxy in the C `__index`: going over the limit
    /// there ends the run like any other allocation, and leaves every node usable after.
    @Test func aLimitReachedMakingOverridesProxiesEndsTheRunCleanly() throws {
        let runtime = LuaRuntime()
        let build = "tk = require 'traitkit' views = {} for i = 1, 20000 do views[i] = tk.View{} end "
            + "collectgarbage() used = collectgarbage('count')"
        #expect(runtime.run(chunk: build, name: "=build") == nil)
        let used = try #require(runtime.globalNumber(table: "_G", key: "used"))
        runtime.memoryLimit = Int(used * 1024) + 512 * 1024  // room for a few thousand proxies
        let fetch = "held = {} for i = 1, #views do held[i] = views[i].traitOverrides end reached = 1"
        #expect(runtime.run(chunk: fetch, name: "=fetch")?.hasPrefix("memory limit of") == true)
        #expect(runtime.globalNumber(table: "_G", key: "reached") == nil)
        runtime.memoryLimit = 0
        let after = """
            for i = 1, #views do
              local overrides = views[i].traitOverrides
              assert(held[i] == nil or held[i] == overrides, "a node keeps the proxy it made")
              overrides.userInterfaceStyle = "dark"
              assert(views[i].traitOverrides == overrides and overrides.userInterfaceStyle == "dark")
            end
            assert(views[#views].traitOverrides:contains("userInterfaceStyle"))
            """
        #expect(runtime.run(chunk: after, name: "=after") == nil)
    }

    @Test func timeoutEndsAnInfiniteLoop() {
        let runtime = LuaRuntime()
        runtime.timeout = 0.2
        let error = runtime.run(chunk: "while true do end", name: "=loop")
        #expect(error?.contains("time limit of 0.2 s exceeded") == true)
    }

    /// A limit ends the run even when the script catches the error: the next instruction
    /// after the pcall raises again, in the main thread and in coroutines.
    @Test func aCaughtLimitStillEndsTheRun() {
        let timed = LuaRuntime()
        timed.timeout = 0.2
        let spin = "local function spin() while true do end end\n"
        for loop in ["while true do pcall(spin) end",
                     "local co = coroutine.wrap(function() while true do pcall(spin) end end) while true do pcall(co) end",
                     "pcall(spin) after = 1"] {
            #expect(timed.run(chunk: spin + loop, name: "=loop")?.contains("time limit of 0.2 s exceeded") == true, "\(loop)")
        }
        #expect(timed.globalNumber(table: "_G", key: "after") == nil)
        let limited = LuaRuntime()
        limited.memoryLimit = 16 * 1024 * 1024
        let grow = "local function grow() local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end end\n"
        #expect(limited.run(chunk: grow + "while true do pcall(grow) end", name: "=grow") == "memory limit of 16 MB exceeded")
        #expect(limited.run(chunk: grow + "pcall(grow) reached = 1", name: "=grow") == "memory limit of 16 MB exceeded")
        #expect(limited.globalNumber(table: "_G", key: "reached") == nil)
        // The next run has its budget back.
        #expect(limited.run(chunk: "collectgarbage() fine = 1", name: "=after") == nil)
        #expect(limited.globalNumber(table: "_G", key: "fine") == 1)
    }
}
