import Testing
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
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

    /// Each thread has its own engine box (current collection, running update), found through
    /// a C thread-local; a thread that exits releases it, and never sees another's.
    @Test func aThreadsStateIsItsOwnAndEndsWithIt() {
        final class Probe: @unchecked Sendable {
            weak var box: CurrentSlot.Box?
            var sawMain = true
            let main: CurrentSlot.Box
            init(main: CurrentSlot.Box) { self.main = main }
        }
        let probe = Probe(main: CurrentSlot.box)
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            let probe = Unmanaged<Probe>.fromOpaque(raw!).takeRetainedValue()
            let mine = CurrentSlot.box
            probe.box = mine
            probe.sawMain = mine === probe.main
            TraitCollection { $0.myAppTheme = .bold }.performAsCurrent {
                if TraitCollection.current.myAppTheme != .bold { probe.sawMain = true }
            }
            return nil
        }, Unmanaged.passRetained(probe).toOpaque())
        #expect(started == 0)
        pthread_join(thread, nil)
        #expect(!probe.sawMain)
        #expect(probe.box == nil, "released when its thread exited")
        #expect(CurrentSlot.box === probe.main)
    }
}

/// A plain OS thread, so the test really runs two hierarchies on two threads.
enum Thread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: body)
    }
}
