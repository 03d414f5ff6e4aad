import CLua
import TraitKit

/// The `traitkit` module (DESIGN.md §3): `require "traitkit"` returns it.
enum LuaModule {
    static func install(_ runtime: LuaRuntime) {
        let L = runtime.L
        runtime.register(NodeMembers.common, for: TraitEnvironment.self)
        runtime.register(ViewMembers.view, for: View.self)
        runtime.register(ViewMembers.window, for: Window.self)
        runtime.register(ViewMembers.scrollView, for: ScrollView.self)
        runtime.register(ViewMembers.label, for: Label.self)
        runtime.register(ViewMembers.button, for: Button.self)
        runtime.register(ViewMembers.textView, for: TextView.self)
        runtime.register(ViewMembers.stackView, for: StackView.self)
        runtime.register(ViewMembers.hostingView, for: HostingView.self)
        runtime.register(ControllerMembers.controller, for: ViewController.self)
        runtime.register(ControllerMembers.hosting, for: HostingController.self)
        runtime.register(ControllerMembers.presentation, for: PresentationController.self)
        runtime.register(SceneMembers.scene, for: WindowScene.self)
        runtime.register(SceneMembers.screen, for: Screen.self)
        runtime.register(RegistrationModule.members, for: TraitChangeRegistration.self)
        runtime.register(appMembers, for: Application.self)
        OverridesModule.install(runtime)

        tk_newtable(L)
        let module = lua_gettop(L)
        TraitModule.install(runtime, into: module)
        CollectionModule.install(runtime, into: module)
        ClassModule.install(runtime, into: module)
        ColorModule.install(runtime, into: module)
        DeclarativeModule.install(runtime, into: module)
        push(L, update); rawSetField(L, module, "update")
        push(L, async); rawSetField(L, module, "async")
        push(L, dump); rawSetField(L, module, "dump")
        push(L, tree); rawSetField(L, module, "tree")
        LuaObject.push(L, runtime.application, .application)
        rawSetField(L, module, "app")
        // package.loaded.traitkit = module, kept in the registry too: a script that clears
        // package.loaded.traitkit to require it again (a test runner isolating its files) gets
        // the same module, through package.preload in traitkit's own states and through
        // luaopen_traitkit as a C module (`openModule`). The tables of loaded and preloaded
        // modules are made if missing, as luaL_requiref does: a program may open the module in
        // a state without the package library.
        lua_pushvalue(L, module)
        rawSetField(L, tk_registryindex(), moduleKey)
        _ = luaL_getsubtable(L, tk_registryindex(), LUA_LOADED_TABLE)
        lua_pushvalue(L, module)
        rawSetField(L, -2, "traitkit")
        if runtime.ownsState {
            _ = luaL_getsubtable(L, tk_registryindex(), LUA_PRELOAD_TABLE)
            push(L, load)
            rawSetField(L, -2, "traitkit")
        }
        lua_settop(L, module - 1)
    }

    /// The registry's key for the module table.
    static let moduleKey = "traitkit.module"

    /// Pushes the module table the runtime made.
    static func pushModule(_ L: LuaState) {
        _ = rawGetField(L, tk_registryindex(), moduleKey)
    }

    /// `package.preload.traitkit`: the module again, for a `require` after a script cleared
    /// `package.loaded.traitkit`.
    static let load: SwiftLuaFunction = { L in
        guarded(L) { L in
            pushModule(L)
            return 1
        }
    }

    /// `tk.update()`: one run-loop turn (R6); rethrows the first callback error.
    static let update: SwiftLuaFunction = { L in
        guarded(L) { L in
            let runtime = LuaRuntime.of(L)
            try runtime.runningUpdate(L) { try runtime.update() }
            return 0
        }
    }

    /// `tk.async(fn, ...)`: runs `fn(...)` after the current (or next) update's passes.
    static let async: SwiftLuaFunction = { L in
        guarded(L) { L in
            try checkFunction(L, 1, "async")
            let runtime = LuaRuntime.of(L)
            // The function and its arguments, as pcall(f, ...) takes them: one table.
            let count = lua_gettop(L)
            lua_createtable(L, count, 0)
            for i in 1...count {
                lua_pushvalue(L, i)
                lua_rawseti(L, -2, lua_Integer(i))
            }
            let box = LuaValueBox.make(L, -1, .pinned)
            runtime.application.async { [link = runtime.link] in
                guard let runtime = link.runtime else { return }
                let L = runtime.L
                try ensureStack(L, Int(count) + 1, "too many arguments to tk.async")
                box.push(L)
                for i in 1...count { lua_rawgeti(L, -i, lua_Integer(i)) }
                tk_remove(L, -count - 1)
                try runtime.protectedCall(nargs: count - 1)
            }
            return 0
        }
    }

    /// `tk.dump(node)`: the hierarchy under node as JSON; with no argument, every screen's.
    static let dump: SwiftLuaFunction = { L in
        guarded(L) { L in
            if isNil(L, 1) {
                let screens = LuaRuntime.of(L).application.screens
                push(L, JSON.array(screens.map { $0.dumpJSON() }).serialized(indent: 2))
            } else {
                push(L, try NodeArgs.node(L, 1, "dump").dump())
            }
            return 1
        }
    }

    /// `tk.tree([node][, { resolved = true }])`: the hierarchy under node (default: every
    /// screen) as an indented text tree with overrides, and with `resolved` the values each
    /// node resolves that are not defaults.
    static let tree: SwiftLuaFunction = { L in
        guarded(L) { L in
            let options: Int32 = lua_type(L, 1) == LUA_TTABLE ? 1 : 2
            var resolved = false
            if !isNil(L, options) {
                try checkTable(L, options, "tree")
                try checkFieldNames(L, options, "tree", allowed: treeOptions)
                _ = rawGetField(L, options, "resolved")
                resolved = lua_toboolean(L, -1) != 0
                tk_pop(L, 1)
            }
            if options == 1 || isNil(L, 1) {
                let screens = LuaRuntime.of(L).application.screens
                push(L, screens.map { $0.treeDescription(resolved: resolved) }.joined(separator: "\n"))
            } else {
                push(L, try NodeArgs.node(L, 1, "tree").treeDescription(resolved: resolved))
            }
            return 1
        }
    }

    /// The keys of `tk.tree`'s options table.
    static let treeOptions = ["resolved"]

    /// `tk.app`: the application (the Info.plist style setting, its screens and windows).
    static let appMembers = Members(
        getters: [
            ("userInterfaceStyle", { L in
                guarded(L) { L in
                    let app = try LuaObject.check(L, 1, Application.self, "app")
                    TraitValues.push(L, app.userInterfaceStyle.traitValue, of: SystemTraits.userInterfaceStyle)
                    return 1
                }
            }),
            ("windows", { L in
                guarded(L) { L in NodeArgs.pushList(L, try LuaObject.check(L, 1, Application.self, "app").windows); return 1 }
            }),
            ("screens", { L in
                guarded(L) { L in NodeArgs.pushList(L, try LuaObject.check(L, 1, Application.self, "app").screens); return 1 }
            }),
        ],
        setters: [("userInterfaceStyle", { L in
            guarded(L) { L in
                try LuaObject.check(L, 1, Application.self, "app").userInterfaceStyle = try NodeArgs.style(L, 3)
                return 0
            }
        })])
}
