import Foundation
import Testing
import TraitKit

/// Model-based testing (DESIGN.md §7): random operation sequences run against the engine and
/// against `ReferenceModel`, which recomputes every collection from the root on each update.
/// The operations build views and controllers, move and remove views, replace a controller's
/// view, add child controllers, present and dismiss, and set overrides and system traits; the
/// model's tree is R4's (a controller in its view's place under the superview, a presented one
/// under its presentation, last under the window). After every operation each node's
/// collection agrees on the model's traits, each view's superview and subviews and each
/// controller's view, parent and presentation agree with the model's, and each update
/// fires the same callbacks (node, registration, previous values) in the same order. Some
/// callbacks change the hierarchy the first time they fire in `update()` (R7: "callbacks may
/// mutate anything"): they move or remove a view or set or remove an override, mid-walk, and
/// the model, which recomputes every node in pre-order, applies the same change at the same
/// point. So a view moved ahead of the walk or behind it must end up as if every node had been
/// visited, though the engine visits only the nodes that need it; and a view moved anywhere
/// but below the node whose callback runs waits for the next pass ("changes below the current
/// node are picked up in the same pass, others in the next iteration").
///
/// A failure prints its seed; `TRAITKIT_MODEL_SEED=<seed> swift test --filter ModelBased`
/// replays it alone. `TRAITKIT_LONG=1` runs twenty times as many, longer sequences
/// (Scripts/long-checks).
@Suite("Model-based: engine against a reference model") struct ModelBasedTests {
    @Test func randomSequencesAgreeWithTheModel() {
        let environment = ProcessInfo.processInfo.environment
        let long = environment["TRAITKIT_LONG"] == "1"
        let seeds: [UInt64] = environment["TRAITKIT_MODEL_SEED"].flatMap(UInt64.init).map { [$0] }
            ?? Array(1...(long ? 40_000 : 2_000))
        let length = long ? 300 : 80
        for seed in seeds {
            var run = ModelRun(seed: seed)
            if let failure = run.run(operations: length) {
                Issue.record("""
                    seed \(seed), operation \(run.log.count): \(failure)
                    operations: \(run.log.joined(separator: "; "))
                    replay: TRAITKIT_MODEL_SEED=\(seed) swift test --filter ModelBased
                    """)
                return
            }
        }
    }
}

/// The traits the model tracks: two system enums and a number the screen can set, and a custom
/// integer only overrides set.
enum ModelTraits {
    static let level = try! TraitRegistry.define(name: "ModelLevel", kind: .integer, defaultValue: .integer(0))
    static let all = [SystemTraits.userInterfaceStyle, SystemTraits.horizontalSizeClass,
                      SystemTraits.displayScale, level]
    static let systemCount = 3

    static func randomValue(_ index: Int, _ rng: inout SplitMix64) -> TraitValue {
        switch index {
        case 0, 1: .enumCase(rng.below(3))
        case 2: .number(Double(1 + rng.below(3)))
        default: .integer(rng.below(4))
        }
    }
}

/// One fired callback: which node, which of its registrations, and the previous values.
struct Firing: Equatable, CustomStringConvertible {
    var node: Int
    var registration: Int
    var previous: [TraitValue]
    var description: String { "node \(node) registration \(registration) previous \(previous.map(short))" }
}

/// A value as the operation log prints it.
func short(_ value: TraitValue) -> String {
    switch value {
    case .enumCase(let i): "#\(i)"
    case .number(let d): "\(d)"
    case .integer(let i): "\(i)"
    default: "\(value)"
    }
}

/// What a callback does to the hierarchy the first time it fires in an update.
enum CallbackAction: CustomStringConvertible {
    /// `insertSubview(child, at:)`, or `addSubview` when `at` is nil.
    case move(child: Int, to: Int, at: Int?)
    case remove(child: Int)
    case setOverride(node: Int, trait: Int, value: TraitValue)
    case removeOverride(node: Int, trait: Int)
    /// `controller.view = view`.
    case setView(controller: Int, view: Int)
    case present(presenting: Int, presented: Int)
    case dismiss(controller: Int)

    var description: String {
        switch self {
        case .move(let child, let parent, let at): "add \(child) to \(parent)" + (at.map { " at \($0)" } ?? "")
        case .remove(let child): "remove \(child)"
        case .setOverride(let n, let t, let value): "override \(n).\(ModelTraits.all[t].name) = \(short(value))"
        case .removeOverride(let n, let t): "remove override \(n).\(ModelTraits.all[t].name)"
        case .setView(let c, let v): "\(c).view = \(v)"
        case .present(let presenting, let presented): "\(presenting) present \(presented)"
        case .dismiss(let c): "\(c) dismiss"
        }
    }
}

/// The reference: plain values, no sharing, no dirty flags, no pruning.
struct ReferenceModel {
    struct Registration {
        var id: Int
        var traits: Set<Int>
        var action: CallbackAction?
    }
    struct Node {
        var parent: Int?
        var children: [Int] = []
        var overrides: [Int: TraitValue] = [:]
        var current: [TraitValue] = ModelTraits.all.map(\.defaultValue)
        var registrations: [Registration] = []
    }
    var nodes: [Node] = []
    /// The window's node: `ModelRun` makes the screen, scene and window first, and no other.
    static let window = 2
    /// A controller's view's controller: the view's trait parent, which takes the view's place
    /// among its superview's trait children (R4).
    var controllerOf: [Int: Int] = [:]
    /// Each controller's parent controller (`addChild`), which carries no traits.
    var containerOf: [Int: Int] = [:]
    /// Presentations: each presented controller's presentation node (its trait parent, under
    /// the window), its presenting controller, and what each presenting controller presents.
    var presentationOf: [Int: Int] = [:]
    var presentingOf: [Int: Int] = [:]
    var presentedOf: [Int: Int] = [:]
    var systemTraits: [TraitValue] = ModelTraits.all.map(\.defaultValue)
    var fired: [Firing] = []
    /// The nodes the running pass visited (a moved node is not visited twice in one pass), and
    /// those a callback moved where the pass will not take them (R7).
    private var visited: Set<Int> = []
    /// The node whose callbacks run, while they do.
    private var current: Int?
    /// Whether callbacks run their actions (only in `update()`), and whether one did.
    private var actionsEnabled = false
    private var actionRan = false

    func isAncestor(_ a: Int, of b: Int) -> Bool {
        var n: Int? = b
        while let c = n { if c == a { return true }; n = nodes[c].parent }
        return false
    }

    /// What stands for `view` among its superview's trait children: its controller, or itself.
    func traitNode(_ view: Int) -> Int { controllerOf[view] ?? view }

    /// The view a trait child stands for: a controller's view, or the view itself.
    func view(standingFor n: Int) -> Int { nodes[n].children.first.flatMap { controllerOf[$0] == n ? $0 : nil } ?? n }

    /// The view's superview: a presented controller's view has none.
    func superview(of view: Int) -> Int? {
        if let c = controllerOf[view], presentationOf[c] != nil { return nil }
        return nodes[traitNode(view)].parent
    }

    /// Whether `addSubview`/`insertSubview` refuses to put `view` under `superview`: a cycle,
    /// or a presented controller's view.
    func refusesPlacing(_ view: Int, under superview: Int) -> Bool {
        isAncestor(view, of: superview) || controllerOf[view].map { presentationOf[$0] != nil } == true
    }

    /// `addSubview`/`insertSubview`: moves `view` (with its controller) under `superview`, at
    /// `index` among its subviews, unless refused; returns whether it moved.
    @discardableResult mutating func place(_ view: Int, under superview: Int, at index: Int?) -> Bool {
        guard !refusesPlacing(view, under: superview) else { return false }
        move(traitNode(view), to: superview, at: index)
        return true
    }

    /// Moves `child` under `parent`, at `index` among its children (clamped; the end when nil).
    mutating func move(_ child: Int, to parent: Int?, at index: Int? = nil) {
        if let old = nodes[child].parent { nodes[old].children.removeAll { $0 == child } }
        nodes[child].parent = parent
        guard let parent else { return }
        let count = nodes[parent].children.count
        nodes[parent].children.insert(child, at: min(index ?? count, count))
    }

    /// `tk.update()`: every node under the screen (node 0), pre-order; again while callbacks
    /// changed something (the engine's next iterations).
    mutating func update() {
        actionsEnabled = true
        defer { actionsEnabled = false }
        repeat {
            actionRan = false
            visited = []
            visit(0, base: systemTraits)
        } while actionRan
    }

    /// Applies `action` as `addSubview`, `removeFromSuperview`, overrides and the view setter
    /// do (a refused change does nothing).
    mutating func apply(_ action: CallbackAction) {
        switch action {
        case .move(let child, let parent, let at):
            let onPath = isOnPath(traitNode(child))
            guard place(child, under: parent, at: at) else { return }
            passOver(traitNode(child), wasOnPath: onPath)
        case .remove(let child): removeFromSuperview(child)
        case .setOverride(let n, let t, let value): nodes[n].overrides[t] = value
        case .removeOverride(let n, let t): nodes[n].overrides[t] = nil
        case .setView(let c, let v):
            let old = nodes[c].children.first!
            let parents = [old, c, v].map { nodes[$0].parent }, onPath = [old, c, v].map(isOnPath)
            setView(c, v)
            for (i, n) in [old, c, v].enumerated() where nodes[n].parent != parents[i] {
                passOver(n, wasOnPath: onPath[i])
            }
        case .present(let presenting, let presented):
            guard !refusesPresenting(presented, from: presenting) else { return }
            nodes.append(.init())
            present(presented, from: presenting, through: nodes.count - 1)
            passOver(nodes.count - 1, wasOnPath: false)
            passOver(presented, wasOnPath: false)
        case .dismiss(let c): dismiss(c)
        }
    }

    /// Whether the walk is in `n`: the node whose callback runs, or above it.
    private func isOnPath(_ n: Int) -> Bool { current.map { isAncestor(n, of: $0) } ?? false }

    /// After a callback put `moved` under a new parent: the pass leaves it for the next one
    /// unless it went below the node whose callback runs (R7). The walk goes on below a node it
    /// was in wherever that went; a node put above the running one (a controller given its
    /// view) is left, but not the running node and what is below it.
    private mutating func passOver(_ moved: Int, wasOnPath: Bool) {
        guard let current, let parent = nodes[moved].parent else { return }
        if !isAncestor(current, of: parent), !wasOnPath { markVisited(moved) }
    }

    mutating func removeFromSuperview(_ view: Int) {
        if superview(of: view) != nil { move(traitNode(view), to: nil) }
    }

    /// Whether `controller.view = newView` is refused: for a view another controller has, for
    /// one the controller inherits from, and, when the controller is presented, for a view in
    /// a superview.
    func refusesView(_ newView: Int, for controller: Int) -> Bool {
        guard nodes[controller].children.first != newView else { return false }
        return controllerOf[newView] != nil || isAncestor(newView, of: controller)
            || presentationOf[controller] != nil && superview(of: newView) != nil
    }

    /// `controller.view = newView`, unless refused. The old view takes the controller's place,
    /// the controller the new view's (no parent when it has no superview); a window's root
    /// controller stays in its window with the new view, and the old view leaves the window;
    /// a presented controller stays in its presentation, and the old view goes nowhere.
    mutating func setView(_ controller: Int, _ newView: Int) {
        guard let old = nodes[controller].children.first, old != newView,
              !refusesView(newView, for: controller) else { return }
        let parent = nodes[controller].parent
        controllerOf[old] = nil
        controllerOf[newView] = controller
        if parent == Self.window || presentationOf[controller] != nil {
            move(old, to: nil)
            move(newView, to: controller)
            return
        }
        replace(controller, with: old)
        replace(newView, with: controller)
        nodes[controller].children = [newView]
        nodes[newView].parent = controller
    }

    /// Whether `outer` is `controller` or holds it, up through containers and presenting
    /// controllers.
    func containsOrPresents(_ outer: Int, _ controller: Int) -> Bool {
        var c: Int? = controller
        while let current = c, current != outer { c = containerOf[current] ?? presentingOf[current] }
        return c != nil
    }

    /// Whether `presenting.present(presented)` is refused: the presenting controller is in no
    /// window or presents already; the presented one is in a window or presented, a child, the
    /// presenting controller or what contains or presents it, or its view is in a superview.
    func refusesPresenting(_ presented: Int, from presenting: Int) -> Bool {
        !isAncestor(Self.window, of: presenting) || presentedOf[presenting] != nil
            || presentingOf[presented] != nil || isAncestor(Self.window, of: presented)
            || containerOf[presented] != nil || containsOrPresents(presented, presenting)
            || nodes[presented].parent != nil
    }

    /// `present`: the presented controller goes under its new presentation node, itself last
    /// among the window's trait children.
    mutating func present(_ presented: Int, from presenting: Int, through presentation: Int) {
        presentationOf[presented] = presentation
        presentingOf[presented] = presenting
        presentedOf[presenting] = presented
        move(presentation, to: Self.window)
        move(presented, to: presentation)
    }

    /// `dismiss`: what `controller` presents, or `controller` when it is presented.
    mutating func dismiss(_ controller: Int) {
        if presentedOf[controller] != nil {
            dismissPresented(controller)
        } else if let presenting = presentingOf[controller] {
            dismissPresented(presenting)
        }
    }

    /// Dismisses what `presenting` presents, after what that presents in turn: the presentation
    /// and the controller are left with no trait parent.
    private mutating func dismissPresented(_ presenting: Int) {
        guard let presented = presentedOf[presenting] else { return }
        dismissPresented(presented)
        move(presentationOf[presented]!, to: nil)
        move(presented, to: nil)
        presentationOf[presented] = nil
        presentingOf[presented] = nil
        presentedOf[presenting] = nil
    }

    /// Puts `replacement` in `node`'s place among its parent's children (no parent when `node`
    /// has none), taking `replacement` out of where it was.
    private mutating func replace(_ node: Int, with replacement: Int) {
        if let old = nodes[replacement].parent { nodes[old].children.removeAll { $0 == replacement } }
        nodes[replacement].parent = nodes[node].parent
        if let parent = nodes[node].parent, let i = nodes[parent].children.firstIndex(of: node) {
            nodes[parent].children[i] = replacement
        }
        nodes[node].parent = nil
    }

    /// Counts `n` and the nodes below it as visited in the running pass.
    private mutating func markVisited(_ n: Int) {
        guard n != current else { return }
        visited.insert(n)
        for child in nodes[n].children { markVisited(child) }
    }

    /// `updateTraitsIfNeeded()`: the chain from the top down to `n`, then `n`'s subtree.
    mutating func updateTraitsIfNeeded(_ n: Int) {
        var chain: [Int] = []
        var p = nodes[n].parent
        while let c = p { chain.append(c); p = nodes[c].parent }
        var base = chain.last == 0 || n == 0 ? systemTraits : ModelTraits.all.map(\.defaultValue)
        visited = []
        for a in chain.reversed() {
            recompute(a, base: base)
            base = nodes[a].current
        }
        visit(n, base: base)
    }

    /// Visits `n`, then its children as they are when the scan reaches them: callbacks may
    /// add, move or remove children meanwhile, and each unvisited child is visited once.
    private mutating func visit(_ n: Int, base: [TraitValue]) {
        visited.insert(n)
        recompute(n, base: n == 0 ? systemTraits : base)
        while let child = nodes[n].children.first(where: { !visited.contains($0) }) {
            visit(child, base: nodes[n].current)
        }
    }

    private mutating func recompute(_ n: Int, base: [TraitValue]) {
        var new = base
        for (t, value) in nodes[n].overrides { new[t] = value }
        let old = nodes[n].current
        nodes[n].current = new
        for i in nodes[n].registrations.indices where nodes[n].registrations[i].traits.contains(where: { old[$0] != new[$0] }) {
            let registration = nodes[n].registrations[i]
            fired.append(Firing(node: n, registration: registration.id, previous: old))
            if actionsEnabled, let action = nodes[n].registrations[i].action {
                nodes[n].registrations[i].action = nil
                actionRan = true
                current = n
                apply(action)
                current = nil
            }
        }
    }
}

/// One random sequence: the engine hierarchy, the model, and the operations so far.
struct ModelRun {
    var rng: SplitMix64
    var model = ReferenceModel()
    /// What engine callbacks reach: the nodes, and whether their actions run.
    let world = EngineWorld()
    /// Parallel to `model.nodes`: 0 screen, 1 scene, 2 window, 3 root controller, 4 its view,
    /// then views and controllers, each controller followed by its first view. The run holds
    /// every node, so removed views stay alive to be re-added.
    var engine: [TraitEnvironment] {
        get { world.nodes }
        nonmutating set { world.nodes = newValue }
    }
    /// Which nodes are views (the window aside) and which are controllers.
    var viewNodes = [4]
    var controllerNodes = [3]
    var tokens: [(node: Int, id: Int, token: TraitChangeRegistration)] = []
    var nextRegistration = 0
    var log: [String] = []
    let app = Application()
    let fired = FiringLog()

    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
        for t in 0..<ModelTraits.systemCount { model.systemTraits[t] = ModelTraits.randomValue(t, &rng) }
        let screen = Screen(systemTraits: TraitCollection { traits in
            for t in 0..<ModelTraits.systemCount { try! traits.set(model.systemTraits[t], for: ModelTraits.all[t]) }
        })
        app.add(screen)
        let scene = WindowScene(screen: screen)
        let window = Window(scene: scene)
        let root = ViewController(name: "root")
        window.rootViewController = root
        engine = [screen, scene, window, root, root.view]
        for n in 0..<5 { model.nodes.append(.init(parent: n == 0 ? nil : n - 1)) }
        // A screen's collection is its system traits from construction (DESIGN.md §3).
        for t in 0..<ModelTraits.systemCount { model.nodes[0].current[t] = model.systemTraits[t] }
        for n in 1..<5 { model.nodes[n - 1].children = [n] }
        model.controllerOf[4] = 3
    }

    mutating func randomView() -> Int { viewNodes.randomElement(using: &rng)! }

    /// Runs `count` random operations; returns the first disagreement, if any.
    mutating func run(operations count: Int) -> String? {
        for _ in 0..<count {
            if let failure = step() ?? compareCollections() { return failure }
        }
        return nil
    }

    mutating func step() -> String? {
        switch rng.below(26) {
        case 0...2: addView()
        case 3...4: moveView()
        case 5: removeView()
        case 6...8: setOverride()
        case 9: removeOverride()
        case 10: setSystemTrait()
        case 11...12: register()
        case 13: unregister()
        case 14...17: return update()
        case 18...19: return updateTraitsIfNeeded()
        case 20: addController()
        case 21: setView()
        case 22: addChild()
        case 23: removeFromParent()
        case 24: present()
        default: dismiss()
        }
        return compareStructure()
    }

    mutating func addView() {
        let view = View(name: "v\(engine.count)")
        engine.append(view)
        viewNodes.append(engine.count - 1)
        model.nodes.append(.init())
        let parent = rng.below(3) == 0 ? nil : randomView()
        log.append("new v\(engine.count - 1) in \(parent.map(String.init) ?? "nothing")")
        if let parent { attach(engine.count - 1, to: parent) }
    }

    mutating func moveView() {
        guard viewNodes.count > 1 else { return }
        let child = randomView()
        let parent = randomView()
        let at = randomPosition(under: parent)
        log.append("add \(child) to \(parent)" + (at.map { " at \($0)" } ?? ""))
        attach(child, to: parent, at: at)
    }

    /// Half the time a position among `parent`'s children (up to one past the end).
    mutating func randomPosition(under parent: Int) -> Int? {
        rng.below(2) == 0 ? nil : rng.below(model.nodes[parent].children.count + 1)
    }

    /// `addSubview`, or `insertSubview` at `at`: refused (and nothing changes) when it would
    /// make a cycle or the view is a presented controller's.
    mutating func attach(_ child: Int, to parent: Int, at: Int? = nil) {
        let superview = engine[parent] as! View
        do {
            if let at {
                try superview.insertSubview(engine[child] as! View, at: at)
            } else {
                try superview.addSubview(engine[child] as! View)
            }
            precondition(model.place(child, under: parent, at: at), "made a cycle")
        } catch {
            precondition(model.refusesPlacing(child, under: parent), "refused a legal move: \(error)")
        }
    }

    mutating func removeView() {
        let child = randomView()
        log.append("remove \(child)")
        (engine[child] as! View).removeFromSuperview()
        model.removeFromSuperview(child)
    }

    /// A controller and its view, the view placed in a random view or nowhere.
    mutating func addController() {
        let c = engine.count
        let controller = ViewController(name: "c\(c)")
        engine += [controller, controller.view]
        controllerNodes.append(c)
        viewNodes.append(c + 1)
        model.nodes += [.init(children: [c + 1]), .init(parent: c)]
        model.controllerOf[c + 1] = c
        let parent = rng.below(3) == 0 ? nil : randomView()
        log.append("new controller \(c) with view \(c + 1) in \(parent.map(String.init) ?? "nothing")")
        if let parent { attach(c + 1, to: parent) }
    }

    /// `controller.view = view`: refused for another controller's view, for a view the
    /// controller inherits from, and for a view in a superview when the controller is presented.
    mutating func setView() {
        let c = controllerNodes.randomElement(using: &rng)!
        let v = randomView()
        log.append("\(c).view = \(v)")
        let refused = model.refusesView(v, for: c)
        do {
            try (engine[c] as! ViewController).setView(engine[v] as! View)
            precondition(!refused, "accepted \(v) as the view of \(c)")
            model.setView(c, v)
        } catch {
            precondition(refused, "refused \(v) as the view of \(c): \(error)")
        }
    }

    /// `addChild`, which carries no traits; refused when the child contains the parent. The
    /// window's root is never made a child (that would take it out of the window).
    mutating func addChild() {
        guard controllerNodes.count > 1 else { return }
        let parent = controllerNodes.randomElement(using: &rng)!
        let child = controllerNodes.dropFirst().randomElement(using: &rng)!
        log.append("\(parent) addChild \(child)")
        let refused = model.containsOrPresents(child, parent) || model.presentingOf[child] != nil
        do {
            try (engine[parent] as! ViewController).addChild(engine[child] as! ViewController)
            precondition(!refused, "accepted a child that contains or presents its parent, or is presented")
            model.containerOf[child] = parent
        } catch {
            precondition(refused, "refused a legal child: \(error)")
        }
    }

    /// `present`, refused as `ReferenceModel.refusesPresenting` says; the presentation joins
    /// the nodes compared.
    mutating func present() {
        // Mostly from a controller in the window, of one no window, superview or parent has:
        // most random pairs are refused.
        let likely = rng.below(4) != 0
        let inWindow = controllerNodes.filter { model.isAncestor(ReferenceModel.window, of: $0) }
        let loose = controllerNodes.filter { model.nodes[$0].parent == nil && model.containerOf[$0] == nil }
        let presenting = (likely ? inWindow : controllerNodes).randomElement(using: &rng) ?? 3
        let presented = (likely ? loose : controllerNodes).randomElement(using: &rng) ?? 3
        log.append("\(presenting) present \(presented)")
        let refused = model.refusesPresenting(presented, from: presenting)
        let controller = engine[presented] as! ViewController
        do {
            try (engine[presenting] as! ViewController).present(controller)
            precondition(!refused, "accepted presenting \(presented) from \(presenting)")
            engine.append(controller.presentationController!)
            model.nodes.append(.init())
            model.present(presented, from: presenting, through: engine.count - 1)
        } catch {
            precondition(refused, "refused presenting \(presented) from \(presenting): \(error)")
        }
    }

    mutating func dismiss() {
        let c = controllerNodes.randomElement(using: &rng)!
        log.append("\(c) dismiss")
        (engine[c] as! ViewController).dismiss()
        model.dismiss(c)
    }

    mutating func removeFromParent() {
        let c = controllerNodes.randomElement(using: &rng)!
        log.append("\(c) removeFromParent")
        try! (engine[c] as! ViewController).removeFromParent()
        model.containerOf[c] = nil
    }

    mutating func setOverride() {
        let n = Int.random(in: 1..<engine.count, using: &rng)
        let t = rng.below(ModelTraits.all.count)
        let value = ModelTraits.randomValue(t, &rng)
        log.append("override \(n).\(ModelTraits.all[t].name) = \(short(value))")
        try! overrides(n).set(value, for: ModelTraits.all[t])
        model.nodes[n].overrides[t] = value
    }

    mutating func removeOverride() {
        let n = Int.random(in: 1..<engine.count, using: &rng)
        let t = rng.below(ModelTraits.all.count)
        log.append("remove override \(n).\(ModelTraits.all[t].name)")
        overrides(n).remove(ModelTraits.all[t])
        model.nodes[n].overrides[t] = nil
    }

    mutating func setSystemTrait() {
        let t = rng.below(ModelTraits.systemCount)
        let value = ModelTraits.randomValue(t, &rng)
        log.append("screen.\(ModelTraits.all[t].name) = \(short(value))")
        (engine[0] as! Screen).setSystemTraits { try! $0.set(value, for: ModelTraits.all[t]) }
        model.systemTraits[t] = value
    }

    mutating func register() {
        let n = Int.random(in: 1..<engine.count, using: &rng)
        var traits = Set((0..<ModelTraits.all.count).filter { _ in rng.below(2) == 0 })
        if traits.isEmpty { traits = [rng.below(ModelTraits.all.count)] }
        let id = nextRegistration
        nextRegistration += 1
        let action = rng.below(3) == 0 ? randomAction() : nil
        log.append("register \(id) on \(n) for \(traits.sorted())" + (action.map { " to \($0)" } ?? ""))
        let fired = self.fired, world = self.world
        let pending = PendingAction(action)
        let token = try! engine[n].registerForTraitChanges(traits.sorted().map { ModelTraits.all[$0] }) { _, previous in
            fired.entries.append(Firing(node: n, registration: id, previous: ModelTraits.all.map { previous[$0] }))
            if world.actionsEnabled, let action = pending.action {
                pending.action = nil
                world.apply(action)
            }
        }
        tokens.append((n, id, token))
        model.nodes[n].registrations.append(.init(id: id, traits: traits, action: action))
    }

    mutating func randomAction() -> CallbackAction? {
        let anyNode = Int.random(in: 1..<engine.count, using: &rng)
        let t = rng.below(ModelTraits.all.count)
        switch rng.below(6) {
        case 0:
            let parent = randomView()
            return .move(child: randomView(), to: parent, at: randomPosition(under: parent))
        case 1: return .remove(child: randomView())
        case 4: return .setView(controller: controllerNodes.randomElement(using: &rng)!, view: randomView())
        case 5 where rng.below(2) == 0: return .dismiss(controller: controllerNodes.randomElement(using: &rng)!)
        case 5:
            let loose = controllerNodes.filter { model.nodes[$0].parent == nil && model.containerOf[$0] == nil }
            return .present(presenting: controllerNodes.randomElement(using: &rng)!,
                            presented: loose.randomElement(using: &rng) ?? 3)
        case 2: return .setOverride(node: anyNode, trait: t, value: ModelTraits.randomValue(t, &rng))
        default: return .removeOverride(node: anyNode, trait: t)
        }
    }

    mutating func unregister() {
        guard !tokens.isEmpty else { return }
        let (n, id, token) = tokens.remove(at: rng.below(tokens.count))
        log.append("unregister \(id)")
        engine[n].unregisterForTraitChanges(token)
        model.nodes[n].registrations.removeAll { $0.id == id }
    }

    mutating func update() -> String? {
        log.append("update")
        world.actionsEnabled = true
        try! app.update()
        world.actionsEnabled = false
        model.update()
        if engine.count != model.nodes.count {
            return "callbacks made \(engine.count) nodes, the model's \(model.nodes.count) (a presentation differs)"
        }
        return compareFirings()
    }

    mutating func updateTraitsIfNeeded() -> String? {
        let n = randomView()
        log.append("updateTraitsIfNeeded \(n)")
        try! (engine[n] as! View).updateTraitsIfNeeded()
        model.updateTraitsIfNeeded(n)
        return compareFirings()
    }

    func overrides(_ n: Int) -> TraitOverrides { world.overrides(n) }

    mutating func compareFirings() -> String? {
        defer { fired.entries = []; model.fired = [] }
        guard fired.entries != model.fired else { return nil }
        return "callbacks differ\n  engine: \(fired.entries)\n  model:  \(model.fired)"
    }

    /// Each view's superview and subviews, and each controller's view and parent, as the
    /// model has them.
    func compareStructure() -> String? {
        func node(_ object: AnyObject?) -> Int? { object.flatMap { o in engine.firstIndex { $0 === o } } }
        for v in viewNodes {
            let view = engine[v] as! View
            let above = model.superview(of: v)
            if node(view.superview) != above {
                return "view \(v) is in \(node(view.superview).map(String.init) ?? "nothing"), the model's in \(above.map(String.init) ?? "nothing")"
            }
            let subviews = view.subviews.map { node($0)! }
            let expected = model.nodes[v].children.map(model.view(standingFor:))
            if subviews != expected { return "view \(v) has subviews \(subviews), the model \(expected)" }
        }
        for c in controllerNodes {
            let controller = engine[c] as! ViewController
            if node(controller.view) != model.nodes[c].children.first { return "controller \(c) has another view" }
            if node(controller.parent) != model.containerOf[c] { return "controller \(c) has another parent" }
            if node(controller.presentationController) != model.presentationOf[c]
                || node(controller.presentingViewController) != model.presentingOf[c]
                || node(controller.presentedViewController) != model.presentedOf[c] {
                return "controller \(c) has another presentation"
            }
        }
        return nil
    }

    func compareCollections() -> String? {
        for (n, node) in engine.enumerated() {
            let values = ModelTraits.all.map { node.traitCollection[$0] }
            if values != model.nodes[n].current {
                return "node \(n) has \(values.map(short)), the model \(model.nodes[n].current.map(short))"
            }
        }
        return nil
    }
}

/// Where engine callbacks write (a class, so handlers need not capture the run).
final class FiringLog {
    var entries: [Firing] = []
}

/// The engine nodes, for callbacks that change them.
final class EngineWorld {
    var nodes: [TraitEnvironment] = []
    var actionsEnabled = false

    func apply(_ action: CallbackAction) {
        switch action {
        case .move(let child, let parent, let at):
            // Refused (nothing changes) when it would make a cycle, as in the model.
            let superview = nodes[parent] as! View
            if let at { try? superview.insertSubview(nodes[child] as! View, at: at) } else { try? superview.addSubview(nodes[child] as! View) }
        case .remove(let child): (nodes[child] as! View).removeFromSuperview()
        case .setOverride(let n, let t, let value): try! overrides(n).set(value, for: ModelTraits.all[t])
        case .removeOverride(let n, let t): overrides(n).remove(ModelTraits.all[t])
        case .setView(let c, let v): try? (nodes[c] as! ViewController).setView(nodes[v] as! View)
        case .present(let presenting, let presented):
            let controller = nodes[presented] as! ViewController
            // A new presentation joins the nodes, as the model's does.
            if (try? (nodes[presenting] as! ViewController).present(controller)) != nil {
                nodes.append(controller.presentationController!)
            }
        case .dismiss(let c): (nodes[c] as! ViewController).dismiss()
        }
    }

    func overrides(_ n: Int) -> TraitOverrides {
        switch nodes[n] {
        case let view as View: view.traitOverrides
        case let controller as ViewController: controller.traitOverrides
        case let window as Window: window.traitOverrides
        case let scene as WindowScene: scene.traitOverrides
        case let presentation as PresentationController: presentation.traitOverrides
        default: preconditionFailure("node \(n) has no overrides")
        }
    }
}

/// A callback's action until it has run once.
final class PendingAction {
    var action: CallbackAction?
    init(_ action: CallbackAction?) { self.action = action }
}

/// A small, fast, seedable generator (Vigna's SplitMix64), so a seed replays exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
