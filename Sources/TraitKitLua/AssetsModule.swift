import CLua
import TraitKit

/// Named colors and images (`tk.Color.named`, `tk.Image.named`): the runtime's `AssetCatalog`,
/// filled by the script as an app's asset catalog is filled at build time.
///
/// The catalog holds Swift objects; the Lua side of each (a dynamic color's provider, an
/// asset) stays alive in a table of the runtime's, under the kind and the name, so replacing
/// a registration lets the old one go.
enum AssetsModule {
    /// Adds `named` and `register` to the `tk.Color` table at `colorTable`, and makes `tk.Image`.
    static func install(_ runtime: LuaRuntime, colorTable: Int32, into module: Int32) {
        let L = runtime.L
        tk_newtable(L)
        runtime.assetAnchorsRef = luaL_ref(L, tk_registryindex())
        push(L, colorNamed); rawSetField(L, colorTable, "named")
        push(L, registerColor); rawSetField(L, colorTable, "register")
        tk_newtable(L)
        push(L, imageNamed); rawSetField(L, -2, "named")
        push(L, registerImage); rawSetField(L, -2, "register")
        rawSetField(L, module, "Image")
    }

    /// `tk.Color.named(name)`: the color registered under `name`, or nil (as `UIColor(named:)`).
    static let colorNamed: SwiftLuaFunction = { L in
        guarded(L) { L in
            let name = try checkString(L, 1, "Color.named")
            pushAnchor(L, "color", name)
            return 1
        }
    }

    /// `tk.Color.register(name, color)`.
    static let registerColor: SwiftLuaFunction = { L in
        guarded(L) { L in
            let name = try checkName(L, "Color.register")
            let color = try ColorModule.check(L, 2, "Color.register")
            LuaRuntime.of(L).assets.register(color, named: name)
            setAnchor(L, "color", name, value: 2)
            return 0
        }
    }

    /// `tk.Image.named(name[, tc])`: the image of the asset `name` for `tc` (default
    /// `TraitCollection.current`), as `UIImage(named:in:compatibleWith:)`; nil when no asset
    /// has that name or none of its variants matches.
    static let imageNamed: SwiftLuaFunction = { L in
        guarded(L) { L in
            let name = try checkString(L, 1, "Image.named")
            let tc = isNil(L, 2) ? TraitCollection.current : try CollectionModule.check(L, 2, "Image.named")
            if let image = LuaRuntime.of(L).assets.image(named: name, compatibleWith: tc) {
                push(L, image)
            } else {
                lua_pushnil(L)
            }
            return 1
        }
    }

    /// `tk.Image.register(name, asset)`: `asset` is a `tk.ImageAsset()` with its variants.
    static let registerImage: SwiftLuaFunction = { L in
        guarded(L) { L in
            let name = try checkName(L, "Image.register")
            let asset = try LuaObject.check(L, 2, ImageAsset.self, "Image.register", expected: "an ImageAsset")
            LuaRuntime.of(L).assets.register(asset, named: name)
            setAnchor(L, "image", name, value: 2)
            return 0
        }
    }

    private static func checkName(_ L: LuaState, _ function: String) throws -> String {
        let name = try checkString(L, 1, function)
        guard !name.isEmpty else { throw argumentError(L, 1, function, detail: "expected a name, got an empty string") }
        return name
    }

    private static func pushAnchor(_ L: LuaState, _ kind: String, _ name: String) {
        pushRef(L, LuaRuntime.of(L).assetAnchorsRef)
        push(L, kind + ":" + name)
        lua_rawget(L, -2)
        tk_replace(L, -2)
    }

    private static func setAnchor(_ L: LuaState, _ kind: String, _ name: String, value: Int32) {
        pushRef(L, LuaRuntime.of(L).assetAnchorsRef)
        push(L, kind + ":" + name)
        lua_pushvalue(L, value)
        lua_rawset(L, -3)
        tk_pop(L, 1)
    }
}
