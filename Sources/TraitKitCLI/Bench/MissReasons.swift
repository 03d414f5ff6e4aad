/// Why a figure missed its target, printed under the table and as `reason` in the JSON, so a
/// reader of one run can tell a noisy machine from a limit of the design (issue 7 asks the
/// output to say why). Each reason quotes the figures of the same run it is drawn from; the
/// README's Performance section explains them at length.
enum MissReasons {
    static func hotRead(dictionary: Double) -> String {
        "a hot read is two dependent loads from a cached collection; a miss means the machine ran slowly "
            + "during this run (the dictionary store, \(BenchReport.format(dictionary)) ns, slows with it): rerun when it is quiet"
    }

    static func flush(nodes: Int, coldRead: Double, spread: Double) -> String {
        if nodes >= 100_000 {
            return "bound by memory latency: \(nodes) nodes (~\(nodes * 200 / 1_000_000) MB of node objects) do not stay "
                + "in this machine's cache, and a read from a random node costs \(BenchReport.format(coldRead)) ns in this run; "
                + "the walk touches one or two cache lines of each node object, so meeting it needs the trait state "
                + "in flat arrays (a few bytes per node) instead of in the nodes"
        }
        return "the tree fits in cache, so this is the fixed cost of a flush (override write, pass set-up) "
            + "spread over few nodes, or a noisy run (spread \(BenchReport.format(spread)))"
    }

    static func shielded(spread: Double) -> String {
        "the nodes below the overriding subtree's root should cost nothing, so the cost per unshielded node should "
            + "not grow; either the walk no longer stops there or the run was noisy (spread \(BenchReport.format(spread)))"
    }

    static func unrelatedRegistrations(spread: Double) -> String {
        spread > 5
            ? "within this run's noise: the spread (\(BenchReport.format(spread)) %) is larger than the target; rerun when quiet"
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

    static func luaFlush(pure: Double, swiftWalk: Double) -> String {
        "10x leaves \(BenchReport.format(pure / 10)) ns per node for the walk and the handlers together; the Swift walk "
            + "alone costs \(BenchReport.format(swiftWalk)) ns per node at this size, and each fired Lua handler "
            + "(lua_pcall with the node and the previous collection) costs several hundred"
    }
}
