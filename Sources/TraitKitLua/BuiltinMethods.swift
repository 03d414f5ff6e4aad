import CLua
import TraitKit

/// UIKit's super calls: `tk.View.layoutSubviews(self)`, `tk.ViewController.viewDidLoad(self)`,
/// `Card.traitCollectionDidChange(self, previous)` run the engine's own implementation of the
/// lifecycle method (R8) for that node, as `super.layoutSubviews()` does in a UIKit subclass.
///
/// They are found through the metatable of the root class tables (`tk.View`,
/// `tk.ViewController`), never stored in a class table: defining `function tk.View:draw()` still
/// goes through `__newindex`, so the engine learns that scripts implement `draw`, and the
/// engine's dispatch, which looks methods up raw along `__super`, never takes a built-in for a
/// scripted override (a node without one runs the Swift method directly, without Lua).
enum BuiltinMethods {
    static let view: [(String, SwiftLuaFunction)] = [
        ("layoutSubviews", { L in
            guarded(L) { L in try NodeArgs.view(L, 1, "layoutSubviews").layoutSubviews(); return 0 }
        }),
        ("draw", { L in
            guarded(L) { L in try NodeArgs.view(L, 1, "draw").draw(); return 0 }
        }),
        ("updateConstraints", { L in
            guarded(L) { L in try NodeArgs.view(L, 1, "updateConstraints").updateConstraints(); return 0 }
        }),
        ("tintColorDidChange", { L in
            guarded(L) { L in try NodeArgs.view(L, 1, "tintColorDidChange").tintColorDidChange(); return 0 }
        }),
        ("traitCollectionDidChange", traitCollectionDidChange),
    ]

    static let controller: [(String, SwiftLuaFunction)] = [
        ("loadView", { L in
            guarded(L) { L in
                let controller = try NodeArgs.controller(L, 1, "loadView")
                // UIKit calls loadView once, when the view is first needed; a second call
                // would silently replace the view and everything in it.
                guard !controller.isViewLoaded else {
                    throw LuaError("loadView: the view of \(controller.debugName) is loaded already "
                        + "(call it from loadView, as super.loadView(); loadViewIfNeeded() loads a view)")
                }
                controller.loadView()
                return 0
            }
        }),
        ("viewDidLoad", { L in lifecycle(L, "viewDidLoad") { $0.viewDidLoad() } }),
        ("viewWillAppear", { L in lifecycle(L, "viewWillAppear") { $0.viewWillAppear() } }),
        ("viewIsAppearing", { L in lifecycle(L, "viewIsAppearing") { $0.viewIsAppearing() } }),
        ("viewDidAppear", { L in lifecycle(L, "viewDidAppear") { $0.viewDidAppear() } }),
        ("viewWillDisappear", { L in lifecycle(L, "viewWillDisappear") { $0.viewWillDisappear() } }),
        ("viewDidDisappear", { L in lifecycle(L, "viewDidDisappear") { $0.viewDidDisappear() } }),
        ("viewWillLayoutSubviews", { L in lifecycle(L, "viewWillLayoutSubviews") { $0.viewWillLayoutSubviews() } }),
        ("viewDidLayoutSubviews", { L in lifecycle(L, "viewDidLayoutSubviews") { $0.viewDidLayoutSubviews() } }),
        ("willMoveToParent", { L in moveToParent(L, "willMoveToParent") { $0.willMove(toParent: $1) } }),
        ("didMoveToParent", { L in moveToParent(L, "didMoveToParent") { $0.didMove(toParent: $1) } }),
        ("traitCollectionDidChange", traitCollectionDidChange),
    ]

    /// `willMove(toParent:)` / `didMove(toParent:)`: a container calls the half UIKit does not
    /// (`child:didMoveToParent(self)` after `addChild`, `child:willMoveToParent(nil)` before
    /// `removeFromParent`).
    private static func moveToParent(_ L: LuaState?, _ name: String,
                                     _ method: (ViewController, ViewController?) -> Void) -> Int32 {
        guarded(L) { L in
            let controller = try NodeArgs.controller(L, 1, name)
            method(controller, try NodeArgs.optional(L, 2, ViewController.self, name, expected: "a ViewController"))
            return 0
        }
    }

    private static func lifecycle(_ L: LuaState?, _ name: String, _ method: (ViewController) -> Void) -> Int32 {
        guarded(L) { L in
            method(try NodeArgs.controller(L, 1, name))
            return 0
        }
    }

    private static let traitCollectionDidChange: SwiftLuaFunction = { L in
        guarded(L) { L in
            let node = try NodeArgs.node(L, 1, "traitCollectionDidChange")
            let previous = try NodeArgs.optional(L, 2, TraitCollection.self, "traitCollectionDidChange",
                                                 expected: "a trait collection")
            node.traitCollectionDidChange(previous)
            return 0
        }
    }

    /// Adds `methods` to the table at `table`: a root class's fallback, beside the engine
    /// methods its class table answers (`ClassModule.answerMethods`).
    static func install(_ L: LuaState, _ methods: [(String, SwiftLuaFunction)], into table: Int32) {
        for (name, function) in methods {
            push(L, function)
            rawSetField(L, table, name)
        }
    }

    /// With a root class table on top, replaces it by its built-in method `name` (true), or
    /// pops it (false). Raw reads only: a script may have changed the metatable.
    static func find(_ L: LuaState, _ name: String) -> Bool {
        let root = lua_gettop(L)
        if lua_getmetatable(L, root) != 0, rawGetField(L, -1, "__index") == LUA_TTABLE,
           rawGetField(L, -1, name) == LUA_TFUNCTION {
            tk_replace(L, root)
            lua_settop(L, root)
            return true
        }
        lua_settop(L, root - 1)
        return false
    }
}
