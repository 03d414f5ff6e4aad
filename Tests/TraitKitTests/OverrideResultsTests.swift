import Testing
@testable import TraitKit

/// Nodes of one update that apply equal overrides to the same parent collection share the
/// collection that makes (OverrideResults.swift); what each node reads stays what its own
/// overrides say.
@Suite("Override results: equal overrides share a collection")
struct OverrideResultsTests {
    @Test func siblingsOverridingAlikeShareOneCollection() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let views = try (0..<6).map { try stage.view("v\($0)", in: top) }
        // Two ways interleaved, as a script configuring a list does, then two others.
        for i in 0..<4 { views[i].traitOverrides[MyAppThemeTrait.self] = i % 2 == 0 ? .bold : .pastel }
        views[4].traitOverrides[ContainedInSettingsTrait.self] = true
        views[5].traitOverrides[MyAppThemeTrait.self] = .bold
        views[5].traitOverrides[ContainedInSettingsTrait.self] = true
        try stage.app.update()
        let collections = views.map(\.traitCollection)
        #expect(collections[0] === collections[2] && collections[1] === collections[3])
        #expect(collections[0] !== collections[1] && collections[5] !== collections[0] && collections[5] !== collections[4])
        #expect(collections.map(\.myAppTheme) == [.bold, .pastel, .bold, .pastel, .standard, .bold])
        #expect(collections.map(\.isContainedInSettings) == [false, false, false, false, true, true])

        // The parent's collection changes: the shared collections are made again from it.
        top.traitOverrides[ContainedInSettingsTrait.self] = true
        try stage.app.update()
        #expect(views[0].traitCollection === views[2].traitCollection)
        #expect(views[0].traitCollection !== collections[0])
        #expect(views.allSatisfy { $0.traitCollection.isContainedInSettings })
        #expect(views.map(\.traitCollection.myAppTheme) == [.bold, .pastel, .bold, .pastel, .standard, .bold])
    }

    /// A handler that changes its node's override in place while the update runs: a sibling
    /// visited after it whose overrides now read the same is not given the collection made
    /// for what the handler's node had before.
    @Test func anOverrideChangedInPlaceDuringTheUpdateIsNotMistakenForTheOldOne() throws {
        let stage = Stage()
        let top = try stage.view("top")
        let first = try stage.view("first", in: top)
        let second = try stage.view("second", in: top)
        first.traitOverrides[MyAppThemeTrait.self] = .bold
        second.traitOverrides[MyAppThemeTrait.self] = .pastel
        var changedFirst = false
        try first.registerForTraitChanges([MyAppThemeTrait.self]) { node, _ in
            guard !changedFirst else { return }
            changedFirst = true
            (node as? View)?.traitOverrides[MyAppThemeTrait.self] = .pastel
        }
        try stage.app.update()
        #expect(changedFirst)
        #expect(second.traitCollection.myAppTheme == .pastel)
        #expect(first.traitCollection.myAppTheme == .pastel)
    }
}
