import Testing
@testable import TraitKit

@Suite("Did you mean")
struct DidYouMeanTests {
    @Test func theNearestCloseNameIsSuggested() {
        let names = ["horizontalSizeClass", "verticalSizeClass", "userInterfaceStyle"]
        #expect(nearestName(to: "horizontalSizeClas", in: names) == "horizontalSizeClass")
        // Case costs nothing; two neighbours swapped are one edit.
        #expect(nearestName(to: "userinterfacestyle", in: names) == "userInterfaceStyle")
        #expect(nearestName(to: "vreticalSizeClass", in: names) == "verticalSizeClass")
        #expect(didYouMean("horizontalSizeClas", in: names) == " (did you mean 'horizontalSizeClass'?)")
    }

    /// How far a suggestion may be grows with the name (a third of it, 1 to 3 edits), and a
    /// name much longer or shorter than every candidate is never near one.
    @Test func aFarNameGetsNoSuggestion() {
        #expect(nearestName(to: "ab", in: ["ba"]) == "ba")
        #expect(nearestName(to: "abc", in: ["xyz"]) == nil)
        #expect(nearestName(to: "name", in: ["name"]) == nil)
        #expect(nearestName(to: "nameXYZW", in: ["name"]) == nil)
        #expect(nearestName(to: String(repeating: "x", count: 100_000), in: ["xxxxx"]) == nil)
        #expect(didYouMean("zzz", in: ["name"]) == "")
    }

    /// A name UIKit spells otherwise gets TraitKit's spelling when that is a candidate, however
    /// far apart the two are; otherwise the distance decides as for any name.
    @Test func aUIKitSpellingGetsTraitKitsName() {
        let methods = ["changedTraits", "modifying", "performAsCurrent"]
        #expect(nearestName(to: "modifyingTraits", in: methods) == "modifying")
        #expect(didYouMean("modifyingTraits", in: methods) == " (UIKit's 'modifyingTraits' is 'modifying' in TraitKit)")
        #expect(didYouMean("traitCollectionByModifyingTraits", in: methods) == " (UIKit's 'traitCollectionByModifyingTraits' is 'modifying' in TraitKit)")
        #expect(nearestName(to: "modifyingTraits", in: ["present", "dismiss"]) == nil)
        #expect(didYouMean("didMove", in: ["didMoveToParent", "viewDidLoad"]) == " (UIKit's 'didMove' is 'didMoveToParent' in TraitKit)")
        // A Label's text color (UILabel.textColor), where tintColor is nearer by spelling.
        #expect(nearestName(to: "textColor", in: ["text", "color", "tintColor"]) == "color")
        #expect(nearestName(to: "textColor", in: ["tintColor", "backgroundColor"]) == "tintColor")
        // A UIKit trait type is named after its property.
        let traits = ["horizontalSizeClass", "verticalSizeClass", "displayScale"]
        #expect(didYouMean("UITraitHorizontalSizeClass", in: traits) == " (UIKit's 'UITraitHorizontalSizeClass' is 'horizontalSizeClass' in TraitKit)")
        #expect(nearestName(to: "UITrait", in: traits) == nil)
    }

    @Test func anUnknownTraitNamesTheNearestDefinedOne() throws {
        _ = try TraitRegistry.define(name: "HintTheme", kind: .string(optional: false), defaultValue: .string("a"))
        #expect(TraitError.unknownTrait("HintThme").description == "unknown trait 'HintThme' (did you mean 'HintTheme'?)")
        #expect(TraitError.unknownTrait("displayscale").description == "unknown trait 'displayscale' (did you mean 'displayScale'?)")
        #expect(TraitError.unknownTrait("qqqqqqqqqq").description == "unknown trait 'qqqqqqqqqq' (define it with tk.defineTrait first)")
    }
}
