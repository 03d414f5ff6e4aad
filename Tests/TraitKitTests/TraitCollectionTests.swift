import Testing
@testable import TraitKit

@Suite("R3 trait collections")
struct TraitCollectionTests {
    // WWDC23: building collections with a closure and modifyingTraits.
    @Test func closureInitAndModifyingTraits() {
        let myTraits = TraitCollection { t in
            t.userInterfaceIdiom = .phone
            t.horizontalSizeClass = .regular
        }
        let otherTraits = myTraits.modifyingTraits { t in
            t.horizontalSizeClass = .compact
            t.userInterfaceStyle = .dark
        }
        #expect(otherTraits.userInterfaceIdiom == .phone)
        #expect(otherTraits.horizontalSizeClass == .compact)
        #expect(otherTraits.userInterfaceStyle == .dark)
        #expect(myTraits.horizontalSizeClass == .regular)
    }

    // A typed read goes by the trait's id; a collection built before the definition's first use
    // has no slot for it and must read the definition's default, not past its storage.
    @Test func typedTraitFirstUsedAfterTheCollectionWasBuilt() {
        let before = TraitCollection { $0.userInterfaceIdiom = .pad }
        #expect(before[LateGapTrait.self] == 12)
        let after = before.modifyingTraits { $0[LateGapTrait.self] = 20 }
        #expect(after[LateGapTrait.self] == 20)
        #expect(after[LateGapTrait.trait] == .integer(20))
        #expect(before[LateGapTrait.self] == 12)
        #expect(after.userInterfaceIdiom == .pad)
    }

    // WWDC23: ContainedInSettingsTrait by subscript and by property extension.
    @Test func customTraitSubscriptAndProperty() {
        let tc = TraitCollection { $0[ContainedInSettingsTrait.self] = true }
        #expect(tc[ContainedInSettingsTrait.self] == true)
        let tc2 = TraitCollection { $0.isContainedInSettings = true }
        #expect(tc2.isContainedInSettings)
        #expect(TraitCollection().isContainedInSettings == false)
    }

    @Test func unsetTraitsReadAsDefaults() {
        let empty = TraitCollection()
        #expect(empty.horizontalSizeClass == .unspecified)
        #expect(empty.displayScale == 0)
        #expect(empty.myAppTheme == .standard)
        #expect(empty.typesettingLanguage == nil)
    }

    @Test func equalityComparesReads() {
        let a = TraitCollection { $0.horizontalSizeClass = .regular }
        let b = TraitCollection { $0.horizontalSizeClass = .regular }
        #expect(a == b)
        #expect(TraitCollection { $0.horizontalSizeClass = .unspecified } == TraitCollection())
        #expect(a != TraitCollection())
    }

    @Test func changedTraitsInDefinitionOrder() {
        let tc = TraitCollection { $0.userInterfaceIdiom = .phone; $0.horizontalSizeClass = .regular }
        let tc2 = tc.modifyingTraits { $0.horizontalSizeClass = .compact; $0.userInterfaceStyle = .dark }
        #expect(tc2.changedTraits(from: tc).map(\.name) == ["userInterfaceStyle", "horizontalSizeClass"])
        #expect(tc.changedTraits(from: tc).isEmpty)
    }

    /// Values compare by value wherever they are stored: equal strings in storage of their own
    /// are no change, and past the shorter collection the other side is compared with the
    /// defaults (a collection made before a trait was defined reads its default).
    @Test func changedTraitsCompareValuesNotStorage() throws {
        let label = try TraitRegistry.define(name: "ChangedLabel", kind: .string(optional: false),
                                             defaultValue: .string("a default label, too long to be stored inline"))
        let level = try TraitRegistry.define(name: "ChangedLevel", kind: .integer, defaultValue: .integer(3))
        let short = TraitCollection { $0.horizontalSizeClass = .regular }
        let spelled = String(repeating: "x", count: 40)
        var first = MutableTraits(short), second = MutableTraits(short)
        try first.set(.string(spelled), for: label)
        try second.set(.string(String(repeating: "x", count: 20) + String(repeating: "x", count: 20)), for: label)
        let a = TraitCollection(first), b = TraitCollection(second)
        #expect(a.changedTraitSet(from: b).isEmpty)
        #expect(a.changedTraits(from: short).map(\.name) == ["ChangedLabel"])
        #expect(short.changedTraits(from: a).map(\.name) == ["ChangedLabel"])
        var defaults = MutableTraits(short)
        try defaults.set(.string("a default label, too long to be stored inline"), for: label)
        try defaults.set(.integer(3), for: level)
        #expect(TraitCollection(defaults).changedTraitSet(from: short).isEmpty)
        try defaults.set(.integer(4), for: level)
        #expect(TraitCollection(defaults).changedTraits(from: short).map(\.name) == ["ChangedLevel"])
    }

    /// Compared among given traits only, past either collection's end against the defaults,
    /// the answer is the full comparison's restricted to them.
    @Test func changedTraitsAmongGivenTraits() throws {
        let level = try TraitRegistry.define(name: "AmongLevel", kind: .integer, defaultValue: .integer(3))
        let short = TraitCollection { $0.horizontalSizeClass = .regular }
        var traits = MutableTraits(short)
        try traits.set(.integer(4), for: level)
        traits.userInterfaceStyle = .dark
        let long = TraitCollection(traits)
        let both = TraitSet([level, SystemTraits.userInterfaceStyle])
        #expect(long.changedTraitSet(from: short, among: both) == both)
        #expect(short.changedTraitSet(from: long, among: both) == both)
        #expect(long.changedTraitSet(from: short, among: TraitSet([level])) == TraitSet([level]))
        #expect(long.changedTraitSet(from: short, among: TraitSet([SystemTraits.horizontalSizeClass])).isEmpty)
        try traits.set(.integer(3), for: level)
        #expect(TraitCollection(traits).changedTraitSet(from: short, among: TraitSet([level])).isEmpty)
        #expect(long.changedTraitSet(from: long, among: both).isEmpty)
    }

    @Test func descriptionShowsNonDefaultTraitsInOrder() {
        let tc = TraitCollection { t in
            t.myAppTheme = .pastel
            t.horizontalSizeClass = .compact
            t.userInterfaceIdiom = .phone
            t.userInterfaceStyle = .dark
        }
        #expect(tc.description == "<TraitCollection: userInterfaceIdiom = phone, userInterfaceStyle = dark, horizontalSizeClass = compact, Theme = pastel>")
        #expect(TraitCollection().description == "<TraitCollection: empty>")
        #expect(TraitCollection { $0.displayScale = 2.5 }.description == "<TraitCollection: displayScale = 2.5>")
    }

    @Test func colorAppearanceComparison() {
        let tc = TraitCollection { $0.horizontalSizeClass = .regular }
        #expect(tc.hasDifferentColorAppearance(comparedTo: tc.modifyingTraits { $0.userInterfaceStyle = .dark }))
        #expect(!tc.hasDifferentColorAppearance(comparedTo: tc.modifyingTraits { $0.horizontalSizeClass = .compact }))
        #expect(tc.hasDifferentColorAppearance(comparedTo: tc.modifyingTraits { $0.myAppTheme = .bold }))
    }

    @Test func untypedSetValidates() throws {
        var caught: TraitError?
        _ = TraitCollection { t in
            do { try t.set(.string("x"), for: SystemTraits.displayScale) } catch let e as TraitError { caught = e } catch {}
        }
        #expect(caught?.description.contains("displayScale") == true)
    }

    @Test func performAsCurrentSetsAndRestores() {
        let dark = TraitCollection { $0.userInterfaceStyle = .dark }
        let before = TraitCollection.current
        let inside = dark.performAsCurrent { TraitCollection.current.userInterfaceStyle }
        #expect(inside == .dark)
        #expect(TraitCollection.current === before)
    }

    @Test func jsonRoundTripByIdentifier() throws {
        let tc = TraitCollection { $0.horizontalSizeClass = .regular; $0.myAppTheme = .pastel; $0.displayScale = 3 }
        let json = tc.toJSON()
        #expect(json.contains("\"com.myapp.theme\":\"pastel\""))
        #expect(try TraitCollection.fromJSON(json) == tc)
        #expect(throws: TraitError.unknownIdentifier("com.unknown")) { try TraitCollection.fromJSON("{\"com.unknown\": 1}") }
        #expect(try TraitCollection.fromJSON("{\"com.unknown\": 1}", skipUnknown: true) == TraitCollection())
        #expect(throws: TraitError.self) { try TraitCollection.fromJSON("{not json") }
    }

    /// Strings are equal by their bytes, as NSString's isEqualToString: and Lua's == compare
    /// them, not by Swift's canonical equivalence (R3: equal when every trait reads the same).
    @Test func stringsCompareByTheirBytes() throws {
        let label = try TraitRegistry.define(name: "R3Label", kind: .string(optional: false), defaultValue: .string(""))
        let composed = try TraitCollection { try $0.set(.string("\u{E9}"), for: label) }
        let decomposed = try TraitCollection { try $0.set(.string("e\u{301}"), for: label) }
        #expect(composed != decomposed)
        #expect(composed.changedTraits(from: decomposed).map(\.name) == ["R3Label"])
        #expect(TraitValue.string("\u{E9}") != .string("e\u{301}") && TraitValue.string("é") == .string("\u{E9}"))
    }

    /// Numbers round-trip exactly: an integer trait at 64 bits, a number trait with all 17
    /// digits (14-digit output turned 0.1 + 0.2 into 0.3 and Int.max into a Double).
    @Test func jsonKeepsEveryDigit() throws {
        let count = try TraitRegistry.define(name: "R11Count", kind: .integer, defaultValue: .integer(0))
        let ratio = try TraitRegistry.define(name: "R11Ratio", kind: .number, defaultValue: .number(0))
        for (i, d) in [(Int.max, 0.1 + 0.2), (Int.min, 1.0 / 3), (1 << 53 + 1, 123456789.12345679)] {
            let tc = try TraitCollection { t in
                try t.set(.integer(i), for: count)
                try t.set(.number(d), for: ratio)
            }
            let back = try TraitCollection.fromJSON(tc.toJSON())
            #expect(back == tc, "\(tc.toJSON())")
            #expect(back[count] == .integer(i) && back[ratio] == .number(d))
        }
    }
}

/// Used by one test only, so its first use comes after that test's first collection.
private struct LateGapTrait: TraitDefinition {
    static let defaultValue = 12
    static let name = "R3LateGap"
}
