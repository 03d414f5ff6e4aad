import Foundation
import CLua
import Testing
@testable import TraitKitLua

/// §7 bad input: the random sweep of Tests/Fuzz/bad_input.lua, and one test for each bug the
/// sweep found, so each stays fixed. `TRAITKIT_LONG=1` sweeps 50 seeds of 1,000,000 calls.
@Suite("Bad input") struct BadInputTests {
    @Test(arguments: ProcessInfo.processInfo.environment["TRAITKIT_LONG"] == "1" ? Array(1...50) : [1, 2, 3])
    func randomCallsNeverCrashOrCorrupt(seed: Int) throws {
        let calls = ProcessInfo.processInfo.environment["TRAITKIT_LONG"] == "1" ? 1_000_000 : 100_000
        let result = try traitkit(["run", "Tests/Fuzz/bad_input.lua", String(seed), String(calls)])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("bad input: \(calls) calls, seed \(seed), hierarchy whole"))
    }

    /// The debug library can put any value where the binding keeps its own (user values,
    /// metatables, registry slots): Tests/Fuzz/tampering.lua replaces each on a fresh stage and
    /// uses the API. A proxy whose node slot held a collection was once taken for a node, and a
    /// registry slot that held a number was set as a metatable (both crashes).
    @Test func replacedUserValuesAndMetatablesNeverCrash() throws {
        let result = try traitkit(["run", "Tests/Fuzz/tampering.lua"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "replaced 459 values\nreplaced at least 10 registry slots\n")
    }

    /// The binding's C functions trust their upvalues (a Swift function's address, the fast
    /// paths' tables): `debug.setupvalue` refuses to change them, where replacing one made the
    /// next call jump to nowhere. Every C function with upvalues a script can reach is tried
    /// (the module's, the metamethods', the members', the classes' constructors); each still
    /// works after, and other functions' upvalues change as before. Run in a process of its
    /// own, so that a crash fails the test instead of ending the test runner.
    @Test func theBindingsUpvaluesCannotBeReplaced() throws {
        let result = try traitkit(["run", "-"], input: """
            local tk = require "traitkit"
            local v = tk.View{ name = "v" }
            local tc = tk.TraitCollection{ userInterfaceStyle = "dark" }
            for _ = 1, 20 do _ = tc.userInterfaceStyle end  -- promoted: its memo has an __index too
            local seen, tried = {}, 0
            local function try(f)
              if type(f) ~= "function" or seen[f] then return end
              seen[f] = true
              local info = debug.getinfo(f, "Su")
              if info.what ~= "C" then return end
              for i = 1, info.nups do
                local ok, err = pcall(debug.setupvalue, f, i, nil)
                assert(not ok and err:find("the upvalues of a TraitKit function cannot change", 1, true), tostring(err))
                tried = tried + 1
              end
            end
            local function each(t) for _, f in pairs(t) do try(f) end end
            each(tk)
            for _, o in ipairs{ v, tc, v.traitOverrides, tk.View, tk.ViewController } do
              local mt = debug.getmetatable(o)
              if mt then each(mt) end
            end
            local memo = debug.getmetatable(tc).__index
            if type(memo) == "table" then each(debug.getmetatable(memo)) end
            for _, name in ipairs{ "addSubview", "removeFromSuperview", "explain", "registerForTraitChanges" } do try(v[name]) end
            assert(tried > 10, tried)
            assert(tc.userInterfaceStyle == "dark" and v.name == "v" and tk.View{ name = "w" }.name == "w")
            v.extra = 1
            assert(v.extra == 1)
            tk.update()
            local x = 1
            local function g() return x end
            assert(debug.setupvalue(g, 1, 2) == "x" and g() == 2)
            print("tried " .. tried)
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("tried "), "\(result.stdout)")
    }

    /// The C `__index` fast paths check what they are given: reached through `debug` with
    /// another object, a file handle or a table, they fall back to the Swift path's errors.
    @Test func fastPathsRefuseForeignSelves() {
        #expect(LuaObject.Kind.node.rawValue == TK_KIND_NODE)
        #expect(LuaObject.Kind.collection.rawValue == TK_KIND_COLLECTION)
        #expect(LuaObject.Kind.overrides.rawValue == TK_KIND_OVERRIDES)
        expectLua("""
            local tk = require "traitkit"
            local nodeIndex = debug.getmetatable(tk.View{}).__index
            local collectionIndex = debug.getmetatable(tk.TraitCollection{}).__index
            for _, self in ipairs{ tk.Color.systemBlue, io.stdout, {}, tk.TraitCollection{} } do
              local ok, err = pcall(nodeIndex, self, "traitCollection")
              assert(not ok and type(err) == "string", tostring(err))
            end
            for _, self in ipairs{ io.stdout, {} } do
              local ok = pcall(collectionIndex, self, "userInterfaceStyle")
              assert(not ok)
            end
            -- Another engine object goes to its own kind's lookup (a node has no such member).
            assert(not pcall(collectionIndex, tk.View{}, "userInterfaceStyle"))
            assert(nodeIndex(tk.View{}, "traitCollection").userInterfaceStyle == "unspecified")
            -- A node's fields are not a collection's memo: read twice by name, a collection
            -- takes a metatable of its own; a node must keep its kind's.
            local view = tk.View{}
            view.userInterfaceStyle = "mine"
            assert(collectionIndex(view, "userInterfaceStyle") == "mine")
            assert(collectionIndex(view, "userInterfaceStyle") == "mine")
            assert(rawequal(debug.getmetatable(view), debug.getmetatable(tk.View{})))
            """)
    }

    /// The node `__index` answers members and per-instance fields in C. Reached through the
    /// debug library with a stranger for `self`, a missing key or extra arguments, or given a
    /// node whose finalizer a script ran by hand, it raises a Lua error or answers as a plain
    /// read would: it never reads a box that is not there.
    @Test func nodeIndexTakesAnyArguments() {
        expectLua("""
            local tk = require "traitkit"
            local view = tk.View{ name = "v" }
            view.note = "kept"
            local index = debug.getmetatable(view).__index
            for _, key in ipairs{ "addSubview", "name", "note", "traitOverrides", "traitCollection" } do
              for _, self in ipairs{ tk.Color.systemBlue, io.stdout, {}, 5 } do
                local ok, err = pcall(index, self, key)
                assert(not ok and type(err) == "string", key .. ": " .. tostring(err))
              end
            end
            assert(index(view, "name", 1, 2) == "v")
            assert(index(view, "note", {}) == "kept")
            assert(index(view, "addSubview") == tk.View{}.addSubview)
            assert(index(view) == nil)
            local ok, err = pcall(index, view, "nme")
            assert(not ok and err:find("did you mean 'name'", 1, true), tostring(err))
            debug.getmetatable(view).__gc(view)
            for _, key in ipairs{ "name", "note", "addSubview", "traitOverrides", "traitCollection" } do
              ok, err = pcall(function() return view[key] end)
              assert(not ok and err:find("after its finalizer ran", 1, true), key .. ": " .. tostring(err))
            end
            """)
    }

    /// Reached through the debug library, the C `__index` of collections gets any number of
    /// arguments, and a promoted collection's memo `__index` any `self`: a third argument put
    /// the memo past index 3 (a raw get on the integer), and a number as `self` was read as a
    /// table. Both ended the process with SIGSEGV; both are Lua errors or plain answers now.
    @Test func collectionIndexesTakeAnyArguments() throws {
        let result = try traitkit(["run", "-"], input: """
            local tk = require "traitkit"
            local tc = tk.TraitCollection{ userInterfaceStyle = "dark" }
            local index = debug.getmetatable(tc).__index
            _ = tc.userInterfaceStyle
            print(index(tc, "userInterfaceStyle", 0), index(tc, "userInterfaceStyle", 0, {}, "x"))
            print(pcall(index, tc), pcall(index))
            for _ = 1, 20 do _ = tc.userInterfaceStyle end  -- promoted after a few reads
            local memo = debug.getmetatable(tc).__index
            local miss = debug.getmetatable(memo).__index
            for _, self in ipairs{ 0, "userInterfaceStyle", {}, io.stdout, tk.View{} } do
              print(pcall(miss, self, "userInterfaceStyle"))
            end
            print(miss(memo, "horizontalSizeClass", 1, 2), pcall(miss))
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "dark\tdark", "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("false\tfalse\tbad self") == true, "\(lines)")
        // A number, a string, a table that is no memo, a file: errors; a node answers for
        // itself (it has no such member).
        #expect(lines.dropFirst(2).prefix(4).allSatisfy { $0.hasPrefix("false\tbad self") }, "\(lines)")
        #expect(lines.dropFirst(6).first == "false\tView has no member 'userInterfaceStyle' (fields a script sets on it can be read back)", "\(lines)")
        #expect(lines.last?.hasPrefix("unspecified\tfalse\t") == true, "\(lines)")
    }

    /// §7's audit: every function a script can reach, every metamethod and every member of
    /// every class in the binding's own member tables, called with wrong counts, foreign and
    /// finalized selves and wrong types (Tests/Fuzz/every_function.lua). Each must return or
    /// raise a Lua error, and refuse a self that is not its object; the run must not end by a
    /// signal.
    @Test func everyReachableFunctionRefusesBadArguments() throws {
        let runtime = LuaRuntime()
        func list(_ names: [(String, SwiftLuaFunction)]) -> String {
            "{" + names.map { "\"\($0.0)\"" }.joined(separator: ", ") + "}"
        }
        let members = runtime.registeredMembers.map { type, members in
            "{ type = \"\(String(describing: type))\", methods = \(list(members.methods)), "
                + "getters = \(list(members.getters)), setters = \(list(members.setters)) }"
        }
        let script = try String(contentsOf: packageRoot.appendingPathComponent("Tests/Fuzz/every_function.lua"), encoding: .utf8)
        let result = try traitkit(["run", "-"], input: "MEMBERS = {\n" + members.joined(separator: ",\n") + "}\n" + script)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.hasPrefix("audited "), "\(result.stdout)")
        // Everything the tables name was called: far more functions than the module alone has.
        let audited = Int(summary.split(separator: " ").dropFirst().first ?? "") ?? 0
        let methods = runtime.registeredMembers.reduce(0) { $0 + $1.members.methods.count }
        #expect(audited > methods, "\(summary)")
    }

    /// A builder function's object values are anchored by the builder's userdata until the
    /// collection's userdata takes them; a collection step between the two freed them, and the
    /// value read back nil. An aggressive incremental setting made that happen in most runs;
    /// a full collection at every step of the generational collector is the other extreme.
    @Test func builderValuesSurviveEveryCollectorSetting() {
        for (n, setting) in [#""incremental", 10, 1000, 10"#, #""incremental", 0, 40, 0"#, #""generational", 0, 0"#].enumerated() {
            expectLua("""
                local tk = require "traitkit"
                local Obj = tk.defineTrait{ name = "BuiltObject\(n)", default = false, kind = "object" }
                collectgarbage(\(setting))
                local base = tk.TraitCollection{}
                for i = 1, 300 do
                  local tc = tk.TraitCollection(function(t) t[Obj] = { name = "built" .. i } end)
                  assert(type(tc[Obj]) == "table" and tc[Obj].name == "built" .. i, "lost at " .. i)
                  local changed = base:modifying(function(t) t[Obj] = { i } end)
                  assert(type(changed[Obj]) == "table" and changed[Obj][1] == i, "modifying lost at " .. i)
                end
                collectgarbage("incremental", 200, 100, 13)
                """)
        }
    }

    /// A class's `__newindex` sets the field raw. A nil or NaN key (`Class[nil] = v`) must be
    /// refused before the raw set, which would raise through Swift frames; another self,
    /// reached through the debug library, crashed the process.
    @Test func classesRefuseKeysLuaCannotStoreAndForeignSelves() {
        expectLua("""
            local tk = require "traitkit"
            local Card = tk.View:subclass("BadInputCard")
            local ok, err = pcall(function() Card[nil] = 1 end)
            assert(not ok and err:find("cannot use a nil as a field key", 1, true), tostring(err))
            ok, err = pcall(function() Card[0/0] = 1 end)
            assert(not ok and err:find("cannot use NaN as a field key", 1, true), tostring(err))
            local newindex = debug.getmetatable(Card).__newindex
            for _, self in ipairs{ 5, "card", io.stdout, tk.View{} } do
              ok, err = pcall(newindex, self, "x", 1)
              assert(not ok and err:find("expected a class", 1, true), tostring(err))
            end
            Card.accent = 7
            function Card:describe() return "card" end
            assert(Card.accent == 7 and Card{}:describe() == "card")
            """)
    }

    /// A chain far deeper than any real hierarchy used to overflow the stack in the trait walk
    /// and kill the process; it is refused where it is built, with the limit in the message,
    /// and an update nested in callbacks over the deepest tree allowed stops with an error.
    @Test func deepChainsAndNestedUpdatesRaiseInsteadOfCrashing() throws {
        let result = try traitkit(["run", "-"], input: """
            local tk = require "traitkit"
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local vc = tk.ViewController{}; w.rootViewController = vc
            local cur, built = vc.view, 0
            local ok, err = pcall(function()
              for i = 1, 100000 do local v = tk.View{}; cur:addSubview(v); cur = v; built = i end
            end)
            print(built, err)
            local n = 0
            cur:registerForTraitChanges({"userInterfaceStyle"}, function()
              n = n + 1
              w.traitOverrides.userInterfaceStyle = n % 2 == 0 and "dark" or "light"
              w:layoutIfNeeded()
            end)
            w.traitOverrides.userInterfaceStyle = "dark"
            print(pcall(tk.update))
            print(#tk.dump(w) > 0, cur.traitCollection.userInterfaceStyle ~= nil)
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "995\tstdin:6: cannot add View to View: the hierarchy would be more than 1000 levels deep "
                + "(the most TraitKit supports; flatten the chain)", "\(lines)")
        // The handler's error comes back from tk.update with where it was raised and its traceback.
        let failed = lines.first { $0.hasPrefix("false\t") } ?? "none"
        #expect(failed.hasPrefix("false\tstdin:13: updates nested too deeply") || failed.hasPrefix("false\tstdin:13: C stack overflow"),
                "\(failed)")
        #expect(lines.last == "true\ttrue")
    }

    /// A C function may push only 20 values without asking Lua for room. An element with many
    /// children, `tk.async` with many arguments and a script with many arguments each pushed
    /// one value per item and overran the stack (a crash, or worse, a quiet corruption).
    @Test func manyChildrenAndArgumentsFitOnTheLuaStack() throws {
        let arguments = (1...300).map(String.init)
        let result = try traitkit(["run", "-"] + arguments, input: """
            local tk = require "traitkit"
            local E = tk.elements
            local items = {}
            for i = 1, 5000 do items[i] = E.Text{ text = "t" .. i } end
            local host = tk.HostingController{ root = E.VStack(items) }
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = host
            local got
            tk.async(function(...) got = select("#", ...) end, table.unpack(items, 1, 250))
            tk.update()
            collectgarbage()
            print(#host.view.subviews[1].subviews, got, #arg, arg[300])
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "5000\t250\t300\t300\n", "\(result.stdout)")
    }

    /// A subclass's constructor takes any field; its pairs are read onto the Lua stack first,
    /// and a table with more than the stack holds (a million slots) goes through a list.
    @Test func aConstructorTableLargerThanTheStackIsApplied() {
        expectLua("""
            local tk = require "traitkit"
            local Big = tk.View:subclass("BadInputBigTable")
            local fields = { name = "big" }
            for i = 1, 400000 do fields["f" .. i] = i end
            local v = Big(fields)
            assert(v.name == "big" and v.f1 == 1 and v.f400000 == 400000)
            local ok, err = pcall(tk.View, fields)
            assert(not ok and err:find("unknown field 'f", 1, true), err)
            """)
    }

    /// A constructor's setter may run a scripted method that changes the constructor's table;
    /// `lua_next` then raised "invalid key to 'next'" straight through the Swift frames reading
    /// it. The pairs are now read first, in protected mode, and applied as they were.
    @Test func aConstructorTableChangedByAScriptedMethodIsReadAsItWas() {
        expectLua("""
            local tk = require "traitkit"
            local props
            local Mutating = tk.ViewController:subclass("MutatingLoader")
            function Mutating:loadView()
              props.rootViewController = nil
              props.name = nil
              for i = 1, 100 do props["k" .. i] = i end
              collectgarbage()
              tk.ViewController.loadView(self)
            end
            local scene = tk.WindowScene{ screen = tk.Screen{} }
            props = { name = "w", scene = scene, rootViewController = Mutating{} }
            local w = tk.Window(props)
            assert(w.name == "w" and w.rootViewController ~= nil and w.scene == scene)
            """)
    }

    @Test func constructorsWithoutATableRaise() {
        expectLua("""
            local tk = require "traitkit"
            local ok, err = pcall(function() return tk.HostingController() end)
            assert(not ok and err:find("root", 1, true), tostring(err))
            assert(tk.WindowScene().screen == nil and tk.View().name == nil)
            """)
    }

    @Test func messagesClipHugeStrings() {
        expectLua("""
            local tk = require "traitkit"
            local huge = string.rep("x", 1 << 20)
            for _, f in ipairs{
              function() tk.defineTrait{ name = huge, kind = huge } end,
              function() tk.View{ name = huge }.traitOverrides.userInterfaceStyle = huge end,
              function() return tk.TraitCollection{}[huge] end,
              function() local v = tk.View{ name = huge }; return v.traitOverrides.horizontalSizeClass end,
              function() tk.View:subclass(huge){ name = 5 } end,
              function() tk.View:subclass(huge)(5) end,
              function() tk.View:subclass(huge).addSubview = 1 end,
              function() tk.defineTrait{ name = "HugeCase", values = { huge }, default = "a" } end,
              function() tk.defineTrait{ name = "HugeField", default = { [huge] = 1 } }; tk.View{}.traitOverrides.HugeField = { [huge] = "x" } end,
            } do
              local ok, err = pcall(f)
              assert(not ok and #err < 600 and err:find("(1048576 bytes)", 1, true), #tostring(err))
            end
            -- A long trait name misspelled: the hint is found at once and clipped too.
            local long = string.rep("y", 100000)
            tk.defineTrait{ name = long, default = 0, kind = "integer" }
            local ok, err = pcall(function() tk.View{}.traitOverrides[long .. "z"] = 1 end)
            assert(not ok and #err < 400 and err:find("did you mean 'yyyy", 1, true)
                   and err:find("(100000 bytes)", 1, true), tostring(err))
            """)
    }

    /// A builder function called from Swift inside a coroutine runs on the coroutine's stack.
    @Test func callbacksInsideCoroutinesUseTheCoroutinesStack() {
        expectLua("""
            local tk = require "traitkit"
            local tc = tk.TraitCollection{}
            local co = coroutine.create(function()
              local dark = tc:modifying(function(t) t.userInterfaceStyle = "dark" end)
              coroutine.yield(dark.userInterfaceStyle)
              return tc:modifying(function() coroutine.yield() end)
            end)
            local ok, style = coroutine.resume(co)
            assert(ok and style == "dark", tostring(style))
            local ok2, err = coroutine.resume(co)
            assert(not ok2 and err:find("attempt to yield across a C-call boundary", 1, true), tostring(err))
            """)
    }

    @Test func aControllersViewCannotBeAWindowAnotherControllersViewOrAnAncestor() {
        expectLua("""
            local tk = require "traitkit"
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            local root, child, other = tk.ViewController{ name = "root" }, tk.ViewController{ name = "child" }, tk.ViewController{}
            window.rootViewController = root
            root:addChild(child); root.view:addSubview(child.view)
            local function refused(f, word)
              local ok, err = pcall(f)
              assert(not ok and err:find(word, 1, true), tostring(err))
            end
            refused(function() child.view = window end, "a Window is a root")
            refused(function() other.view = root.view end, "already the view of ViewController 'root'")
            local mine = tk.View{}
            child.view:addSubview(mine)
            child.view = mine                    -- a view below the old one is fine
            assert(child.view == mine and mine.superview ~= nil)
            tk.update()
            assert(#root.view.subviews == 1 and window.rootViewController == root)
            """)
    }
}
