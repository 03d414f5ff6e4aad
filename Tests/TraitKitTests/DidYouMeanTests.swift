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

    /// Two long names of a near length are compared in a band around the diagonal: a script's
    /// 100,000-character trait name and its typo get their hint at once (the whole table
    /// would take 80 GB), in a message of a line, and control characters in it escaped.
    @Test func longNamesAreComparedWithinTheLimit() {
        let long = String(repeating: "x", count: 100_000)
        #expect(nearestName(to: long + "y", in: ["name", long]) == long)
        #expect(nearestName(to: "yy" + long, in: [long]) == long)
        #expect(nearestName(to: "yyyy" + long.dropLast(4), in: [long]) == nil)
        #expect(didYouMean(long + "y", in: [long]) == " (did you mean '\(clipped(long))'?)")
        #expect(clipped(long).utf8.count < 100)
        #expect(didYouMean("esc\u{1B}[31mrex", in: ["esc\u{1B}[31mred"]) == " (did you mean 'esc\\u{1B}[31mred'?)")
        // Within the band, each kind of edit still counts once.
        #expect(nearestName(to: "abcdefghi", in: ["abdcefghi"]) == "abdcefghi")
        #expect(nearestName(to: "abcdefghi", in: ["abcdefgh"]) == "abcdefgh")
        #expect(nearestName(to: "abcdefghi", in: ["xbcdefghix"]) == "xbcdefghix")
        #expect(nearestName(to: "abcdefghi", in: ["bcdfghi"]) == "bcdfghi")
        #expect(nearestName(to: "abcdefghi", in: ["bacdfehgi"]) == "bacdfehgi")
        #expect(nearestName(to: "abcdefghi", in: ["bacdfehig"]) == nil)
    }

    /// The band gives what the whole table gives, whenever that is within the limit.
    @Test func theBandAgreesWithTheWholeTable() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let a = String((0..<Int.random(in: 0...9, using: &generator)).map { _ in "abc".randomElement(using: &generator)! })
            let b = String((0..<Int.random(in: 0...9, using: &generator)).map { _ in "abc".randomElement(using: &generator)! })
            let limit = Int.random(in: 1...3, using: &generator)
            let whole = wholeTableDistance(Array(a), Array(b))
            #expect(editDistance(a, b, limit: limit) == (whole <= limit ? whole : nil), "\(a) \(b) \(limit)")
        }
    }

    /// The optimal string alignment distance over the whole table, as a reference.
    private func wholeTableDistance(_ a: [Character], _ b: [Character]) -> Int {
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
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
