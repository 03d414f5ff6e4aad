import CSupport
import Glibc

/// One measured figure, with what it is compared against in the same run.
struct Figure {
    let name: String
    let unit: String
    let value: Double
    let spread: Double
    let comparisonName: String
    let comparison: Double?
    let target: String?
    let meetsTarget: Bool?
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
