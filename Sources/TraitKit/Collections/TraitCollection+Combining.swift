/// Combining and comparing collections by their specified traits, as UIKit's
/// `UITraitCollection(traitsFrom:)` and `containsTraits(in:)`.
///
/// A collection here has no separate "unspecified" state: a trait is specified when its value
/// differs from the trait's default (the same rule `ImageAsset` matches by).
extension TraitCollection {
    /// The traits specified in `collections`, later collections winning where two specify the
    /// same trait; traits none of them specifies are at their defaults.
    public convenience init(traitsFrom collections: [TraitCollection]) {
        var traits = MutableTraits(values: [])
        for collection in collections {
            for trait in collection.nonDefaultTraits { traits.store(collection[trait], at: trait.id) }
        }
        self.init(traits)
    }

    /// Whether every trait `other` specifies has the same value here. UIKit takes an optional;
    /// nil specifies nothing, so it is contained.
    public func containsTraits(in other: TraitCollection?) -> Bool {
        guard let other else { return true }
        return other.nonDefaultTraits.allSatisfy { self[$0] == other[$0] }
    }
}
