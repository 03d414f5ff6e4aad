import ArgumentParser
import Glibc

/// `--watch`: runs a script, then again whenever it or a file it loaded changes on disk, each
/// time in a fresh Lua state, until Ctrl-C. A run that fails prints its error and the watch
/// goes on; a watched file that disappears (and is not back within a second, as an editor's
/// save-by-rename brings it back) ends the watch with an error.
struct Watcher {
    /// What identifies a version of a file: a save changes at least one of these.
    struct Stamp: Equatable {
        var seconds: Int
        var nanoseconds: Int
        var size: Int
        var inode: UInt
    }

    static let pollInterval: UInt32 = 200_000  // microseconds
    static let missingGrace = 5  // polls a missing file may take to come back

    static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec, size: Int(info.st_size),
                     inode: UInt(info.st_ino))
    }

    let script: String

    /// Checks that the script can be watched, or throws the error to print.
    init(script: String) throws {
        guard script != "-" else { throw ValidationError("--watch needs a script file, not standard input") }
        guard Self.stamp(script) != nil else {
            printError("traitkit: cannot watch \(script): \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        self.script = script
    }

    /// Calls `runOnce` (which returns the files the run loaded besides the script) now and
    /// after every change, forever; throws when a watched file disappears.
    func run(_ runOnce: () -> [String]) throws -> Never {
        var watched = files(runOnce())
        while true {
            fflush(nil)
            usleep(Self.pollInterval)
            if let changed = try changedFile(in: watched) {
                printError("traitkit: \(changed) changed; running again")
                watched = files(runOnce())
            }
        }
    }

    private func files(_ loaded: [String]) -> [(path: String, stamp: Stamp?)] {
        ([script] + loaded.filter { $0 != script }).map { ($0, Self.stamp($0)) }
    }

    /// The first watched file whose stamp changed, or nil; throws when one is gone for good.
    private func changedFile(in watched: [(path: String, stamp: Stamp?)]) throws -> String? {
        for (path, stamp) in watched {
            var now = Self.stamp(path)
            var waited = 0
            while now == nil && stamp != nil && waited < Self.missingGrace {
                usleep(Self.pollInterval)
                waited += 1
                now = Self.stamp(path)
            }
            if now == nil && stamp != nil {
                printError("traitkit: \(path) disappeared while watched")
                throw ExitCode(1)
            }
            if now != stamp { return path }
        }
        return nil
    }
}

/// Prints, after each successful run of a watch, what changed in the hierarchy since the last
/// successful one.
final class ChangeReporter {
    private var last: HierarchySummary?

    func report(_ summary: HierarchySummary) {
        defer { last = summary }
        guard let last else { return }
        let changes = summary.changes(since: last)
        print("== changes since the last good run:")
        print(changes.isEmpty ? "   none" : changes.map { "   " + $0 }.joined(separator: "\n"))
    }
}
