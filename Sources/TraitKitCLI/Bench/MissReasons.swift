/// Why a figure missed its target, printed under the table and as `reason` in the JSON, so a
/// reader of one run can tell a noisy machine from a limit of the design (issue 7 asks the
/// output to say why). Each reason quotes the figures of the same run it is drawn from; the
/// docs/performance.md explains how to read them.
enum MissReasons {
    static func hotRead(dictionary: Double) -> String {
        "a hot read is two dependent loads from a cached collection; a miss means the machine ran slowly "
            + "during this run (the dictionary store, \(BenchReport.format(dictionary)) ns, slows with it): rerun when it is quiet"
    }

    static func flush(spread: Double) -> String {
        "a flush writes the slot of the node whose override changed and visits only the nodes below it that "
            + "react (registrations, overrides, Swift subclasses), none in this tree; a miss means a regression in "
            + "that pruning, or a noisy run (spread \(BenchReport.format(spread)))"
    }

    static func shielded(spread: Double) -> String {
        "the nodes below the overriding subtree's root should cost nothing, so the update should cost no more than "
            + "without it; either the walk no longer stops there or the run was noisy (spread \(BenchReport.format(spread)))"
    }

    static func unrelatedRegistrations(middleSpread: Double) -> String {
        middleSpread > 5
            ? "within this run's noise: the middle half of its ratios spread over \(BenchReport.format(middleSpread)) %, "
                + "more than the target; rerun when quiet"
            : "unrelated registrations cost more than one AND per changed node: a regression in the walk's interest test"
    }

    static func luaRead(_ read: Double, pure: Double) -> String {
        var parts: [String] = []
        if read > 100 { parts.append("above 100 ns the machine ran slowly (one C metamethod call and one table lookup, no Swift)") }
        if read * 3 > pure {
            parts.append("`node.traitCollection` is a C metamethod call (the node's collection changes with updates, so it "
                + "cannot sit in a table) and `.T` a table lookup; 3x a table chain of \(BenchReport.format(pure)) ns leaves "
                + "\(BenchReport.format(pure / 3)) ns, less than this machine's C call into the interpreter takes in a slow run")
        }
        return parts.joined(separator: "; ")
    }

    static func luaFlush(_ flush: Double, pure: Double, spread: Double, swiftWalk: Double, swiftHandlers: Double,
                         smallest: (size: Int, flush: Double)?) -> String {
        let f = BenchReport.format
        var parts = [
            "10x leaves \(f(pure / 10)) ns per node; a flush that fires nothing costs \(f(swiftWalk)) ns per node here, "
                + "so the \(f(flush)) ns per node are the one node in ten with a Lua handler: ~\(f(flush * 10)) ns per "
                + "fired handler, for the walk down to it, the node's registration, its node's userdata in the "
                + "identity cache and the handler under it, and lua_pcall (about 2,050 instructions); the same flush "
                + "with Swift closures for handlers, no Lua, costs \(f(swiftHandlers)) ns per node in this run",
        ]
        parts.append("on a tree larger than the cache most of it is cache misses on the objects reached by pointer "
            + "(a node, its children, its extras, the registration, the node's userdata and its identity-cache entry)")
        if let smallest, smallest.size < 100_000 {
            parts.append("at \(smallest.size) nodes, where the whole flush stays in the cache, it costs \(f(smallest.flush)) "
                + "ns per node in this run: what this machine takes for the work itself")
        }
        if spread > flush / 2 {
            parts.append("the runs of this flush spread over \(f(spread)) ns per node: a noisy machine")
        }
        return parts.joined(separator: "; ")
    }

    /// The whole script's total: what 3x leaves once the driver's own work (the same script on
    /// an API that does nothing) is paid, how much of TraitKit's part the build is, whose
    /// per-view work (a Swift object, a userdata, a re-parenting) costs somewhat less than pure
    /// Lua's tables, and what 3x leaves above a bare C binding that does no engine work at all.
    static func wholeScriptTotal(_ total: Double, pure: Double, driver: Double, bare: Double, updates: Double,
                                 build: Double, pureBuild: Double) -> String {
        let f = { (x: Double) in BenchReport.format(x) }
        let share = total > 0 ? Int((build / total * 100).rounded()) : 0
        let room = pure / 3 - driver
        let reason = "the driver alone (the same script on an API that does nothing) takes \(f(driver)) ns per view, "
            + (room > 0 ? "so 3x leaves \(f(room)) ns per view" : "more than 3x allows, so 3x leaves nothing")
            + " for TraitKit's own work in all six phases, where it spends \(f(total - driver)) (pure Lua: "
            + "\(f(pure - driver))); the build is \(share)% of TraitKit's total "
            + "(\(f(build)) ns per view, pure Lua's \(f(pureBuild))): a view's Swift object, userdata and re-parenting "
            + "cost somewhat less than pure Lua's tables; the lead is in the updates, where pure Lua walks its dirty trees"
        let left = pure / 3 - bare
        return reason + "; the bare C binding, which keeps the views, overrides and handlers and does no update at all, "
            + "takes \(f(bare)) ns per view on this script: "
            + (left > 0 ? "3x leaves \(f(left)) ns per view above it" : "more than 3x allows, so 3x leaves nothing above it")
            + " for everything the engine adds (its Swift objects, the updates, the collections), where "
            + "TraitKit's settle and toggle alone take \(f(updates))"
    }

    /// The whole-script workload: what each phase still pays for.
    static func wholeScript(phase: String) -> String {
        switch phase {
        case "build":
            "each view costs a Swift object, a userdata with seven user values and its identity-cache entry; "
                + "addSubview re-parents through Swift and links the userdata into its owner's chain of user values "
                + "(NodeAnchor)"
        case "configure":
            "the first node.traitOverrides makes the overrides object (a userdata); an override goes through "
                + "its __newindex into Swift and marks the path dirty; a registration makes a registration object, "
                + "its handler closure and a token userdata"
        case "settle":
            "the first update visits every node for traits, constraints, layout and display; pure Lua only "
                + "walks for its handlers (its values are visible at once through __index)"
        case "read":
            "node.traitCollection is a C call that, once an update has changed the node's collection, finds the "
                + "collection's userdata in the identity cache (a hash by pointer); tc[Trait] hashes the trait object "
                + "by pointer where pure Lua's key is a string; at 1k views all of pure Lua's tables stay in the cache"
        default:
            "removeFromSuperview re-parents through Swift: the binding's owner link, the window check and "
                + "the dirty flags; its place among the siblings is emptied, not shifted"
        }
    }

    /// The bare C binding's time for a whole-script phase in the same run, said after the
    /// phase's reason: where it is itself behind pure Lua, no binding of these calls is ahead.
    static func phaseAgainstBareBinding(_ value: Double, bare: Double, pure: Double) -> String {
        bareBinding(value, bare: bare, in: "per view in this phase", itself: bare >= pure ? "itself behind pure Lua" : nil)
    }

    /// The bare C binding's time for the same operation in the same run (what any binding pays
    /// before doing work of its own), said after a single operation's reason.
    static func againstBareBinding(_ value: Double, bare: Double?, target: Double?) -> String {
        guard let bare else { return "" }
        let above = target.map { bare > $0 } ?? false
        return bareBinding(value, bare: bare, in: "here", itself: above ? "above the target itself" : nil)
    }

    /// The bare binding's time `bare` said after a reason: with what the bare figure itself
    /// misses, when it does, else how many times that `value` is.
    private static func bareBinding(_ value: Double, bare: Double, in place: String, itself: String?) -> String {
        guard bare > 0 else { return "" }
        let said = "; the bare C binding, no engine behind it, takes \(BenchReport.format(bare)) ns \(place)"
        if let itself { return said + ": " + itself }
        return said + ", TraitKit \(BenchReport.format(value / bare)) times that"
    }

    /// What every subview call pays before its own work.
    private static let reparents = "the call re-parents through Swift (binding anchor, window check, dirty flags); "

    /// The single operations: what each still pays for.
    static func singleOperation(_ key: String) -> String {
        switch key {
        case let k where k.hasPrefix("View{"):
            "a Swift object, a userdata with its user values and the identity cache entry; each constructor "
                + "field goes through its setter as an assignment would, and the table is traversed twice "
                + "(every key is looked up before any setter runs)"
        case let k where k.hasPrefix("insertSubview"):
            reparents + "an insertion at the "
                + "front fills room kept there, whose opening (once for as many insertions as half the siblings) "
                + "copies the arrays: at 100k siblings that one copy is most of these thousand insertions' time"
        case let k where k.hasPrefix("addSubview"):
            reparents + "the view is appended "
                + "to the subview and trait-children arrays, the same work at any sibling count"
        case let k where k.hasPrefix("removeFromSuperview"):
            reparents + "a removal empties "
                + "its place in the subview and trait-children arrays, so it does the same work at any sibling "
                + "count; among 100k siblings the views it reaches lie far apart in the heap and miss the cache"
        case let k where k.hasPrefix("override"):
            "the overrides object's __newindex crosses into Swift, checks the value and marks the path dirty"
                + (k.hasSuffix("by name") ? "; a name is first checked against the object's methods (contains, "
                    + "remove), then looked up among the trait names" : "")
        case "traitOverrides fetch":
            "a view's first fetch makes its overrides object in the node's C __index: a userdata that holds "
                + "the node's userdata and is kept in it; later fetches find it there (the next figure)"
        case "traitOverrides fetch again":
            "the node's __index is a C function that finds the overrides object in the node's user value: the "
                + "interpreter's call into C is most of it"
        case "registerForTraitChanges":
            "a registration object and its userdata, its handler entry in the node's user value, and the trait "
                + "list parsed"
        case "update after an override on every view":
            "every view owns a slot after its override: the walk makes a slot per view (with its reference "
                + "counts) and compares the overridden trait with what the view had (views that override the same "
                + "way share the new collection)"
        case "tc[Trait]":
            "Lua's OP_GETTABLE hashes a userdata key by pointer, where tc.Name is OP_GETFIELD on a constant "
                + "short string; plain Lua tables show the same gap"
        default:
            "without limits the state allocates as lua.c does and runs no hook: counted in instructions the "
                + "loop costs 0.7% less than under lua5.4 (a new block comes from malloc, not realloc), and cachegrind "
                + "simulates the same cache misses for both; the rest is timing, the shared library's code against "
                + "lua5.4's statically linked core and a host whose noise moves single runs by more than 5%"
        }
    }
}
