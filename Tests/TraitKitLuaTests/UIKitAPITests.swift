import Testing
@testable import TraitKitLua

/// UIKit API the talk and the dark-mode notes use or name, as a script reaches it.
@Suite("UIKit API from Lua")
struct UIKitAPITests {
    /// Named colors and images come from a catalog the script fills, as an asset catalog:
    /// a name not registered is nil (`UIColor(named:)`), an image resolves for the collection
    /// given or `TraitCollection.current`, and registered values outlive the script's references.
    @Test func namedColorsAndImagesComeFromTheCatalog() {
        expectLua("""
            local tk = require "traitkit"
            local dark = tk.TraitCollection{ userInterfaceStyle = "dark" }
            tk.Color.register("Accent", tk.Color(function(tc)
              return tc.userInterfaceStyle == "dark" and tk.Color.systemOrange or tk.Color.systemIndigo
            end))
            local icon = tk.ImageAsset()
            icon:register("icon-dark", { userInterfaceStyle = "dark" })
            icon:register("icon", {})
            tk.Image.register("Icon", icon)
            icon = nil
            collectgarbage(); collectgarbage()
            assert(tostring(tk.Color.named("Accent"):resolvedColor(dark)) == "#FF9F0AFF")
            assert(tostring(tk.Color.named("Accent"):resolvedColor(tk.TraitCollection{})) == "#5856D6FF")
            assert(tk.Color.named("Missing") == nil and tk.Color.named("systemBlue") == nil)
            assert(tk.Image.named("Icon", dark) == "icon-dark" and tk.Image.named("Icon") == "icon")
            dark:performAsCurrent(function() assert(tk.Image.named("Icon") == "icon-dark") end)
            assert(tk.Image.named("Missing") == nil)
            tk.Color.register("Accent", tk.Color.red)
            assert(tk.Color.named("Accent") == tk.Color.red, "registering a name again replaces it")
            """)
        expectLuaErrors([
            ("tk.Color.register('', tk.Color.red)", "bad argument #1 to 'Color.register' (expected a name, got an empty string)"),
            ("tk.Color.register('x', 'red')", "bad argument #2 to 'Color.register' (expected a Color, got string)"),
            ("tk.Image.register('x', {})", "bad argument #2 to 'Image.register' (expected an ImageAsset, got table)"),
        ], prelude: "local tk = require 'traitkit'", file: "assets.lua")
    }

    /// UIKit's whole system palette, with its dark and increased-contrast values.
    @Test func theWholeSystemColorSetResolves() {
        expectLua("""
            local tk = require "traitkit"
            local dark = tk.TraitCollection{ userInterfaceStyle = "dark" }
            local high = tk.TraitCollection{ accessibilityContrast = "high" }
            local function hex(c, tc) return tostring(c:resolvedColor(tc)) end
            assert(hex(tk.Color.systemOrange, dark) == "#FF9F0AFF" and hex(tk.Color.systemIndigo, high) == "#3634A3FF")
            assert(hex(tk.Color.systemGray6, dark) == "#1C1C1EFF" and hex(tk.Color.quaternaryLabel) == "#3C3C432E")
            assert(hex(tk.Color.secondarySystemGroupedBackground, dark) == "#1C1C1EFF")
            assert(hex(tk.Color.systemFill, dark) == "#7878805C" and hex(tk.Color.opaqueSeparator) == "#C6C6C8FF")
            assert(tk.Color.tintColor == tk.Color.systemBlue and hex(tk.Color.darkText, dark) == "#000000FF")
            for _, name in ipairs{ "systemPink", "systemPurple", "systemTeal", "systemMint", "systemCyan", "systemBrown",
                                   "systemYellow", "systemGray2", "systemGray3", "systemGray4", "systemGray5",
                                   "tertiarySystemGroupedBackground", "placeholderText", "link", "lightText",
                                   "secondarySystemFill", "tertiarySystemFill", "quaternarySystemFill",
                                   "orange", "purple", "brown", "magenta", "cyan", "yellow", "gray", "darkGray", "lightGray" } do
              assert(tk.Color[name], name)
            end
            """)
    }

    /// `UITraitCollection(traitsFrom:)` and `containsTraits(in:)`: a trait is specified when it
    /// is not at its default; later collections win.
    @Test func collectionsCombineAndContain() {
        expectLua("""
            local tk = require "traitkit"
            local a = tk.TraitCollection{ userInterfaceStyle = "dark", displayScale = 2 }
            local b = tk.TraitCollection{ horizontalSizeClass = "compact", userInterfaceStyle = "light" }
            local c = tk.TraitCollection.traitsFrom{ a, b }
            assert(c.userInterfaceStyle == "light" and c.displayScale == 2 and c.horizontalSizeClass == "compact")
            assert(c:containsTraits(b) and not c:containsTraits(a) and c:containsTraits(nil))
            assert(c:containsTraits(tk.TraitCollection{ displayScale = 2 }))
            assert(tk.TraitCollection.traitsFrom{} == tk.TraitCollection{})
            """)
        expectLuaErrors([
            ("tk.TraitCollection.traitsFrom{ 1 }", "bad argument #1 to 'TraitCollection.traitsFrom' (item 1 is number, expected a TraitCollection)"),
            ("tk.TraitCollection.traitsFrom(5)", "bad argument #1 to 'TraitCollection.traitsFrom' (expected a list of TraitCollections, got number)"),
        ], prelude: "local tk = require 'traitkit'", file: "combine.lua")
    }

    /// A view shows its own tint, else its superview's, else systemBlue. Setting one calls
    /// `tintColorDidChange` at once on that view and the views below that inherit it (not on
    /// one with its own), with `TraitCollection.current` the view's collection.
    @Test func tintIsInheritedAndChangesAreAnnounced() {
        expectLua("""
            local tk = require "traitkit"
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{ userInterfaceStyle = "dark" } } }
            w.rootViewController = tk.ViewController{}
            local log = {}
            local Tinted = tk.View:subclass("TintedForTest")
            function Tinted:tintColorDidChange()
              log[#log + 1] = self.name .. "=" .. tostring(self.tintColor:resolvedColor())
            end
            local a, b, c = Tinted{ name = "a" }, Tinted{ name = "b" }, Tinted{ name = "c" }
            w.rootViewController.view:addSubview(a); a:addSubview(b); a:addSubview(c)
            tk.update()
            assert(a.tintColor == tk.Color.systemBlue)
            c.tintColor = tk.Color.red
            assert(table.concat(log, " ") == "c=#FF0000FF"); log = {}
            a.tintColor = tk.Color.systemOrange
            assert(table.concat(log, " ") == "a=#FF9F0AFF b=#FF9F0AFF", table.concat(log, " ")); log = {}
            a.tintColor = tk.Color.systemOrange
            assert(#log == 0, "the same tint again changes nothing")
            a.tintColor = nil
            assert(b.tintColor == tk.Color.systemBlue and c.tintColor == tk.Color.red)
            function Tinted:tintColorDidChange() error("tint failed") end
            local ok, err = pcall(function() a.tintColor = tk.Color.green end)
            assert(not ok and err:find("tint failed") and a.tintColor == tk.Color.green)
            """)
    }

    /// UIKit's containment calls: `addChild` calls `willMove(toParent:)`, `removeFromParent`
    /// calls `didMove(toParent: nil)`; the container calls the other half itself.
    @Test func containmentCallsTheMoveMethods() {
        expectLua("""
            local tk = require "traitkit"
            local Child = tk.ViewController:subclass("MovingChild")
            local log = {}
            function Child:willMoveToParent(p) log[#log + 1] = "will " .. tostring(p and p.name) end
            function Child:didMoveToParent(p) log[#log + 1] = "did " .. tostring(p and p.name) end
            local a, b = tk.ViewController{ name = "A" }, tk.ViewController{ name = "B" }
            local child = Child{}
            a:addChild(child); child:didMoveToParent(a)
            assert(table.concat(log, ", ") == "will A, did A"); log = {}
            b:addChild(child)
            assert(table.concat(log, ", ") == "will B, did nil", table.concat(log, ", ")); log = {}
            child:willMoveToParent(nil); child:removeFromParent()
            assert(table.concat(log, ", ") == "will nil, did nil" and child.parent == nil); log = {}
            local plain = tk.ViewController{}
            a:addChild(plain); plain:didMoveToParent(a); plain:willMoveToParent(nil)
            function Child:willMoveToParent() error("refused") end
            local ok, err = pcall(a.addChild, a, child)
            assert(not ok and err:find("refused") and child.parent == a, "the child is added all the same")
            """)
    }

    /// `updateConstraints` runs before layout, subviews before their superview, on the first
    /// update and after `setNeedsUpdateConstraints`; a trait it read asks for it again when it
    /// changes (iOS 18 automatic trait tracking).
    @Test func updateConstraintsRunsBottomUpAndTracksTraits() {
        expectLua("""
            local tk = require "traitkit"
            local screen = tk.Screen{}
            local w = tk.Window{ scene = tk.WindowScene{ screen = screen } }
            w.rootViewController = tk.ViewController{}
            local log = {}
            local K = tk.View:subclass("ConstrainedForTest")
            function K:updateConstraints()
              log[#log + 1] = self.name .. ":" .. self.traitCollection.horizontalSizeClass
              tk.View.updateConstraints(self)
            end
            function K:layoutSubviews() log[#log + 1] = "layout " .. self.name end
            local outer, inner = K{ name = "outer" }, K{ name = "inner" }
            w.rootViewController.view:addSubview(outer); outer:addSubview(inner)
            tk.update()
            assert(table.concat(log, " ") == "inner:unspecified outer:unspecified layout outer layout inner", table.concat(log, " "))
            log = {}
            tk.update()
            assert(#log == 0)
            screen:setSystemTraits{ horizontalSizeClass = "compact" }
            tk.update()
            assert(table.concat(log, " ") == "inner:compact outer:compact", table.concat(log, " "))
            log = {}
            outer:setNeedsUpdateConstraints()
            outer:updateConstraintsIfNeeded()
            assert(table.concat(log, " ") == "outer:compact")
            """)
    }

    /// Labels, buttons, stacks, table and text views are made as UIKit's are, and their
    /// content is assignable (as an introspected view's is); the classes whose objects the
    /// engine makes say what makes them when a script calls or subclasses them.
    @Test func scriptsMakeTheViewsElementsRenderInto() {
        expectLua("""
            local tk = require "traitkit"
            local label = tk.Label{ name = "title", text = "Hi", color = "secondaryLabel" }
            assert(label.text == "Hi" and label.color == "secondaryLabel" and label.name == "title")
            label.text, label.color = "Bye", nil
            assert(label.text == "Bye" and label.color == nil)
            local stack = tk.StackView{ axis = "vertical" }
            assert(stack.axis == "vertical" and tk.StackView{}.axis == "horizontal")
            stack:addSubview(label); stack:addSubview(tk.Button{ title = "OK" })
            assert(stack:findChild(tk.Button).title == "OK" and label.superview == stack)
            assert(tk.TextView{ text = "notes" }.text == "notes" and tk.TableView{}:isKindOf(tk.ScrollView))
            label.text = 42  -- a number reads as Lua prints it, as in a Text element
            assert(label.text == "42" and tk.Button{ title = 1.5 }.title == "1.5")
            local Badge = tk.Label:subclass("Badge")
            local badge = Badge{ text = "3" }
            assert(badge.className == "Badge" and badge:isKindOf(tk.Label) and badge.text == "3")
            """)
        expectLuaErrors([
            ("tk.StackView{ axis = 'diagonal' }",
             "bad field 'axis' in StackView{...} (expected \"vertical\" or \"horizontal\", got \"diagonal\")"),
            ("tk.Label{}.text = {}", "bad value for 'text' (expected a string, got table)"),
            ("tk.HostingView{}", "HostingView cannot be made from a script: a HostingController makes it to render its root element"),
            ("tk.IntrospectionMarker:subclass('Mine')",
             "subclass: IntrospectionMarker cannot be subclassed, as scripts do not make it: introspect puts it next"),
            ("tk.PresentationController{}", "PresentationController cannot be made from a script: present makes it"),
        ], prelude: "local tk = require 'traitkit'", file: "views.lua")
    }
}
