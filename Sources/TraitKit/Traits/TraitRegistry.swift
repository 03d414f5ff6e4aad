import Synchronization

/// The process-wide list of traits (R1): the one piece of global state besides
/// `TraitCollection.current`. Definition hands out dense ids; names and identifiers are unique.
///
/// Only definition and lookup by name go through the lock; reading a trait's value never does.
public enum TraitRegistry {
    /// How many traits a process may define: collections and change masks are sized for it.
    public static let capacity = TraitSet.capacity

    struct State {
        var all: [Trait] = []
        var byName: [ExactName: Trait] = [:]
        var byIdentifier: [ExactName: Trait] = [:]
    }

    static let state: Mutex<State> = {
        var state = State()
        for spec in SystemTraitSpec.all {
            let trait = Trait(id: state.all.count, name: spec.name, identifier: spec.name, kind: spec.kind,
                              defaultValue: spec.defaultValue, affectsColorAppearance: spec.affectsColorAppearance)
            state.all.append(trait)
            state.byName[ExactName(trait.name)] = trait
            state.byIdentifier[ExactName(trait.identifier)] = trait
        }
        return Mutex(state)
    }()

    /// Defines a trait, or returns the existing one when `name` is already defined the same way.
    public static func define(name: String, identifier: String? = nil, kind: TraitKind,
                              defaultValue: TraitValue, affectsColorAppearance: Bool = false)
        throws(TraitError) -> Trait
    {
        let identifier = identifier ?? name
        try checkDefinition(name: name, kind: kind, defaultValue: defaultValue)
        let result: Result<Trait, TraitError> = state.withLock { state in
            if let existing = state.byName[ExactName(name)] {
                let reason = mismatch(existing, identifier: identifier, kind: kind, defaultValue: defaultValue,
                                      affectsColorAppearance: affectsColorAppearance)
                if let reason { return .failure(.conflictingDefinition(name: name, reason: reason)) }
                return .success(existing)
            }
            if let other = state.byIdentifier[ExactName(identifier)] {
                return .failure(.conflictingDefinition(
                    name: name, reason: "identifier \(identifier) belongs to trait \(other.name)"))
            }
            guard state.all.count < capacity else {
                return .failure(.invalidDefinition(
                    "cannot define trait '\(name)': a process may define at most \(capacity) traits"))
            }
            let trait = Trait(id: state.all.count, name: name, identifier: identifier, kind: kind,
                              defaultValue: defaultValue, affectsColorAppearance: affectsColorAppearance)
            state.all.append(trait)
            state.byName[ExactName(name)] = trait
            state.byIdentifier[ExactName(identifier)] = trait
            return .success(trait)
        }
        return try result.get()
    }

    /// The trait called `name`, or nil.
    public static func trait(named name: String) -> Trait? {
        state.withLock { $0.byName[ExactName(name)] }
    }

    /// The trait with `identifier`, or nil.
    public static func trait(identifier: String) -> Trait? {
        state.withLock { $0.byIdentifier[ExactName(identifier)] }
    }

    /// The trait with dense id `id`.
    public static func trait(id: Int) -> Trait {
        state.withLock { $0.all[id] }
    }

    /// Where the default value of the trait with id `id` is kept (it never moves).
    static func defaultSlot(id: Int) -> UnsafePointer<TraitValue> {
        state.withLock { state in state.all.withUnsafeBufferPointer { UnsafePointer($0[id].defaultSlot) } }
    }

    /// The traits with the ids in `ids`, in that order, under one lock.
    static func traits(_ ids: some Sequence<Int>) -> [Trait] {
        state.withLock { state in ids.map { state.all[$0] } }
    }

    /// Initializes `count` values at `values` with the defaults of the traits with ids
    /// `first..<first + count`, under one lock: collections made before a trait was defined end
    /// before its id, and whoever extends one fills the gap with defaults.
    static func initializeDefaults(_ values: UnsafeMutablePointer<TraitValue>, first: Int, count: Int) {
        state.withLock { state in
            for i in 0..<count { (values + i).initialize(to: state.all[first + i].defaultValue) }
        }
    }

    /// Inserts into `changed` the id of each of `values` (the values of the traits with ids
    /// from `first` on) that differs from its trait's default, under one lock and in place.
    static func insertNonDefaults(_ values: UnsafeBufferPointer<TraitValue>, first: Int, into changed: inout TraitSet) {
        state.withLock { state in
            state.all.withUnsafeBufferPointer { all in
                for i in values.indices where !TraitValue.equalInPlace(values.baseAddress! + i, all[first + i].defaultSlot) {
                    changed.insert(first + i)
                }
            }
        }
    }

    /// Whether a trait of `set` affects color appearance (R9), under one lock.
    static func anyAffectsColorAppearance(_ set: TraitSet) -> Bool {
        state.withLock { state in set.contains { state.all[$0].affectsColorAppearance } }
    }

    /// Every trait, in definition order (system traits first, in the order of R2).
    public static var all: [Trait] {
        state.withLock { $0.all }
    }

    /// The number of traits defined so far; ids are `0..<count`.
    public static var count: Int {
        state.withLock { $0.all.count }
    }

    private static func checkDefinition(name: String, kind: TraitKind, defaultValue: TraitValue) throws(TraitError) {
        guard !name.isEmpty else { throw .invalidDefinition("a trait needs a non-empty name") }
        if case .enumeration(let cases) = kind {
            guard !cases.isEmpty else {
                throw .invalidDefinition("trait '\(name)' needs at least one enum case")
            }
            guard Set(cases.map(ExactName.init)).count == cases.count else {
                throw .invalidDefinition("trait '\(name)' lists an enum case twice")
            }
        }
        guard kind.accepts(defaultValue) else {
            throw .invalidDefinition("default value of trait '\(clipped(name))' is not \(kind.expectation)")
        }
    }

    private static func mismatch(_ t: Trait, identifier: String, kind: TraitKind, defaultValue: TraitValue,
                                 affectsColorAppearance: Bool) -> String? {
        switch (t.kind, kind) {
        case (.enumeration(let cases), .enumeration) where t.kind != kind:
            return "its values are \(listed(cases))"
        case _ where t.kind != kind:
            return "its kind is \(t.kind.word), not \(kind.word)"
        default: break
        }
        if t.defaultValue != defaultValue { return "its default is \(t.format(t.defaultValue))" }
        if ExactName(t.identifier) != ExactName(identifier) { return "its identifier is \(t.identifier)" }
        if t.affectsColorAppearance != affectsColorAppearance {
            return "its affectsColorAppearance is \(t.affectsColorAppearance)"
        }
        return nil
    }
}
