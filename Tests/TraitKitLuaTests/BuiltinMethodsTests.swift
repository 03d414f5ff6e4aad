import Testing
@testable import TraitKitLua

/// `tk.View.layoutSubviews(self)` and the other super calls of UIKit subclasses.
@Suite("Built-in methods (super calls)")
struct BuiltinMethodsTests {
    private let stage = """
        local tk = require "traitkit"
        local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
        local log = {}
        """

    @Test func superCallsRunTheEngineImplementation() {
        expectLua(stage + """

            local VC = tk.ViewController:subclass("VC")
            function VC:loadView() tk.ViewController.loadView(self); log[#log + 1] = "loadView" end
            function VC:viewDidLoad() tk.ViewController.viewDidLoad(self); log[#log + 1] = "viewDidLoad" end
            function VC:viewIsAppearing() tk.ViewController.viewIsAppearing(self); log[#log + 1] = "viewIsAppearing" end
            local Card = tk.View:subclass("Card")
            function Card:layoutSubviews() tk.View.layoutSubviews(self); log[#log + 1] = "layoutSubviews" end
            local Fancy = Card:subclass("Fancy")
            function Fancy:draw() Card.draw(self); log[#log + 1] = "draw" end
            local root = VC{}
            window.rootViewController = root
            local fancy = Fancy{}
            root.view:addSubview(fancy)
            fancy:setNeedsDisplay()
            tk.update()
            assert(root.view.className == "View", "the super loadView made a plain View: " .. root.view.className)
            assert(table.concat(log, ",") == "loadView,viewDidLoad,viewIsAppearing,layoutSubviews,draw", table.concat(log, ","))
            """)
    }

    /// A hosting view starts introspection in its own `layoutSubviews`: an override on the
    /// instance that calls the built-in one keeps it, one that does not loses it (as in UIKit).
    @Test func anInstanceOverrideCanKeepTheBuiltInBehaviour() {
        expectLua(stage + """

            local E = tk.elements
            for _, super in ipairs{ true, false } do
              local found
              local host = tk.HostingController{ root = E.VStack{
                E.ScrollView{ E.Text{ text = "x" } }:introspect("ScrollView", function(sv) found = sv end) } }
              function host.view:layoutSubviews() if super then tk.View.layoutSubviews(self) end end
              window.rootViewController = host
              tk.update()
              assert((found ~= nil) == super, "with super " .. tostring(super) .. ": " .. tostring(found))
            end
            """)
    }

    /// The built-ins are not class methods of their own: defining one on a built-in class
    /// still reaches every node of it, and instances find the built-in when nothing overrides it.
    @Test func builtInsNeitherHideNorReplaceScriptedMethods() {
        expectLua(stage + """

            local root = tk.ViewController{}
            window.rootViewController = root
            local v = tk.View{}
            root.view:addSubview(v)
            assert(v.draw == tk.View.draw and tk.Window.draw == tk.View.draw, "instances and subclasses find the built-in")
            assert(tk.View.viewDidLoad == nil and tk.ViewController.layoutSubviews == nil, "each class has its own")
            tk.update()
            local drawn = 0
            function tk.View:draw() drawn = drawn + 1 end
            v:setNeedsDisplay()
            tk.update()
            assert(drawn == 1, "a draw defined on tk.View runs: " .. drawn)
            """)
    }

    @Test func wrongCallsAreErrorsAtTheCallersLine() {
        expectLuaErrors([
            ("tk.View.layoutSubviews(root)", "bad argument #1 to 'layoutSubviews' (expected a View, got ViewController)"),
            ("tk.ViewController.viewDidLoad(5)", "bad argument #1 to 'viewDidLoad' (expected a ViewController, got number)"),
            ("tk.View.traitCollectionDidChange(root.view, 5)",
             "bad argument #2 to 'traitCollectionDidChange' (expected a trait collection, got number)"),
            ("tk.ViewController.loadView(root)", "loadView: the view of ViewController 'root' is loaded already"),
        ], prelude: stage + "\nlocal root = tk.ViewController{ name = \"root\" }; window.rootViewController = root",
           file: "super.lua")
    }
}
