import Testing
@testable import TraitKit

/// UIKit API beyond the trait core, as a Swift subclass sees it: tint, containment calls,
/// the constraint pass, combining collections and the asset catalog.
@Suite("UIKit API")
struct EngineUIKitAPITests {
    final class Tinted: View {
        var changes: [String] = []
        override func tintColorDidChange() { changes.append(tintColor.description) }
    }

    @Test func tintInheritsAndAnnouncesChangesBelow() throws {
        let stage = Stage()
        let outer = Tinted(name: "outer"), inner = Tinted(name: "inner"), own = Tinted(name: "own")
        try stage.root.view.addSubview(outer)
        try outer.addSubview(inner)
        try outer.addSubview(own)
        try own.setTintColor(.red)
        #expect(outer.tintColor === Color.tintColor && own.changes.count == 1)
        try outer.setTintColor(.green)
        #expect(inner.tintColor === Color.green && own.tintColor === Color.red)
        #expect(outer.changes == [Color.green.description] && inner.changes == outer.changes && own.changes.count == 1)
        try outer.setTintColor(.green)
        #expect(outer.changes.count == 1, "an equal tint is no change")
    }

    final class Restless: View {
        var restless = true
        var calls = 0, refusals = 0
        override func tintColorDidChange() {
            calls += 1
            guard restless else { return }
            do { try superview?.setTintColor(Color { _ in .blue }) } catch TraitError.tintDidNotSettle { refusals += 1 } catch {}
        }
    }

    /// A `tintColorDidChange` that sets a tint again never settles (here each view sets its
    /// superview's, whose change reaches both views again): changes nested `maxTintDepth` deep
    /// are refused, and so is every change until the outermost returns, so the loop ends at
    /// once instead of recursing until the stack runs out or, unwinding, taking time exponential
    /// in the depth. The views work as before afterwards.
    @Test func aTintThatNeverSettlesIsRefused() throws {
        let stage = Stage()
        let outer = Restless(name: "outer"), inner = Restless(name: "inner")
        try stage.root.view.addSubview(outer)
        try outer.addSubview(inner)
        try stage.root.view.setTintColor(.red)
        #expect(outer.refusals + inner.refusals > 0)
        #expect(outer.calls + inner.calls < 4 * View.maxTintDepth, "\(outer.calls + inner.calls) calls")
        outer.restless = false
        inner.restless = false
        let before = (outer.calls, inner.calls)
        try outer.setTintColor(.green)
        #expect(inner.tintColor === Color.green && outer.calls == before.0 + 1 && inner.calls == before.1 + 1)
    }

    final class Child: ViewController {
        var log: [String] = []
        override func willMove(toParent parent: ViewController?) { log.append("will \(parent?.name ?? "nil")") }
        override func didMove(toParent parent: ViewController?) { log.append("did \(parent?.name ?? "nil")") }
    }

    @Test func containmentCallsWillMoveOnAddAndDidMoveOnRemove() throws {
        let a = ViewController(name: "a"), b = ViewController(name: "b"), child = Child(name: "child")
        try a.addChild(child)
        try b.addChild(child)
        try child.removeFromParent()
        #expect(child.log == ["will a", "will b", "did nil", "did nil"])
        #expect(a.children.isEmpty && b.children.isEmpty && child.parent == nil)
    }

    final class Constrained: View {
        var log: [String] = []
        override func updateConstraints() { log.append("constraints:\(traitCollection.horizontalSizeClass)") }
        override func layoutSubviews() { log.append("layout") }
    }

    @Test func constraintsRunBeforeLayoutAndFollowTheTraitsTheyRead() throws {
        let stage = Stage()
        let view = Constrained(name: "c")
        try stage.root.view.addSubview(view)
        try stage.app.update()
        #expect(view.log == ["constraints:unspecified", "layout"])
        view.log.removeAll()
        stage.screen.setSystemTraits { $0.horizontalSizeClass = .regular }
        try stage.app.update()
        #expect(view.log == ["constraints:regular"])
    }

    @Test func traitsFromAndContainsTraits() {
        let a = TraitCollection { $0.userInterfaceStyle = .dark; $0.myAppTheme = .pastel }
        let b = TraitCollection { $0.userInterfaceStyle = .light }
        let combined = TraitCollection(traitsFrom: [a, b])
        #expect(combined.userInterfaceStyle == .light && combined.myAppTheme == .pastel)
        #expect(combined.containsTraits(in: b) && !combined.containsTraits(in: a) && combined.containsTraits(in: nil))
    }

    @Test func theCatalogAnswersNilForUnknownNames() {
        let catalog = AssetCatalog()
        let asset = ImageAsset()
        asset.register("moon", for: TraitCollection { $0.userInterfaceStyle = .dark })
        catalog.register(asset, named: "Sky")
        catalog.register(Color.systemPink, named: "Accent")
        #expect(catalog.color(named: "Accent") === Color.systemPink && catalog.color(named: "x") == nil)
        #expect(catalog.image(named: "Sky", compatibleWith: TraitCollection { $0.userInterfaceStyle = .dark }) == "moon")
        #expect(catalog.image(named: "Sky", compatibleWith: TraitCollection()) == nil)
    }
}
