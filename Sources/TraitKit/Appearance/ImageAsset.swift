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
    /// Where each registered collection's variant is, so replacing one costs a hash, not a scan.
    private var slots: [VariantKey: Int] = [:]
    private var registrations = 0

    /// An asset with no variants.
    public init() {}

    /// Registers `name` for the traits set in `traits` (traits at their default are unspecified).
    public func register(_ name: String, for traits: TraitCollection) {
        registrations += 1
        let variant = Variant(name: name, traits: traits, specified: traits.nonDefaultTraits, order: registrations)
        let key = VariantKey(variant)
        if let slot = slots[key] {
            variants[slot] = variant  // the order makes it the latest; its place in the array does not matter
        } else {
            slots[key] = variants.count
            variants.append(variant)
        }
    }

    /// The best variant for `traitCollection`, or nil when none matches.
    public func image(for traitCollection: TraitCollection) -> String? {
        var best: Variant?
        for v in variants where v.specified.allSatisfy({ v.traits[$0] == traitCollection[$0] }) {
            if let b = best, (v.specified.count, v.order) < (b.specified.count, b.order) { continue }
            best = v
        }
        return best?.name
    }
}

/// A variant's collection as a dictionary key: equal as collections are, hashed by the
/// traits it specifies (the others read their defaults, so they cannot tell two apart).
struct VariantKey: Hashable {
    let traits: TraitCollection
    let specified: [Trait]

    init(_ variant: ImageAsset.Variant) {
        traits = variant.traits
        specified = variant.specified
    }

    static func == (a: VariantKey, b: VariantKey) -> Bool { a.traits == b.traits }

    func hash(into hasher: inout Hasher) {
        for trait in specified {
            hasher.combine(trait.id)
            hasher.combine(traits.storage[trait.id])  // in range: a specified trait is stored; not a tracked read
        }
    }
}
