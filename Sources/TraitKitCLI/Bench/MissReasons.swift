/// Why a figure missed its target, printed under the table and as `reason` in the JSON, so a
/// reader of one run can tell a noisy machine from a limit of the design (issue 7 asks the
/// output to say why). Each reason quotes the figures of the same run it is drawn from; the
/// README's Performance section explains them at length.
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

    static func luaFlush(_ flush: Double, pure: Double, spread: Double, swiftWalk: Double, swiftHandlers: Double) -> String {
        "10x leaves \(BenchReport.format(pure / 10)) ns per node; a flush that fires nothing costs "
            + "\(BenchReport.format(swiftWalk)) ns per node here, so the \(BenchReport.format(flush)) ns per node are the one node "
            + "in ten with a Lua handler: ~\(BenchReport.format(flush * 10)) ns per fired handler, for the walk down to it "
            + "(which loads every node on the way), the node's registrations, pushing the node and the previous "
            + "collection, finding the handler in the node's userdata and lua_pcall; on a large tree most of it is "
            + "cache misses on those objects, and the walk alone visits a sixth of the tree here (the handlers and the "
            + "nodes above them); the same flush with Swift closures for handlers, no Lua at all, costs "
            + "\(BenchReport.format(swiftHandlers)) ns per node in this run (the engine's share, against the "
            + "\(BenchReport.format(pure / 10)) that 10x leaves); the pure-Lua propagation calls its handlers from Lua"
            + (spread > flush / 2
                ? "; the runs of this flush spread over \(BenchReport.format(spread)) ns per node: its working set "
                    + "stayed in the machine's shared last-level cache for some runs and not for others (README, Performance)"
                : "")
    }
}
