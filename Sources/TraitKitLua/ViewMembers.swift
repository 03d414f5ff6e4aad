import CLua
import TraitKit

/// Views and windows (R4, R8, R9, R10 queries).
enum ViewMembers {
    static let view = NodeMembers.common + NodeMembers.overrideStyle + Members(
        methods: [
            ("addSubview", { L in
                guarded(L) { L in
                    try NodeArgs.view(L, 1, "addSubview").addSubview(try NodeArgs.view(L, 2, "addSubview"))
                    return 0
                }
            }),
            ("insertSubview", { L in
                guarded(L) { L in
                    let view = try NodeArgs.view(L, 1, "insertSubview")
                    let subview = try NodeArgs.view(L, 2, "insertSubview")
                    // Positions count from 1, as table.insert's do, up to one past the end.
                    let last = view.subviewCount + (subview.superview === view ? 0 : 1)
                    let position = try checkInteger(L, 3, "insertSubview")
                    guard (1...last).contains(position) else {
                        throw argumentError(L, 3, "insertSubview", detail: "position \(position) out of bounds, expected 1 to \(last)")
                    }
                    try view.insertSubview(subview, at: position - 1)
                    return 0
                }
            }),
            ("removeFromSuperview", { L in
                guarded(L) { L in try NodeArgs.view(L, 1, "removeFromSuperview").removeFromSuperview(); return 0 }
            }),
            ("layoutIfNeeded", { L in
                guarded(L) { L in
                    let view = try NodeArgs.view(L, 1, "layoutIfNeeded")
                    try LuaRuntime.of(L).runningUpdate(L) { try view.layoutIfNeeded() }
                    return 0
                }
            }),
            ("setNeedsUpdateConstraints", { L in
                guarded(L) { L in try NodeArgs.view(L, 1, "setNeedsUpdateConstraints").setNeedsUpdateConstraints(); return 0 }
            }),
            ("updateConstraintsIfNeeded", { L in
                guarded(L) { L in
                    let view = try NodeArgs.view(L, 1, "updateConstraintsIfNeeded")
                    try LuaRuntime.of(L).runningUpdate(L) { try view.updateConstraintsIfNeeded() }
                    return 0
                }
            }),
            ("findChild", { L in
                guarded(L) { L in
                    if try !findChild(L, in: try NodeArgs.view(L, 1, "findChild")) { lua_pushnil(L) }
                    return 1
                }
            }),
            ("previousSibling", { L in
                guarded(L) { L in
                    let view = try NodeArgs.view(L, 1, "previousSibling")
                    if try view.superview?.firstSubview(before: view, { try firstView(L, $0) ? true : nil }) == nil {
                        lua_pushnil(L)
                    }
                    return 1
                }
            }),
        ],
        getters: [
            ("superview", { L in guarded(L) { L in NodeArgs.push(L, try NodeArgs.view(L, 1, "superview").superview); return 1 } }),
            ("subviews", { L in guarded(L) { L in NodeArgs.pushList(L, try NodeArgs.view(L, 1, "subviews").subviews); return 1 } }),
            ("window", { L in guarded(L) { L in NodeArgs.push(L, try NodeArgs.view(L, 1, "window").window); return 1 } }),
            ("viewController", { L in
                guarded(L) { L in NodeArgs.push(L, try NodeArgs.view(L, 1, "viewController").viewController); return 1 }
            }),
            ("backgroundColor", { L in
                guarded(L) { L in LuaObject.push(L, try NodeArgs.view(L, 1, "backgroundColor").backgroundColor, .color); return 1 }
            }),
            ("tintColor", { L in
                guarded(L) { L in LuaObject.push(L, try NodeArgs.view(L, 1, "tintColor").tintColor, .color); return 1 }
            }),
        ],
        setters: [
            ("backgroundColor", { L in
                guarded(L) { L in
                    try NodeArgs.view(L, 1, "backgroundColor").backgroundColor = try ColorModule.optional(L, 3, "backgroundColor")
                    LuaObject.keep(L, value: 3, in: 1, key: UVKey.backgroundColor)
                    return 0
                }
            }),
            ("tintColor", { L in
                guardedPassingErrors(L) { L in
                    let view = try NodeArgs.view(L, 1, "tintColor")
                    let color = try ColorModule.optional(L, 3, "tintColor")
                    // Kept first: the tintColorDidChange calls below may read it.
                    LuaObject.keep(L, value: 3, in: 1, key: UVKey.tintColor)
                    try view.setTintColor(color)
                    return 0
                }
            }),
            ("contentConfiguration", { L in
                guarded(L) { L in
                    let cell = try NodeArgs.view(L, 1, "contentConfiguration")
                    let configuration = try LuaObject.check(L, 3, HostingConfiguration.self, "contentConfiguration",
                                                            expected: "a HostingConfiguration")
                    try configuration.apply(to: cell)
                    LuaObject.keep(L, value: 3, in: 1, key: UVKey.configuration)
                    return 0
                }
            }),
        ])

    static let window = view + Members(
        getters: [
            ("rootViewController", { L in
                guarded(L) { L in NodeArgs.push(L, try window(L, "rootViewController").rootViewController); return 1 }
            }),
            ("scene", { L in guarded(L) { L in NodeArgs.push(L, try window(L, "scene").windowScene); return 1 } }),
            ("windowScene", { L in guarded(L) { L in NodeArgs.push(L, try window(L, "windowScene").windowScene); return 1 } }),
        ],
        setters: [
            ("rootViewController", { L in
                guarded(L) { L in
                    let window = try window(L, "rootViewController")
                    let root = try NodeArgs.optional(L, 3, ViewController.self, "rootViewController",
                                                     expected: "a ViewController")
                    // The engine loads the view as UIKit does; loading it here first lets a
                    // raising loadView or viewDidLoad reach this line instead of vanishing.
                    try root?.loadViewIfNeeded()
                    window.rootViewController = root
                    return 0
                }
            }),
            ("scene", { L in
                guarded(L) { L in
                    let window = try window(L, "scene")
                    window.setScene(try NodeArgs.optional(L, 3, WindowScene.self, "scene", expected: "a WindowScene"))
                    return 0
                }
            }),
        ])

    static let scrollView = view + Members(
        getters: [("bounces", { L in
            guarded(L) { L in lua_pushboolean(L, try check(L, ScrollView.self, "bounces").bounces ? 1 : 0); return 1 }
        })],
        setters: [("bounces", { L in
            guarded(L) { L in
                guard lua_type(L, 3) == LUA_TBOOLEAN else { throw argumentError(L, 3, "bounces", expected: "a boolean") }
                try check(L, ScrollView.self, "bounces").bounces = lua_toboolean(L, 3) != 0
                return 0
            }
        })])

    static let textView = scrollView + Members(
        getters: [("text", { L in guarded(L) { L in push(L, try check(L, TextView.self, "text").text); return 1 } })],
        setters: [("text", { L in
            guarded(L) { L in try check(L, TextView.self, "text").text = try checkDisplayText(L, 3, "text"); return 0 }
        })])

    static let label = view + Members(
        getters: [
            ("text", { L in guarded(L) { L in push(L, try check(L, Label.self, "text").text); return 1 } }),
            ("color", { L in
                guarded(L) { L in
                    if let color = try check(L, Label.self, "color").color { push(L, color) } else { lua_pushnil(L) }
                    return 1
                }
            }),
        ],
        setters: [
            ("text", { L in guarded(L) { L in try check(L, Label.self, "text").text = try checkDisplayText(L, 3, "text"); return 0 } }),
            ("color", { L in
                guarded(L) { L in
                    let label = try check(L, Label.self, "color")
                    label.color = try optString(L, 3, "color")
                    return 0
                }
            }),
        ])

    static let button = view + Members(
        getters: [("title", { L in guarded(L) { L in push(L, try check(L, Button.self, "title").title); return 1 } })],
        setters: [("title", { L in
            guarded(L) { L in try check(L, Button.self, "title").title = try checkDisplayText(L, 3, "title"); return 0 }
        })])

    static let stackView = view + Members(
        getters: [("axis", { L in guarded(L) { L in push(L, try check(L, StackView.self, "axis").axis); return 1 } })],
        setters: [("axis", { L in
            guarded(L) { L in
                let stack = try check(L, StackView.self, "axis")
                guard let axis = string(L, 3), axis == "vertical" || axis == "horizontal" else {
                    throw argumentError(L, 3, "axis", detail: "expected \"vertical\" or \"horizontal\", got "
                        + TraitValues.describeValue(L, 3))
                }
                stack.axis = axis
                return 0
            }
        })])

    static let hostingView = view + Members(getters: [
        ("bodyEvaluations", { L in
            guarded(L) { L in lua_pushinteger(L, lua_Integer(try check(L, HostingView.self, "bodyEvaluations").bodyEvaluations)); return 1 }
        }),
    ])

    private static func check<T: View>(_ L: LuaState, _ type: T.Type, _ function: String) throws -> T {
        try LuaObject.check(L, 1, type, function, expected: "a \(type)")
    }

    private static func window(_ L: LuaState, _ function: String) throws -> Window {
        try LuaObject.check(L, 1, Window.self, function, expected: "a Window")
    }

    /// Depth-first search of the subtree of `view` (not `view` itself) for the first view of
    /// the class at 2; pushes it and returns true when found.
    static func findChild(_ L: LuaState, in view: View) throws -> Bool {
        try view.firstSubview { try firstView(L, $0) ? true : nil } ?? false
    }

    /// Pushes `view` or the first view of its subtree (depth first) that is of the class at 2
    /// and returns true; pushes nothing and returns false when there is none.
    private static func firstView(_ L: LuaState, _ view: View) throws -> Bool {
        NodeArgs.push(L, view)
        if try ClassModule.isKind(L, -1, of: 2, "findChild") { return true }
        tk_pop(L, 1)
        return try findChild(L, in: view)
    }
}

/// View controllers and presentation controllers (R4, R8).
enum ControllerMembers {
    static let controller = NodeMembers.common + NodeMembers.overrideStyle + Members(
        methods: [
            ("addChild", { L in
                guarded(L) { L in
                    try NodeArgs.controller(L, 1, "addChild").addChild(try NodeArgs.controller(L, 2, "addChild"))
                    return 0
                }
            }),
            ("removeFromParent", { L in
                guarded(L) { L in try NodeArgs.controller(L, 1, "removeFromParent").removeFromParent(); return 0 }
            }),
            ("present", { L in
                guarded(L) { L in
                    let presenting = try NodeArgs.controller(L, 1, "present")
                    let presented = try NodeArgs.controller(L, 2, "present")
                    try presented.loadViewIfNeeded()  // as for rootViewController
                    try presenting.present(presented)
                    return 0
                }
            }),
            ("dismiss", { L in guarded(L) { L in try NodeArgs.controller(L, 1, "dismiss").dismiss(); return 0 } }),
            ("loadViewIfNeeded", { L in
                guarded(L) { L in try NodeArgs.controller(L, 1, "loadViewIfNeeded").loadViewIfNeeded(); return 0 }
            }),
        ],
        getters: [
            ("view", { L in
                guarded(L) { L in
                    let controller = try NodeArgs.controller(L, 1, "view")
                    try controller.loadViewIfNeeded()
                    NodeArgs.push(L, controller.view)
                    return 1
                }
            }),
            ("isViewLoaded", { L in
                guarded(L) { L in lua_pushboolean(L, try NodeArgs.controller(L, 1, "isViewLoaded").isViewLoaded ? 1 : 0); return 1 }
            }),
            ("parent", { L in guarded(L) { L in NodeArgs.push(L, try NodeArgs.controller(L, 1, "parent").parent); return 1 } }),
            ("children", { L in
                guarded(L) { L in NodeArgs.pushList(L, try NodeArgs.controller(L, 1, "children").children); return 1 }
            }),
            ("window", { L in guarded(L) { L in NodeArgs.push(L, try NodeArgs.controller(L, 1, "window").window); return 1 } }),
            ("presentedViewController", { L in
                guarded(L) { L in NodeArgs.push(L, try NodeArgs.controller(L, 1, "presentedViewController").presentedViewController); return 1 }
            }),
            ("presentingViewController", { L in
                guarded(L) { L in NodeArgs.push(L, try NodeArgs.controller(L, 1, "presentingViewController").presentingViewController); return 1 }
            }),
            ("presentationController", { L in
                guarded(L) { L in NodeArgs.push(L, try NodeArgs.controller(L, 1, "presentationController").presentationController); return 1 }
            }),
            ("isModalInPresentation", { L in
                guarded(L) { L in
                    lua_pushboolean(L, try NodeArgs.controller(L, 1, "isModalInPresentation").isModalInPresentation ? 1 : 0)
                    return 1
                }
            }),
        ],
        setters: [
            ("isModalInPresentation", { L in
                guarded(L) { L in
                    try NodeArgs.controller(L, 1, "isModalInPresentation").isModalInPresentation = lua_toboolean(L, 3) != 0
                    return 0
                }
            }),
            ("view", { L in
                guarded(L) { L in
                    try NodeArgs.controller(L, 1, "view").setView(try NodeArgs.view(L, 3, "view"))
                    return 0
                }
            }),
        ])

    /// `host.root`: the element tree, read back as the same Lua value; assigning re-renders.
    static let hosting = controller + Members(
        getters: [("root", { L in
            guarded(L) { L in
                let host = try hosting(L)
                LuaObject.pushUserValue(L, 1)
                if lua_rawgetp(L, -1, UVKey.children) == LUA_TUSERDATA { return 1 }
                LuaObject.push(L, host.root, .element)
                return 1
            }
        })],
        setters: [("root", { L in
            guarded(L) { L in
                let host = try hosting(L)
                let element = try LuaObject.check(L, 3, Element.self, "root", expected: "an element")
                // The controller holds its root element (and so the element's Lua functions).
                LuaObject.keep(L, value: 3, in: 1, key: UVKey.children)
                try host.setRoot(element)
                return 0
            }
        })])

    static let presentation = NodeMembers.common + Members(getters: [
        ("presentedViewController", { L in
            guarded(L) { L in NodeArgs.push(L, try presentation(L).presentedViewController); return 1 }
        }),
        ("presentingViewController", { L in
            guarded(L) { L in NodeArgs.push(L, try presentation(L).presentingViewController); return 1 }
        }),
    ])

    private static func hosting(_ L: LuaState) throws -> HostingController {
        try LuaObject.check(L, 1, HostingController.self, "root", expected: "a HostingController")
    }

    private static func presentation(_ L: LuaState) throws -> PresentationController {
        try LuaObject.check(L, 1, PresentationController.self, "presentationController", expected: "a PresentationController")
    }
}

/// Screens and scenes (R4).
enum SceneMembers {
    static let scene = NodeMembers.common + Members(getters: [
        ("screen", { L in guarded(L) { L in NodeArgs.push(L, try scene(L).screen); return 1 } }),
        ("windows", { L in guarded(L) { L in NodeArgs.pushList(L, try scene(L).windows); return 1 } }),
    ])

    static let screen = NodeMembers.common + Members(
        methods: [("setSystemTraits", { L in
            guardedPassingErrors(L) { L in
                let screen = try screen(L, "setSystemTraits")
                let traits = try CollectionModule.build(L, 2, from: screen.systemTraits, "setSystemTraits")
                screen.setSystemTraits { $0 = MutableTraits(traits) }
                return 0
            }
        })],
        getters: [
            ("scenes", { L in guarded(L) { L in NodeArgs.pushList(L, try screen(L).scenes); return 1 } }),
            ("systemTraits", { L in guarded(L) { L in LuaObject.push(L, try screen(L).systemTraits, .collection); return 1 } }),
        ])

    private static func scene(_ L: LuaState) throws -> WindowScene {
        try LuaObject.check(L, 1, WindowScene.self, "scene", expected: "a WindowScene")
    }

    private static func screen(_ L: LuaState, _ function: String = "screen") throws -> Screen {
        try LuaObject.check(L, 1, Screen.self, function, expected: "a Screen")
    }
}
