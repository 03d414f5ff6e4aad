/// R9: an image asset: images registered for trait collections, looked up by collection.
///
/// A variant matches when every trait it specifies equals the collection's value; the most
/// specific match wins, ties go to the latest registered; registering equal traits replaces.
public final class ImageAsset {
    struct Variant {
        let name: String
        let traits: TraitCollection
        let specified: [Trait]
        let order: Int
    }
    private var variants: [Variant] = []
    private var registrations = 0

    /// An asset with no variants.
    public init() {}

    /// Registers `name` for the traits set in `traits` (traits at their default are unspecified).
    public func register(_ name: String, for traits: TraitCollection) {
        registrations += 1
        let specified = traits.nonDefaultTraits
        variants.removeAll { $0.traits == traits }
        variants.append(Variant(name: name, traits: traits, specified: specified, order: registrations))
    }

    /// The best variant for `traitCollection`, or nil when none matches.
    public func image(for traitCollection: TraitCollection) -> String? {
        variants
            .filter { v in v.specified.allSatisfy { v.traits[$0] == traitCollection[$0] } }
            .max { ($0.specified.count, $0.order) < ($1.specified.count, $1.order) }?
            .name
    }
}
