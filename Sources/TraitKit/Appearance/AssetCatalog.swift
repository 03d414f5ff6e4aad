/// Named colors and image assets, like an app's asset catalog: `UIColor(named:)` and
/// `UIImage(named:)` look names up here.
///
/// A catalog is filled by whoever sets the app up (a script, a test); each Lua state has its own
/// (`LuaRuntime.assets`). A name not registered answers nil, as UIKit's initializers do; the
/// system colors are not in it (UIKit's `UIColor(named: "systemBlue")` is nil too).
public final class AssetCatalog {
    /// The registered colors by name.
    public private(set) var colors: [String: Color] = [:]
    /// The registered image assets by name.
    public private(set) var images: [String: ImageAsset] = [:]

    /// An empty catalog.
    public init() {}

    /// Registers `color` under `name`, replacing any color registered under it.
    public func register(_ color: Color, named name: String) { colors[name] = color }

    /// Registers `asset` under `name`, replacing any asset registered under it.
    public func register(_ asset: ImageAsset, named name: String) { images[name] = asset }

    /// The color registered under `name`, or nil (as `UIColor(named:)`).
    public func color(named name: String) -> Color? { colors[name] }

    /// The image of the asset `name` for `traits` (its best variant), or nil when no asset has
    /// that name or no variant matches.
    public func image(named name: String, compatibleWith traits: TraitCollection) -> String? {
        images[name]?.image(for: traits)
    }
}
