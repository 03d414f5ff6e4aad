import CLua
import TraitKit

/// `tk.Color` and `tk.ImageAsset` (R9).
enum ColorModule {
    static let members = Members(
        methods: [
            ("resolvedColor", { L in
                guardedPassingErrors(L) { L in
                    let color = try check(L, 1, "resolvedColor")
                    let tc = isNil(L, 2) ? TraitCollection.current : try CollectionModule.check(L, 2, "resolvedColor")
                    LuaObject.push(L, try color.resolvedColor(with: tc), .color)
                    return 1
                }
            }),
            ("withAlphaComponent", { L in
                guarded(L) { L in
                    let color = try check(L, 1, "withAlphaComponent")
                    let made = color.withAlphaComponent(try checkNumber(L, 2, "withAlphaComponent"))
                    LuaObject.push(L, made, .color)
                    // The new color resolves through this one, whose provider lives in its userdata.
                    if color.isDynamic { LuaObject.keep(L, value: 1, in: -1, key: UVKey.value) }
                    return 1
                }
            }),
        ],
        getters: [
            ("red", { L in component(L) { $0.red } }),
            ("green", { L in component(L) { $0.green } }),
            ("blue", { L in component(L) { $0.blue } }),
            ("alpha", { L in component(L) { $0.alpha } }),
            // UIColor's `cgColor`: the color as it looks now, resolved with
            // `TraitCollection.current` (inside `performAsCurrent`, a callback, `layoutSubviews`).
            ("cgColor", { L in
                guardedPassingErrors(L) { L in
                    LuaObject.push(L, try check(L, 1, "cgColor").resolvedColor(), .color)
                    return 1
                }
            }),
            ("isDynamic", { L in guarded(L) { L in lua_pushboolean(L, try check(L, 1, "isDynamic").isDynamic ? 1 : 0); return 1 } }),
        ])

    /// A component of the color as it looks now (a dynamic one resolved with
    /// `TraitCollection.current`); a provider's error comes out of the read, as from `resolvedColor`.
    private static func component(_ L: LuaState?, _ pick: @escaping ((red: Double, green: Double, blue: Double, alpha: Double)) -> Double) -> Int32 {
        guardedPassingErrors(L) { L in
            lua_pushnumber(L, pick(try check(L, 1, "color").resolvedColor().components))
            return 1
        }
    }

    static func check(_ L: LuaState, _ i: Int32, _ function: String) throws -> Color {
        try LuaObject.check(L, i, Color.self, function, expected: "a Color")
    }

    static func optional(_ L: LuaState, _ i: Int32, _ function: String) throws -> Color? {
        if isNil(L, i) { return nil }
        return try check(L, i, function)
    }

    static let assetMembers = Members(methods: [
        ("register", { L in
            guardedPassingErrors(L) { L in
                let asset = try LuaObject.check(L, 1, ImageAsset.self, "register", expected: "an ImageAsset")
                let name = try checkString(L, 2, "register")
                // image(tc) answers a name, or nil for none: "" would be a name no image has.
                guard !name.isEmpty else { throw LuaError("register: an image needs a name (got an empty string)") }
                let traits = try (LuaObject.peek(L, 3) as? TraitCollection)
                    ?? CollectionModule.build(L, 3, from: TraitCollection(), "register")
                asset.register(name, for: traits)
                return 0
            }
        }),
        ("image", { L in
            guarded(L) { L in
                let asset = try LuaObject.check(L, 1, ImageAsset.self, "image", expected: "an ImageAsset")
                let tc = isNil(L, 2) ? TraitCollection.current : try CollectionModule.check(L, 2, "image")
                if let name = asset.image(for: tc) { push(L, name) } else { lua_pushnil(L) }
                return 1
            }
        }),
    ])

    static func install(_ runtime: LuaRuntime, into module: Int32) {
        let L = runtime.L
        runtime.register(members, for: Color.self)
        runtime.register(assetMembers, for: ImageAsset.self)
        tk_newtable(L)
        for (name, color) in Color.systemColors {
            LuaObject.push(L, color, .color)
            rawSetField(L, -2, name)
        }
        push(L, hex); rawSetField(L, -2, "hex")
        push(L, rgba); rawSetField(L, -2, "rgba")
        AssetsModule.install(runtime, colorTable: lua_gettop(L), into: module)
        tk_newtable(L)
        push(L, makeDynamic); rawSetField(L, -2, "__call")
        lua_setmetatable(L, -2)
        rawSetField(L, module, "Color")
        push(L, makeAsset); rawSetField(L, module, "ImageAsset")
    }

    static let hex: SwiftLuaFunction = { L in
        guarded(L) { L in
            let text = try checkString(L, 1, "Color.hex")
            guard let color = Color(hex: text) else {
                throw LuaError("invalid color \"\(text)\" (expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA)")
            }
            LuaObject.push(L, color, .color)
            return 1
        }
    }

    static let rgba: SwiftLuaFunction = { L in
        guarded(L) { L in
            let alpha = isNil(L, 4) ? 1 : try checkNumber(L, 4, "Color.rgba")
            let color = Color(red: try checkNumber(L, 1, "Color.rgba"), green: try checkNumber(L, 2, "Color.rgba"),
                              blue: try checkNumber(L, 3, "Color.rgba"), alpha: alpha)
            LuaObject.push(L, color, .color)
            return 1
        }
    }

    /// `tk.Color(function(tc) ... end)`: the provider is kept in the color's user value.
    static let makeDynamic: SwiftLuaFunction = { L in
        guarded(L) { L in
            guard lua_type(L, 2) == LUA_TFUNCTION else { throw constructorArgumentError(L, "Color", expected: staticHint) }
            let runtime = LuaRuntime.of(L)
            let slot = ProviderSlot()
            let color = Color { [link = runtime.link] tc in
                guard let runtime = link.runtime else { return .clear }
                return try runtime.callProvider(slot, tc)
            }
            LuaObject.push(L, color, .color)
            LuaObject.keep(L, value: 2, in: -1, key: UVKey.value)
            slot.color = color
            return 1
        }
    }

    /// `tk.Color{...}` and `tk.Color(1, 0, 0)` are natural guesses for a static color.
    private static let staticHint = "a provider function; a static color is tk.Color.rgba(r, g, b[, a]) or tk.Color.hex(\"#RRGGBB\")"

    /// Lets a provider find its own color's userdata (and so the Lua function in it).
    final class ProviderSlot: @unchecked Sendable {
        weak var color: Color?
    }

    static let makeAsset: SwiftLuaFunction = { L in
        guarded(L) { L in
            LuaObject.push(L, ImageAsset(), .imageAsset)
            return 1
        }
    }
}

extension LuaRuntime {
    func callProvider(_ slot: ColorModule.ProviderSlot, _ tc: TraitCollection) throws -> Color {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard let color = slot.color, LuaObject.pushExisting(L, color),
              tk_getuservalue(L, -1) == LUA_TTABLE, lua_rawgetp(L, -1, UVKey.value) == LUA_TFUNCTION else {
            return .clear
        }
        let position = definedAt(L, -1)
        LuaObject.push(L, tc, .collection)
        try protectedCall(nargs: 1, nresults: 1)
        guard let result = LuaObject.peek(L, -1) as? Color else {
            throw LuaError("a dynamic color's provider must return a Color (got \(typeName(L, -1)))", at: position)
        }
        return result
    }
}
