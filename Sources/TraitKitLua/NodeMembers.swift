import CLua
import TraitKit

/// What every node offers: name, class, traits, overrides, registration, updates (R4-R7, R11).
enum NodeMembers {
    static let common = Members(
        methods: [
            ("registerForTraitChanges", RegistrationModule.register),
            ("unregisterForTraitChanges", RegistrationModule.unregister),
            ("updateTraitsIfNeeded", { L in
                guarded(L) { L in
                    let node = try NodeArgs.node(L, 1, "updateTraitsIfNeeded")
                    try LuaRuntime.of(L).runningUpdate(L) { try node.updateTraitsIfNeeded() }
                    return 0
                }
            }),
            ("explain", { L in
                guarded(L) { L in
                    let node = try NodeArgs.node(L, 1, "explain")
                    push(L, node.explain(try TraitValues.checkTrait(L, 2, "explain")))
                    return 1
                }
            }),
            ("isKindOf", { L in
                guarded(L) { L in
                    _ = try NodeArgs.node(L, 1, "isKindOf")
                    lua_pushboolean(L, try ClassModule.isKind(L, 1, of: 2, "isKindOf") ? 1 : 0)
                    return 1
                }
            }),
            ("ancestor", { L in
                guarded(L) { L in
                    var node = try NodeArgs.node(L, 1, "ancestor").traitParentNode
                    while let current = node {
                        NodeArgs.push(L, current)
                        if try ClassModule.isKind(L, -1, of: 2, "ancestor") { return 1 }
                        tk_pop(L, 1)
                        node = current.traitParentNode
                    }
                    lua_pushnil(L)
                    return 1
                }
            }),
            ("setNeedsLayout", { L in guarded(L) { L in try NodeArgs.node(L, 1, "setNeedsLayout").setNeedsLayout(); return 0 } }),
            ("setNeedsDisplay", { L in guarded(L) { L in try NodeArgs.node(L, 1, "setNeedsDisplay").setNeedsDisplay(); return 0 } }),
        ],
        getters: [
            ("name", { L in
                guarded(L) { L in
                    if let name = try NodeArgs.node(L, 1, "name").name { push(L, name) } else { lua_pushnil(L) }
                    return 1
                }
            }),
            ("className", { L in guarded(L) { L in push(L, try NodeArgs.node(L, 1, "className").className); return 1 } }),
            ("traitCollection", { L in
                guarded(L) { L in
                    let tc = try NodeArgs.node(L, 1, "traitCollection").traitCollection
                    LuaObject.push(L, tc, .collection)
                    if let box = LuaObject.box(L, 1) {
                        tk_node_keep_collection(L, box, Unmanaged.passUnretained(tc).toOpaque())
                    }
                    return 1
                }
            }),
            ("traitOverrides", { L in
                guarded(L) { L in
                    try OverridesModule.push(L, node: 1, try NodeArgs.node(L, 1, "traitOverrides"))
                    return 1
                }
            }),
        ],
        setters: [
            ("name", { L in
                guarded(L) { L in
                    try NodeArgs.node(L, 1, "name").name = try optString(L, 3, "name")
                    return 0
                }
            }),
        ])

    /// `overrideUserInterfaceStyle` for views and view controllers (the same storage as the override).
    static let overrideStyle = Members(
        getters: [("overrideUserInterfaceStyle", { L in
            guarded(L) { L in
                let node = try NodeArgs.node(L, 1, "overrideUserInterfaceStyle")
                let style = (try? node.traitOverridesIfAny?.value(for: SystemTraits.userInterfaceStyle)) ?? .enumCase(0)
                TraitValues.push(L, style, of: SystemTraits.userInterfaceStyle)
                return 1
            }
        })],
        setters: [("overrideUserInterfaceStyle", { L in
            guarded(L) { L in
                let node = try NodeArgs.node(L, 1, "overrideUserInterfaceStyle")
                let style = try NodeArgs.style(L, 3)
                if let view = node as? View { view.overrideUserInterfaceStyle = style }
                if let controller = node as? ViewController { controller.overrideUserInterfaceStyle = style }
                return 0
            }
        })])
}
