import Foundation
import Testing
@testable import TraitKitLua

/// What a new user porting the talk's samples tripped over, each kept fixed: errors that name
/// the right thing at the right time, values that keep their identity, lists nobody else changes.
@Suite("New-user friction")
struct FrictionTests {
    /// A handler's error that is not a message reaches `pcall` as the value raised, from every
    /// call that runs an update, as an error in `performAsCurrent` already did (R7, §7). A
    /// message keeps its position and traceback.
    @Test func errorObjectsFromHandlersReachTheCallerUnchanged() {
        expectLua("""
            local tk = require "traitkit"
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.ViewController{}
            local v = w.rootViewController.view
            local raised = { code = 42 }
            v:registerForTraitChanges({ "userInterfaceStyle" }, function() error(raised) end)
            v:registerForTraitChanges({ "userInterfaceStyle" }, function() error("second") end)
            local styles = { "dark", "light", "dark" }
            local calls = { tk.update, function() v:updateTraitsIfNeeded() end, function() w:layoutIfNeeded() end }
            for i, call in ipairs(calls) do
              w.scene.traitOverrides.userInterfaceStyle = styles[i]
              local ok, err = pcall(call)
              assert(not ok and rawequal(err, raised), "call " .. i .. ": " .. tostring(err))
            end
            v:registerForTraitChanges({ "userInterfaceStyle" }, function() end)
            local ok, err = pcall(function() w.scene.traitOverrides.userInterfaceStyle = "light"; tk.update() end)
            assert(rawequal(err, raised))
            -- Its __tostring, which only the traceback text needs, may fail: the value stays.
            local odd = setmetatable({}, { __tostring = function() error("no text") end })
            local w2 = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w2.rootViewController = tk.ViewController{}
            w2.rootViewController.view:registerForTraitChanges({ "userInterfaceStyle" }, function() error(odd) end)
            w2.scene.traitOverrides.userInterfaceStyle = "dark"
            ok, err = pcall(tk.update)
            assert(not ok and rawequal(err, odd), type(err))
            """)
        let result = try? traitkit(["run", "-"], input: """
            local tk = require "traitkit"
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.ViewController{}
            w.rootViewController.view:registerForTraitChanges({ "userInterfaceStyle" }, function() error({}) end)
            w.scene.traitOverrides.userInterfaceStyle = "dark"
            tk.update()
            """)
        // Uncaught, it ends the run as lua ends on a table: with the traceback of where it was raised.
        #expect(result?.stderr.hasPrefix("traitkit: (error object is a table value)\nstack traceback:") == true)
        #expect(result?.stderr.contains("stdin:4:") == true, "\(result?.stderr ?? "")")
    }

    /// UIKit hands out a fresh array for each semantic set; a script that extends the list it
    /// got must not change what every later registration on that set means.
    @Test func semanticSetsAreFreshListsEachTime() {
        expectLua("""
            local tk = require "traitkit"
            local s = tk.systemTraitsAffectingColorAppearance
            s[#s + 1] = "displayScale"
            assert(#tk.systemTraitsAffectingColorAppearance == 6 and #s == 7)
            assert(not rawequal(s, tk.systemTraitsAffectingColorAppearance))
            assert(#tk.systemTraitsAffectingImageLookup == 10 and tk.noSuchField == nil)
            """)
    }

    /// A target-action registration whose target lacks the method is refused where it is made,
    /// at the caller's line, not at the first change from inside an internal chunk.
    @Test func targetActionNeedsTheMethodAtRegistration() {
        expectLuaErrors([
            ("v:registerForTraitChanges({ 'userInterfaceStyle' }, {}, 'noSuchMethod')",
             "registerForTraitChanges: the target (a table) has no method 'noSuchMethod'"),
            ("v:registerForTraitChanges({ 'userInterfaceStyle' }, 'noSuchMethod')",
             "registerForTraitChanges: the target View 'v' has no method 'noSuchMethod'"),
        ], prelude: "local tk = require 'traitkit'\nlocal v = tk.View{ name = 'v' }", file: "target.lua")
        expectLua("""
            local tk = require "traitkit"
            local v = tk.View{}
            local Target = setmetatable({}, { __index = { changed = function() end } })
            v:registerForTraitChanges({ "userInterfaceStyle" }, Target, "changed")
            v:registerForTraitChanges({ "userInterfaceStyle" }, "setNeedsLayout")
            """)
    }

    /// A method called with `.` gets the script's first argument as self: the error names the
    /// method (not the helper that checked self) and says how to call it.
    @Test func aMethodCalledWithADotSaysSo() {
        expectLuaErrors([
            ("s.setSystemTraits{ userInterfaceStyle = 'dark' }",
             "bad argument #1 to 'setSystemTraits' (expected a Screen, got table; use ':' to call a method)"),
            ("v.removeFromSuperview(5)",
             "bad argument #1 to 'removeFromSuperview' (expected a View, got number; use ':' to call a method)"),
            ("tk.dump(5)", "bad argument #1 to 'dump' (expected a node, got number)"),
        ], prelude: "local tk = require 'traitkit'\nlocal s, v = tk.Screen{}, tk.View{}", file: "dot.lua")
    }

    /// Lifecycle methods are called by the engine: assigning anything but a function (or nil,
    /// which removes it) would be stored and never called.
    @Test func lifecycleMembersMustBeFunctions() {
        expectLuaErrors([
            ("v.layoutSubviews = 5", "'layoutSubviews' must be a function (the engine calls it as a lifecycle method), got number"),
            ("Card.viewDidLoad = 'x'", "'viewDidLoad' must be a function"),
        ], prelude: "local tk = require 'traitkit'\nlocal v = tk.View{}\nlocal Card = tk.View:subclass('FrictionCard')",
           file: "lifecycle.lua")
        expectLua("""
            local tk = require "traitkit"
            local v = tk.View{}
            v.layoutSubviews = function() end
            v.layoutSubviews = nil
            """)
    }

    /// A record trait's values keep its default's shape: only declared fields, each of its
    /// declared kind; a field left out takes the default's value.
    @Test func recordTraitsKeepTheirDefaultsShape() {
        expectLuaErrors([
            ("tk.TraitCollection{ FrictionInsets = { top = 'big' } }",
             "invalid value {top = \"big\"} for trait FrictionInsets (expected field 'top' to be a number as in its default"),
            ("v.traitOverrides.FrictionInsets = { top = 1, extra = 2 }",
             "invalid value {extra = 2, top = 1} for trait FrictionInsets (expected a record with the fields of its default"),
        ], prelude: "local tk = require 'traitkit'\nlocal Insets = tk.defineTrait{ name = 'FrictionInsets', "
            + "default = { top = 0, left = 0, bottom = 0, right = 0 } }\nlocal v = tk.View{}", file: "record.lua")
        expectLua("""
            local tk = require "traitkit"
            local Insets = tk.defineTrait{ name = "FrictionInsets2", default = { top = 0, left = 0, label = "x" } }
            local r = tk.TraitCollection{ FrictionInsets2 = { top = 1.5 } }.FrictionInsets2
            assert(r.top == 1.5 and r.left == 0 and r.label == "x")
            local Free = tk.defineTrait{ name = "FrictionFree", kind = "record" }
            assert(tk.TraitCollection{ FrictionFree = { anything = true } }.FrictionFree.anything == true)
            """)
    }

    /// JSON errors say what JSON allows and what the text has there.
    @Test func jsonErrorsSpeakJSON() {
        expectLuaErrors([
            ("tk.TraitCollection.fromJSON('not json')",
             "malformed JSON: expected a JSON value (an object {...}, an array [...], a \"string\", a number, true, "
                + "false or null) at offset 0, found 'not'"),
            ("tk.TraitCollection.fromJSON('{\"a\": tru }')", "malformed JSON: expected true at offset 6, found 'tru'"),
        ], prelude: "local tk = require 'traitkit'", file: "json.lua")
    }

    /// A REPL command's error is one line: a traceback would show only the command's chunk.
    @Test func replCommandErrorsAreOneLine() {
        let repl = LuaRepl()
        repl.write = { _ in }
        _ = repl.feed("header = tk.View{ name = 'header' }")
        #expect(repl.feed(":explain header Nope") == "stdin:1: unknown trait 'Nope' (define it with tk.defineTrait first)\n")
    }

    // MARK: UIKit fidelity

    /// The constructor's `root` goes through its setter, which anchors the element: checking
    /// constructor fields must not skip it (the hard-memory pass caught a Custom body freed).
    @Test func aHostingControllersRootElementOutlivesACollection() {
        expectLua("""
            local tk = require "traitkit"
            local E = tk.elements
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.HostingController{ root = E.VStack{
              E.Custom{ name = "Kept", body = function(env) return E.Text{ text = "kept" } end } } }
            collectgarbage(); collectgarbage()
            tk.update()
            """)
    }

    /// Typos are errors that name the nearest known name (DESIGN.md §3): an unknown
    /// constructor field of an engine class, and reading a name an engine class's instance has
    /// neither as a member nor as a field the script set. A script's subclass keeps plain Lua
    /// object semantics (`self.draws = (self.draws or 0) + 1`).
    @Test func typosAreErrorsWithTheNearestName() {
        expectLuaErrors([
            ("tk.WindowScene{ scren = tk.Screen{} }", "unknown field 'scren' in WindowScene{...} (did you mean 'screen'?)"),
            ("tk.View{ nmae = 'x' }", "unknown field 'nmae' in View{...} (did you mean 'name'?)"),
            ("tk.View{ 'x' }", "unknown field [1] in View{...} (constructor fields are named: name = ...)"),
            ("tk.View{ ['name\\0x'] = 'x' }", "unknown field 'name"),
            ("tk.WindowScene{ screen = tk.View{} }", "bad field 'screen' in WindowScene{...} (expected a Screen, got View)"),
            ("tk.View{ traitCollection = 5 }",
             "bad field 'traitCollection' in View{...}: it is a read-only property (set node.traitOverrides instead"),
            ("tk.View{ addSubview = 5 }", "bad field 'addSubview' in View{...}: it is a method"),
            ("_ = v.supervew", "View 'v' has no member 'supervew' (did you mean 'superview'?)"),
            ("_ = v.isHidden", "View 'v' has no member 'isHidden'"),
            ("_ = tk.ViewController{}.view.tintColr", "View has no member 'tintColr' (did you mean 'tintColor'?)"),
        ], prelude: "local tk = require 'traitkit'\nlocal v = tk.View{ name = 'v' }", file: "typo.lua")
        expectLua("""
            local tk = require "traitkit"
            local v = tk.View{}
            v.note = "kept"
            assert(v.note == "kept" and v.superview == nil and v.tintColor == tk.Color.systemBlue)
            local Card = tk.View:subclass("FrictionTypoCard")
            local c = Card{ draws = 2 }
            assert(c.draws == 2 and c.unset == nil)
            function Card:draw() self.draws = (self.draws or 0) + 1 end
            """)
        // Every field is looked up before any is applied, whatever order the table's pairs
        // come in: a typo leaves no half-made window behind it.
        expectLua("""
            local tk = require "traitkit"
            local Root = tk.ViewController:subclass("FrictionTypoRoot")
            local loads = 0
            function Root:viewDidLoad() loads = loads + 1 end
            for _, typo in ipairs{ "nmae", "x", "tint", "scren", "rootView", "title", "bgColor", "frame" } do
              local ok, err = pcall(tk.Window, { rootViewController = Root{}, [typo] = 1 })
              assert(not ok and err:find("unknown field '" .. typo .. "' in Window{...}", 1, true), err)
            end
            assert(loads == 0, "a setter ran before the typo was found: " .. loads)
            """)
    }

    /// UIKit presents a sheet with `userInterfaceLevel = .elevated`, so a dark sheet's
    /// systemBackground is #1C1C1E, not black; an override on the presentation still wins.
    @Test func presentedControllersAreElevated() {
        expectLua("""
            local tk = require "traitkit"
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{ userInterfaceStyle = "dark" } } }
            local root = tk.ViewController{}
            w.rootViewController = root
            local sheet = tk.ViewController{}
            root:present(sheet)
            tk.update()
            assert(root.traitCollection.userInterfaceLevel == "unspecified")
            assert(sheet.traitCollection.userInterfaceLevel == "elevated")
            assert(tostring(tk.Color.systemBackground:resolvedColor(sheet.view.traitCollection)) == "#1C1C1EFF")
            assert(tostring(tk.Color.systemBackground:resolvedColor(root.view.traitCollection)) == "#000000FF")
            sheet.presentationController.traitOverrides.userInterfaceLevel = "base"
            tk.update()
            assert(sheet.traitCollection.userInterfaceLevel == "base")
            """)
    }

    /// A window taken out of its scene is no longer shown: its controllers disappear, and
    /// appear again when it is back (UIKit's window visibility).
    @Test func aWindowOutOfItsSceneDisappearsAndComesBack() {
        expectLua("""
            local tk = require "traitkit"
            local Ctl = tk.ViewController:subclass("FrictionCtl")
            local log = {}
            for _, m in ipairs{ "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear" } do
              Ctl[m] = function(self) log[#log + 1] = m end
            end
            local scene = tk.WindowScene{ screen = tk.Screen{} }
            local w = tk.Window{ scene = scene }
            w.rootViewController = Ctl{}
            tk.update()
            assert(table.concat(log, " ") == "viewWillAppear viewDidAppear"); log = {}
            w.scene = nil
            tk.update(); tk.update()
            assert(table.concat(log, " ") == "viewWillDisappear viewDidDisappear", table.concat(log, " ")); log = {}
            w.scene = scene
            tk.update()
            assert(table.concat(log, " ") == "viewWillAppear viewDidAppear", table.concat(log, " "))
            """)
    }

    /// `hasDifferentColorAppearance` takes an optional, as UIKit's does: the first change has
    /// no previous collection, and any appearance differs from none.
    @Test func colorAppearanceComparedWithNothingDiffers() {
        expectLua("""
            local tk = require "traitkit"
            assert(tk.TraitCollection{}:hasDifferentColorAppearance(nil) == true)
            assert(tk.TraitCollection{}:hasDifferentColorAppearance() == true)
            assert(tk.TraitCollection{}:hasDifferentColorAppearance(tk.TraitCollection{}) == false)
            """)
    }

    /// A screen has no parent to wait for: its collection is its system traits from the start.
    @Test func aScreensCollectionIsItsSystemTraitsFromTheStart() {
        expectLua("""
            local tk = require "traitkit"
            local s = tk.Screen{ userInterfaceStyle = "dark", displayScale = 3 }
            assert(s.traitCollection.userInterfaceStyle == "dark" and s.traitCollection.displayScale == 3)
            s:setSystemTraits{ userInterfaceStyle = "light" }
            assert(s.traitCollection.userInterfaceStyle == "dark", "later changes wait for the update (R6)")
            tk.update()
            assert(s.traitCollection.userInterfaceStyle == "light")
            """)
    }

    /// A misspelled trait name, wherever a trait is named, names the defined trait nearest to
    /// it, a system trait included (not "define it", which would send the author the wrong
    /// way); on a collection or `traitOverrides`, whose names are traits and methods, a
    /// misspelled method names the method.
    @Test func aMisspelledTraitOrMethodNamesTheNearest() {
        expectLuaErrors([
            ("local x = tc.FrictionSpacng", "unknown trait 'FrictionSpacng' (did you mean 'FrictionSpacing'?)"),
            ("local x = tc[\"userinterfacestyle\"]", "unknown trait 'userinterfacestyle' (did you mean 'userInterfaceStyle'?)"),
            ("tc:modifyng{}", "unknown trait or method 'modifyng' (did you mean 'modifying'?)"),
            ("local x = tc.qqqqqqqq", "unknown trait 'qqqqqqqq' (define it with tk.defineTrait first)"),
            ("tk.TraitCollection{ horizontalSizeClas = 'compact' }", "unknown trait 'horizontalSizeClas' (did you mean 'horizontalSizeClass'?)"),
            ("v.traitOverrides.FrictionSpacin = 2", "unknown trait 'FrictionSpacin' (did you mean 'FrictionSpacing'?)"),
            ("v.traitOverrides:contans(Spacing)", "unknown trait or method 'contans' (did you mean 'contains'?)"),
            ("v:registerForTraitChanges({ 'frictionspacing' }, print)", "unknown trait 'frictionspacing' (did you mean 'FrictionSpacing'?)"),
            ("v:explain('FritionSpacing')", "unknown trait 'FritionSpacing' (did you mean 'FrictionSpacing'?)"),
        ], prelude: """
            local tk = require "traitkit"
            local Spacing = tk.defineTrait{ name = "FrictionSpacing", default = 1, kind = "integer" }
            local tc, v = tk.TraitCollection{}, tk.View{}
            """, file: "names.lua")
    }

    /// Reading a name an engine object or `tk.TraitCollection` does not have names the nearest
    /// one it has, as does a target-action registration's misspelled engine method; with none
    /// near, the object's names are listed (or the method's hint given) as before.
    @Test func aMisspelledFieldNamesTheNearest() {
        expectLuaErrors([
            ("local x = tk.app.windowz", "Application has no field 'windowz' (did you mean 'windows'?)"),
            ("local x = tk.app.qqqqqqqq", "Application has no field 'qqqqqqqq' (it has: screens, userInterfaceStyle, windows)"),
            ("local x = tk.TraitCollection.curent", "TraitCollection has no field 'curent' (did you mean 'current'?)"),
            ("local x = tk.TraitCollection.fromJSN", "TraitCollection has no field 'fromJSN' (did you mean 'fromJSON'?)"),
            ("tk.View{}:registerForTraitChanges({ 'userInterfaceStyle' }, 'setNeedsLayot')",
             "registerForTraitChanges: the target View has no method 'setNeedsLayot' (did you mean 'setNeedsLayout'?)"),
            ("tk.View{}:registerForTraitChanges({ 'userInterfaceStyle' }, 'redrawAll')",
             "registerForTraitChanges: the target View has no method 'redrawAll' (define it before registering, or pass a function)"),
        ], prelude: """
            local tk = require "traitkit"
            """, file: "fields.lua")
    }

    /// `tk.traits` holds the system traits: a misspelled one is an error at the script's line
    /// that names it (before, a nil that failed later as "bad key" or "an empty list"), a
    /// custom trait's name says where custom traits are, and the table cannot be written.
    /// It still reads as a table: `pairs` lists the system traits, other keys read nil.
    @Test func aMisspelledSystemTraitNamesTheNearest() {
        expectLuaErrors([
            ("local x = tk.traits.horizontalSizeClas", "unknown system trait 'horizontalSizeClas' (did you mean 'horizontalSizeClass'?)"),
            ("v:registerForTraitChanges({ tk.traits.userinterfacestyle }, print)",
             "unknown system trait 'userinterfacestyle' (did you mean 'userInterfaceStyle'?)"),
            ("local x = tk.traits.qqqqqqqq", "unknown system trait 'qqqqqqqq' (tk.traits holds the system traits; see tk.definedTraits())"),
            ("local x = tk.traits.FrictionSpacing",
             "tk.traits holds the system traits; 'FrictionSpacing' is a custom trait: use the trait tk.defineTrait returned, or its name"),
            ("tk.traits.FrictionSpacing = Spacing", "tk.traits is read-only: it holds the system traits (define a trait with tk.defineTrait)"),
        ], prelude: """
            local tk = require "traitkit"
            local Spacing = tk.defineTrait{ name = "FrictionSpacing", default = 1, kind = "integer" }
            local v = tk.View{}
            """, file: "traits.lua")
        expectLua("""
            local tk = require "traitkit"
            local n = 0
            for name, trait in pairs(tk.traits) do assert(trait.name == name); n = n + 1 end
            assert(n == 18, n)  -- the system traits docs/lua-api.md lists
            for _ in ipairs(tk.traits) do error("ipairs found an entry") end
            assert(tk.traits[1] == nil and tk.traits[tk.traits] == nil)
            assert(tk.traits.userInterfaceStyle == tk.traits["userInterfaceStyle"])
            """)
    }

    /// The talk's samples ported word for word: where UIKit spells a member or a trait otherwise
    /// (`UITraitHorizontalSizeClass`), the error says TraitKit's name for it (however far the
    /// two are apart), and the talk's `traitCollection[MyTrait.self]` and
    /// `UITraitCollection.systemTraitsAffectingColorAppearance` say where TraitKit has them.
    @Test func uikitSpellingsNameTraitKitsMember() {
        expectLuaErrors([
            ("local dark = tc:modifyingTraits(function(t) t.userInterfaceStyle = 'dark' end)",
             "unknown trait or method 'modifyingTraits' (UIKit's 'modifyingTraits' is 'modifying' in TraitKit)"),
            ("local x = tc[Theme.self]",
             "Trait has no field 'self' (a trait object is its own key: tc[Trait], where UIKit writes traitCollection[Trait.self])"),
            ("local x = Theme.defaultValue", "Trait has no field 'defaultValue' (UIKit's 'defaultValue' is 'default' in TraitKit)"),
            ("v:registerForTraitChanges(tk.TraitCollection.systemTraitsAffectingColorAppearance, 'setNeedsDisplay')",
             "TraitCollection has no field 'systemTraitsAffectingColorAppearance' (it is tk.systemTraitsAffectingColorAppearance)"),
            ("child:didMove(vc)", "ViewController has no member 'didMove' (UIKit's 'didMove' is 'didMoveToParent' in TraitKit)"),
            ("local c = tk.Color.black:resolvedColorWithTraitCollection(tc)",
             "Color has no field 'resolvedColorWithTraitCollection' (UIKit's 'resolvedColorWithTraitCollection' is 'resolvedColor' in TraitKit)"),
            ("v:registerForTraitChanges({ tk.traits.UITraitHorizontalSizeClass }, print)",
             "unknown system trait 'UITraitHorizontalSizeClass' (UIKit's 'UITraitHorizontalSizeClass' is 'horizontalSizeClass' in TraitKit)"),
            ("v:registerForTraitChanges({ 'UITraitUserInterfaceStyle' }, print)",
             "unknown trait 'UITraitUserInterfaceStyle' (UIKit's 'UITraitUserInterfaceStyle' is 'userInterfaceStyle' in TraitKit)"),
            // A near misspelling is still one.
            ("local x = tc:modifyng{}", "unknown trait or method 'modifyng' (did you mean 'modifying'?)"),
        ], prelude: """
            local tk = require "traitkit"
            local Theme = tk.defineTrait{ name = "FrictionPortTheme", default = "standard" }
            local tc = tk.TraitCollection{}
            local vc, child, v = tk.ViewController{}, tk.ViewController{}, tk.View{}
            vc:addChild(child)
            """, file: "port.lua")
    }
}
