import Testing
import Dispatch
@testable import TraitKit

@Suite("Confinement: two hierarchies on two threads")
struct ThreadingTests {
    @Test func twoHierarchiesSideBySide() async throws {
        let results = await withTaskGroup(of: String.self) { group in
            for theme in [MyAppTheme.pastel, .bold] {
                group.addTask {
                    // Each thread builds, mutates and reads its own hierarchy.
                    await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
                        Thread.detach {
                            var seen = ""
                            for _ in 0..<200 {
                                let stage = Stage()
                                let v = try! stage.view("v")
                                stage.scene.traitOverrides[MyAppThemeTrait.self] = theme
                                try! stage.app.update()
                                seen = "\(v.traitCollection.myAppTheme)"
                                let current = TraitCollection { $0.myAppTheme = theme }
                                current.performAsCurrent {
                                    if TraitCollection.current.myAppTheme != theme { seen = "current leaked" }
                                }
                            }
                            done.resume(returning: seen)
                        }
                    }
                }
            }
            var all: [String] = []
            for await r in group { all.append(r) }
            return all.sorted()
        }
        #expect(results == ["bold", "pastel"])
    }
}

/// A plain OS thread, so the test really runs two hierarchies on two threads.
enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: body)
    }
}
