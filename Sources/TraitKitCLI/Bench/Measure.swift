import CSupport
import Glibc

/// One measured figure, with what it is compared against in the same run.
struct Figure {
    let name: String
    /// The tree's size and depth, for the workloads run at each size.
    var nodes: Int? = nil
    var depth: Int? = nil
    let unit: String
    let value: Double
    let spread: Double
    let comparisonName: String
    let comparison: Double?
    var target: String?
    var meetsTarget: Bool?
    /// Why the figure missed its target (see `MissReasons`); nil when met or without target.
    var reason: String? = nil
    /// The blocks it allocates, where the bench counts them.
    var allocations: Allocations? = nil
    /// The bare C binding's time for the same work in the same run, where the comparison is
    /// something else (a whole-script phase is judged against pure Lua): what any binding of
    /// these calls pays before an engine does anything.
    var bare: Double? = nil

    /// What the figure would have been compared with when that could not be measured
    /// ("lua5.4 not in PATH ..."), so the output says why its target is not judged; nil when the
    /// comparison was measured or the figure has none ("-").
    var unmeasuredComparison: String? {
        comparison == nil && comparisonName != "-" ? comparisonName : nil
    }

    /// The name with the tree: "swift flush, 100000 nodes (depth 27)"; the JSON's name.
    var label: String { label(withAllocations: false) }

    /// The label with the allocations after the name, as the table shows it.
    func label(withAllocations: Bool) -> String {
        let base = withAllocations ? name + (allocations.map { " (\($0.description))" } ?? "") : name
        guard let nodes else { return base }
        return "\(base), \(nodes) nodes" + (depth.map { " (depth \($0))" } ?? "")
    }

    /// This figure with `reason` attached if it missed its target.
    func explained(_ reason: @autoclosure () -> String) -> Figure {
        var figure = self
        if meetsTarget == false { figure.reason = reason() }
        return figure
    }

    /// This figure without target and verdict: the targets of §6 and issue 7 are set at 100k
    /// nodes, so the smaller trees of a run are shown for how costs grow, not judged.
    var unjudged: Figure {
        var figure = self
        figure.target = nil
        figure.meetsTarget = nil
        figure.reason = nil
        return figure
    }
}

/// Monotonic nanoseconds.
func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Runs `body` `runs` times, after `warmup` runs that are not counted (the first runs after
/// building a tree or switching workloads pay for cold caches and page faults), and returns
/// the median and the spread (max - min) of the per-unit time `body` reports as
/// (nanoseconds, units).
func measure(runs: Int, warmup: Int = 2, _ body: () -> (ns: UInt64, units: Int)) -> (median: Double, spread: Double) {
    for _ in 0..<warmup { _ = body() }
    var samples: [Double] = []
    for _ in 0..<runs {
        let (ns, units) = body()
        samples.append(Double(ns) / Double(max(units, 1)))
    }
    samples.sort()
    return (samples[samples.count / 2], (samples.last ?? 0) - (samples.first ?? 0))
}

/// Starts `arguments[0]` with `arguments` and `environment` (this process's when nil), its
/// standard output on `output` (this process's when nil); its pid, or nil when it cannot start.
func spawn(_ arguments: [String], environment: [String]? = nil, output: Int32? = nil) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let output { posix_spawn_file_actions_adddup2(&actions, output, 1) }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup($0) } + [nil] }
    defer { (argv + (envp ?? [])).forEach { free($0) } }
    var pid = pid_t()
    let error = if var envp { posix_spawn(&pid, argv[0]!, &actions, nil, argv, &envp) }
                else { posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ) }
    return error == 0 ? pid : nil
}

/// Waits for the child `pid` to end; its wait status (0: it exited 0).
func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status
}

/// Bytes currently allocated by malloc (glibc's mallinfo2).
func allocatedBytes() -> Int {
    Int(tk_malloc_in_use())
}

/// Keeps the optimizer from deleting a computation: the value is stored where the optimizer
/// must assume it is read (an empty body let it drop the argument, and with it the loop that
/// computed it).
@inline(never)
func blackHole<T>(_ value: T) { blackHoleSink = value }

nonisolated(unsafe) private var blackHoleSink: Any?
