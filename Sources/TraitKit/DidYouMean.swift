/// The nearest of `candidates` to a misspelled `name`, for "did you mean" hints: the one at
/// the smallest edit distance (insertions, deletions, substitutions; case differences cost
/// nothing extra), if that distance is small for the name's length. Nil when nothing is close.
///
/// A name is never more than its difference in length away, so a candidate much longer or
/// shorter is passed over without comparing: a script's megabyte string costs a count, not a
/// copy or a distance table per candidate.
///
/// A name UIKit spells differently (`modifyingTraits`, `didMove`) is near TraitKit's spelling
/// of it whatever the distance, when that is among the candidates (`uikitSpellings`).
public func nearestName(to name: String, in candidates: some Sequence<String>) -> String? {
    let length = name.count
    let limit = max(1, min(3, length / 3))
    let renamed = uikitSpelling(of: name)
    var lowered: String?  // made for the first candidate of a near length only
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != name {
        if candidate == renamed { return candidate }
        guard abs(candidate.count - length) <= limit else { continue }
        let folded = lowered ?? name.lowercased()
        lowered = folded
        if let d = editDistance(folded, candidate.lowercased(), limit: limit), d < (best?.distance ?? .max) {
            best = (candidate, d)
        }
    }
    return best?.name
}

/// " (did you mean 'x'?)", or "" when nothing is close; for a UIKit spelling, what TraitKit
/// calls it.
public func didYouMean(_ name: String, in candidates: some Sequence<String>) -> String {
    guard let near = nearestName(to: name, in: candidates) else { return "" }
    return near == uikitSpelling(of: name) ? " (UIKit's '\(name)' is '\(near)' in TraitKit)" : " (did you mean '\(clipped(near))'?)"
}

/// The Lua API's name for a member UIKit spells otherwise, in Swift or as an Objective-C
/// selector's first part: a script ported from UIKit code is told what to write instead of
/// being told nothing is near. (The entries only apply where their name is a candidate, so the
/// Swift API, which keeps UIKit's `modifyingTraits`, never hears of them.) Names that are the
/// same in both need no entry.
private let uikitSpellings: [String: String] = [
    "modifyingTraits": "modifying", "traitCollectionByModifyingTraits": "modifying",
    "changedTraitsFromTraitCollection": "changedTraits", "containsTraitsInCollection": "containsTraits",
    "hasDifferentColorAppearanceComparedToTraitCollection": "hasDifferentColorAppearance",
    "traitCollectionWithTraitsFromCollections": "traitsFrom", "performAsCurrentTraitCollection": "performAsCurrent",
    "defaultValue": "default",
    "didMove": "didMoveToParent", "didMoveToParentViewController": "didMoveToParent",
    "willMove": "willMoveToParent", "willMoveToParentViewController": "willMoveToParent",
    "addChildViewController": "addChild", "removeFromParentViewController": "removeFromParent",
    "presentViewController": "present", "dismissViewControllerAnimated": "dismiss",
    "resolvedColorWithTraitCollection": "resolvedColor", "colorWithAlphaComponent": "withAlphaComponent",
    "colorNamed": "named", "imageNamed": "named", "imageWithTraitCollection": "image", "registerImage": "register",
    "textColor": "color",
]

/// TraitKit's spelling of `name` if UIKit's differs: an entry of `uikitSpellings`, or for a
/// UIKit trait type the property it is named after (`UITraitHorizontalSizeClass`:
/// `horizontalSizeClass`, the name of the system trait). A name longer than any of them is
/// none, so a script's megabyte string is not hashed.
private func uikitSpelling(of name: String) -> String? {
    guard name.utf8.count <= 60 else { return nil }
    if name.hasPrefix("UITrait"), let first = name.dropFirst(7).first {
        return first.lowercased() + name.dropFirst(8)
    }
    return uikitSpellings[name]
}

/// Edit distance over characters where swapping two neighbours is one edit (`nmae` is one
/// from `name`): the optimal string alignment distance, if it is at most `limit`; nil if more.
///
/// Only the cells within `limit` of the diagonal can hold such a distance, so only those are
/// computed, three rows at a time: two long names of a near length (a script's megabyte trait
/// name and its typo) cost their length times the band, not their product in time and memory.
func editDistance(_ a: String, _ b: String, limit: Int) -> Int? {
    let a = Array(a), b = Array(b)
    guard abs(a.count - b.count) <= limit else { return nil }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    let far = limit + 1  // any distance over the limit: the band's edges and what lies outside
    var twoBack = [Int](repeating: far, count: b.count + 1)
    var back = (0...b.count).map { min($0, far) }
    var row = [Int](repeating: far, count: b.count + 1)
    for i in 1...a.count {
        let low = max(1, i - limit), high = min(b.count, i + limit)
        row[low - 1] = low == 1 ? min(i, far) : far
        if high < b.count { row[high + 1] = far }
        for j in low...high {
            var d = min(back[j] + 1, row[j - 1] + 1, back[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, twoBack[j - 2] + 1) }
            row[j] = min(d, far)
        }
        (twoBack, back, row) = (back, row, twoBack)
    }
    return back[b.count] <= limit ? back[b.count] : nil
}
