import Testing
@testable import TraitKit

@Suite("R1/R2 traits")
struct TraitDefinitionTests {
    @Test func runtimeDefinitionHasItsAttributes() throws {
        let trait = try TraitRegistry.define(name: "R1Gap", kind: .integer, defaultValue: .integer(8))
        #expect(trait.name == "R1Gap")
        #expect(trait.identifier == "R1Gap")
        #expect(trait.affectsColorAppearance == false)
        #expect(TraitRegistry.trait(named: "R1Gap") === trait)
    }

    @Test func redefiningTheSameWayReturnsTheSameTrait() throws {
        let a = try TraitRegistry.define(name: "R1Same", kind: .bool, defaultValue: .bool(false))
        let b = try TraitRegistry.define(name: "R1Same", kind: .bool, defaultValue: .bool(false))
        #expect(a === b)
    }

    @Test func redefiningDifferentlyIsAnErrorNamingTheTrait() throws {
        _ = try TraitRegistry.define(name: "R1Clash", kind: .integer, defaultValue: .integer(1))
        // The message says how the existing trait differs, so the script author sees which line to fix.
        #expect(throws: TraitError.conflictingDefinition(name: "R1Clash", reason: "its kind is integer, not string")) {
            try TraitRegistry.define(name: "R1Clash", kind: .string(optional: false), defaultValue: .string("x"))
        }
        #expect(throws: TraitError.conflictingDefinition(name: "R1Clash", reason: "its default is 1")) {
            try TraitRegistry.define(name: "R1Clash", kind: .integer, defaultValue: .integer(2))
        }
        _ = try TraitRegistry.define(name: "R1ClashEnum", kind: .enumeration(["a", "b"]), defaultValue: .enumCase(0))
        #expect(throws: TraitError.conflictingDefinition(name: "R1ClashEnum", reason: "its values are a, b")) {
            try TraitRegistry.define(name: "R1ClashEnum", kind: .enumeration(["a", "c"]), defaultValue: .enumCase(0))
        }
    }

    @Test func identifiersAreUnique() throws {
        _ = try TraitRegistry.define(name: "R1IdA", identifier: "com.test.id", kind: .bool, defaultValue: .bool(false))
        #expect(throws: TraitError.self) {
            try TraitRegistry.define(name: "R1IdB", identifier: "com.test.id", kind: .bool, defaultValue: .bool(false))
        }
    }

    @Test func defaultMustFitTheKind() {
        #expect(throws: TraitError.self) {
            try TraitRegistry.define(name: "R1BadDefault", kind: .enumeration(["a", "b"]), defaultValue: .enumCase(5))
        }
    }

    @Test func systemTraitsComeFirstInR2Order() {
        let names = TraitRegistry.all.prefix(SystemTraits.all.count).map(\.name)
        #expect(names.first == "userInterfaceIdiom")
        #expect(names.last == "listEnvironment")
        #expect(SystemTraits.preferredContentSizeCategory.cases?.count == 13)
        #expect(SystemTraits.displayScale.defaultValue == .number(0))
        #expect(SystemTraits.typesettingLanguage.defaultValue == TraitValue.none)
        #expect(SystemTraits.forceTouchCapability.cases?.first == "unknown")
    }

    @Test func semanticSets() {
        #expect(SystemTraits.affectingColorAppearance.map(\.name) == [
            "userInterfaceIdiom", "userInterfaceStyle", "displayGamut", "accessibilityContrast",
            "userInterfaceLevel", "activeAppearance",
        ])
        #expect(SystemTraits.affectingImageLookup.count == 10)
        #expect(SystemTraits.listEnvironment.affectsColorAppearance)
    }

    @Test func typedDefinitionRegistersUnderItsName() {
        #expect(MyAppThemeTrait.trait.name == "Theme")
        #expect(MyAppThemeTrait.trait.identifier == "com.myapp.theme")
        #expect(MyAppThemeTrait.trait.cases == ["standard", "pastel", "bold", "monochrome"])
        #expect(ContainedInSettingsTrait.trait.name == "ContainedInSettingsTrait")
    }

    @Test func wrongKindValueIsRejectedWithTheAcceptedValues() {
        do {
            try SystemTraits.horizontalSizeClass.validate(.string("big"))
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("horizontalSizeClass"))
            #expect(error.description.contains("unspecified, compact, regular"))
        }
    }

    /// Names, identifiers and enum cases compare by their bytes, as Lua and UIKit compare
    /// them: "é" and "e" with a combining accent (equal as Swift `String`s) are two of each.
    @Test func namesAndCasesCompareByBytes() throws {
        let composed = "R1Caf\u{E9}", decomposed = "R1Cafe\u{301}"
        let a = try TraitRegistry.define(name: composed, kind: .integer, defaultValue: .integer(1))
        let b = try TraitRegistry.define(name: decomposed, kind: .integer, defaultValue: .integer(2))
        #expect(a !== b && TraitRegistry.trait(named: decomposed) === b && TraitRegistry.trait(identifier: composed) === a)
        let cases = try TraitRegistry.define(name: "R1AccentCases", kind: .enumeration(["\u{E9}", "e\u{301}"]),
                                             defaultValue: .enumCase(0))
        #expect(try cases.enumValue(named: "e\u{301}") == .enumCase(1))
        #expect(throws: TraitError.self) {
            try TraitRegistry.define(name: "R1AccentCases", kind: .enumeration(["e\u{301}", "\u{E9}"]), defaultValue: .enumCase(0))
        }
    }

    /// An enum of a script's many (or long) cases is listed as far as a line goes, with its
    /// count; every system trait's cases are listed whole.
    @Test func manyCasesAreListedWithTheirCount() throws {
        let cases = (1...200_000).map { "case\($0)" }
        let big = try TraitRegistry.define(name: "R1ManyCases", kind: .enumeration(cases), defaultValue: .enumCase(0))
        #expect(throws: TraitError.invalidValue(trait: "R1ManyCases", value: "\"nope\"", expected: "one of: "
            + cases.prefix(16).joined(separator: ", ") + ", … (200000 in all)")) {
            try big.enumValue(named: "nope")
        }
        #expect(throws: TraitError.conflictingDefinition(name: "R1ManyCases", reason: "its values are "
            + cases.prefix(16).joined(separator: ", ") + ", … (200000 in all)")) {
            try TraitRegistry.define(name: "R1ManyCases", kind: .enumeration(["a"]), defaultValue: .enumCase(0))
        }
        let long = String(repeating: "x", count: 10_000)
        #expect(listed([long, "b"]) == clipped(long) + ", b")
        let sizes = SystemTraits.preferredContentSizeCategory.cases ?? []
        #expect(sizes.count == 13 && listed(sizes) == sizes.joined(separator: ", "))
    }
}

@Suite("R1 record and object kinds")
struct TraitKindTests {
    final class Token: Sendable {}

    @Test func recordValuesCompareByValue() throws {
        let insets = try TraitRegistry.define(name: "R1Insets", kind: .record,
                                              defaultValue: .record(TraitRecord(["top": .integer(0), "leading": .number(0)])))
        let a = TraitRecord(["top": .integer(8), "leading": .number(4.5)])
        let b = TraitRecord(["leading": .number(4.5), "top": .integer(8)])
        var m1 = MutableTraits(TraitCollection()), m2 = MutableTraits(TraitCollection())
        try m1.set(.record(a), for: insets)
        try m2.set(.record(b), for: insets)
        #expect(TraitCollection(m1) == TraitCollection(m2))
        #expect(TraitCollection(m1).description == "<TraitCollection: R1Insets = {leading = 4.5, top = 8}>")
    }

    @Test func recordNumbersCompareAsLuaDoes() throws {
        let a = TraitRecord(["top": .integer(2), "left": .number(0.5)])
        let b = TraitRecord(["top": .number(2.0), "left": .number(0.5)])
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(TraitRecord(["top": .integer(2)]) != TraitRecord(["top": .number(2.5)]))
        #expect(TraitRecord(["top": .integer(1 << 53 + 1)]) != TraitRecord(["top": .number(Double(1 << 53))]))
        #expect(TraitRecord(["top": .integer(1)]) != TraitRecord(["top": .bool(true)]))
    }

    @Test func numbersMustBeFinite() throws {
        let width = try TraitRegistry.define(name: "R1Width", kind: .number, defaultValue: .number(0))
        let insets = try TraitRegistry.define(name: "R1FiniteInsets", kind: .record,
                                              defaultValue: .record(TraitRecord(["top": .number(0)])))
        var traits = MutableTraits(TraitCollection())
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(throws: TraitError.invalidValue(trait: "R1Width", value: formatNumber(bad), expected: "a finite number")) {
                try traits.set(.number(bad), for: width)
            }
            #expect(throws: TraitError.self) { try traits.set(.record(TraitRecord(["top": .number(bad)])), for: insets) }
        }
        #expect(throws: TraitError.self) {
            try TraitRegistry.define(name: "R1NaNDefault", kind: .number, defaultValue: .number(.nan))
        }
        try traits.set(.number(1e308), for: width)
        #expect(TraitCollection(traits)[width] == .number(1e308))
    }

    @Test func objectValuesCompareByIdentity() throws {
        let owner = try TraitRegistry.define(name: "R1Owner", kind: .object, defaultValue: .none)
        let token = Token()
        var m1 = MutableTraits(TraitCollection()), m2 = MutableTraits(TraitCollection())
        try m1.set(.object(TraitObject(token)), for: owner)
        try m2.set(.object(TraitObject(token)), for: owner)
        #expect(TraitCollection(m1) == TraitCollection(m2))
        try m2.set(.object(TraitObject(Token())), for: owner)
        #expect(TraitCollection(m1) != TraitCollection(m2))
    }
}

@Suite("R1 typed definitions next to script definitions")
struct TypedDefinitionClashTests {
    struct ScriptTakenTrait: TraitDefinition {
        static let defaultValue = 0
        static let name = "R1ScriptTaken"
    }

    @Test func aScriptDefinitionOfTheSameNameDoesNotCrashTheHost() throws {
        // A script got there first with another kind.
        let scripted = try TraitRegistry.define(name: "R1ScriptTaken", kind: .bool, defaultValue: .bool(false))
        let typed = ScriptTakenTrait.trait
        #expect(typed !== scripted)
        #expect(typed.name.hasSuffix("ScriptTakenTrait"))
        #expect(TraitCollection { $0[ScriptTakenTrait.self] = 3 }[ScriptTakenTrait.self] == 3)
    }
}

/// A family of distinct definition types, one per tag type, for the typed-trait cache.
struct Tagged<Tag>: TraitDefinition {
    static var defaultValue: Int { 7 }
    static var name: String { "Tagged.\(Tag.self)" }
}

@Suite("R1 typed definitions: the lock-free lookup")
struct TypedTraitCacheTests {
    /// More types than the first table holds: each still finds its own trait, and reads see
    /// values set through the trait object.
    @Test func manyTypesEachFindTheirOwnTrait() {
        let traits = [Tagged<Int8>.trait, Tagged<Int16>.trait, Tagged<Int32>.trait, Tagged<Int64>.trait,
                      Tagged<UInt8>.trait, Tagged<UInt16>.trait, Tagged<UInt32>.trait, Tagged<UInt64>.trait,
                      Tagged<Float>.trait, Tagged<Double>.trait, Tagged<Bool>.trait, Tagged<String>.trait,
                      Tagged<Character>.trait, Tagged<[Int]>.trait, Tagged<[String]>.trait, Tagged<Set<Int>>.trait,
                      Tagged<Int?>.trait, Tagged<String?>.trait, Tagged<(Int, Int)>.trait, Tagged<Void>.trait]
        #expect(Set(traits.map(\.id)).count == traits.count)
        #expect(Tagged<Float>.trait === traits[8] && Tagged<Void>.trait === traits[19])
        let tc = TraitCollection { try! $0.set(.integer(3), for: Tagged<UInt16>.trait) }
        #expect(tc[Tagged<UInt16>.self] == 3 && tc[Tagged<UInt32>.self] == 7)
    }

    /// First use from several threads at once: every thread gets the same trait.
    @Test func firstUseFromManyThreadsAgrees() async {
        struct Racing: TraitDefinition { static let defaultValue = false }
        let ids = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { Racing.trait.id } }
            return await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(ids.count == 1)
    }
}
