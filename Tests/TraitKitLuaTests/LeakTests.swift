import Foundation
import Testing

/// §7 memory checks. Each runs a script of Tests/Leaks in its own `traitkit` process, so
/// the tests running beside it cannot move the figures; Scripts/leaks runs the same
/// scripts at a million iterations and under valgrind.
@Suite("Leaks") struct LeakTests {
    /// Failing callbacks at n and 10n: the larger run's peak memory is no higher.
    @Test func failingCallbacksLeaveMemoryFlat() throws {
        let failingCallbacks = packageRoot.appendingPathComponent("Tests/Leaks/failing_callbacks.lua").path
        let small = try peakResidentKB(["run", failingCallbacks, "20000"])
        let large = try peakResidentKB(["run", failingCallbacks, "200000"])
        #expect(large <= small + small / 10 + 2048, "peak memory grew from \(small) KB to \(large) KB")
    }

    /// Dropped views with self-capturing handlers are collected; the Lua heap returns to
    /// its baseline (the script asserts both, and must succeed). The peak stays flat from n
    /// to 5n: garbage piling up between collection cycles would show here first (a weak
    /// handler index once tipped the collector into keeping 4x the garbage).
    @Test func droppedCyclesReturnToBaseline() throws {
        let nodeCycles = packageRoot.appendingPathComponent("Tests/Leaks/node_cycles.lua").path
        let small = try peakResidentKB(["run", nodeCycles, "20000"])
        let large = try peakResidentKB(["run", nodeCycles, "100000"])
        #expect(large <= small + small / 10 + 2048, "peak memory grew from \(small) KB to \(large) KB")
    }

    /// Sandbox refusals, bad arguments and memory-limit errors caught in a loop.
    @Test func caughtErrorsInASandboxLeaveTheStateUsable() throws {
        let result = try traitkit(["run", "--sandbox", "--memory-limit", "32", "Tests/Leaks/sandbox_errors.lua", "5000"])
        #expect(result.status == 0, "\(result.stderr)")
    }
}

/// Runs traitkit with `arguments` (paths absolute) and returns its peak resident memory in kilobytes
/// (from wait4's rusage); the run must succeed.
func peakResidentKB(_ arguments: [String]) throws -> Int {
    let argv = ([traitkitBinary.path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, traitkitBinary.path, nil, nil, argv, environ)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    #expect(status == 0, "traitkit \(arguments.joined(separator: " ")) failed with status \(status)")
    return usage.ru_maxrss
}
