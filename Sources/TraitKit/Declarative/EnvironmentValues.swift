/// R10: the environment of one point of an element tree: values set by `environment(_:_:)`
/// modifiers above it, else (bridged keys) the host view's traits, else the key's default.
public struct EnvironmentValues {
    /// The host view's trait collection.
    public let traits: TraitCollection
    /// Values set explicitly by modifiers, in the order they were set.
    public private(set) var explicit: [(key: EnvironmentKey, value: TraitValue)] = []

    /// The environment of a host with `traits` and nothing set explicitly.
    public init(traits: TraitCollection) { self.traits = traits }

    /// The value of `key` here; a bridged key's `read` that fails is the caller's error (a
    /// body reading it fails with the reason), not a silent default.
    public subscript(key: EnvironmentKey) -> TraitValue {
        get throws {
            if let set = explicit.last(where: { $0.key === key }) { return set.value }
            if let read = key.read { return try read(traits) }
            return key.defaultValue
        }
    }

    /// A copy with `key` set explicitly.
    public func setting(_ key: EnvironmentKey, to value: TraitValue) -> EnvironmentValues {
        var copy = self
        copy.explicit.removeAll { $0.key === key }
        copy.explicit.append((key, value))
        return copy
    }

    /// The same explicit values over another host collection.
    func rebased(on traits: TraitCollection) -> EnvironmentValues {
        var copy = EnvironmentValues(traits: traits)
        copy.explicit = explicit
        return copy
    }

    /// Writes every explicitly set bridged value into `traits` (for hosted view controllers).
    func writeBridged(into traits: inout MutableTraits) throws {
        for (key, value) in explicit { try key.write?(&traits, value) }
    }
}

/// What a `Custom` element's body reads the environment through: it records every key read,
/// so the body is evaluated again only when one of those changes (R10 dependency tracking).
public final class EnvironmentReader {
    /// The environment at the body's point of the tree.
    public let values: EnvironmentValues
    /// The hosting view rendering this body, and the render slot it fills (for bindings).
    public unowned let hostView: HostingView
    /// The render slot the body fills in `hostView`.
    public let slot: Int
    private(set) var reads: [(key: EnvironmentKey, value: TraitValue)] = []

    init(values: EnvironmentValues, hostView: HostingView, slot: Int) {
        self.values = values
        self.hostView = hostView
        self.slot = slot
    }

    /// The value of `key`, recorded as read by this body.
    public subscript(key: EnvironmentKey) -> TraitValue {
        get throws {
            let value = try values[key]
            if !reads.contains(where: { $0.key === key }) { reads.append((key, value)) }
            return value
        }
    }
}
