import Testing
@testable import TraitKit

@Suite("Trait sets")
struct TraitSetTests {
    /// A set iterates its ids in ascending order across all four of its words.
    @Test func iteratesAscendingAcrossWords() {
        var set = TraitSet()
        #expect(Array(set).isEmpty)
        for id in [255, 0, 130, 64, 63, 1] { set.insert(id) }
        #expect(Array(set) == [0, 1, 63, 64, 130, 255])
        set.remove(0)
        set.remove(255)
        #expect(Array(set) == [1, 63, 64, 130])
    }

    /// Membership and the set operations the update pass relies on, across words.
    @Test func setOperationsAcrossWords() {
        func set(_ ids: Int...) -> TraitSet {
            var set = TraitSet()
            for id in ids { set.insert(id) }
            return set
        }
        let b = set(3, 200), c = set(3, 70, 200)
        #expect(TraitSet().isEmpty && !b.isEmpty)
        #expect(b.contains(200) && b.contains(3) && !b.contains(199))
        #expect(b.isSubset(of: c) && !c.isSubset(of: b))
        #expect(c.subtracting(b) == set(70))
        #expect(c.intersects(b) && !c.subtracting(b).intersects(b))
        #expect(b.union(set(70)) == c)
    }
}
