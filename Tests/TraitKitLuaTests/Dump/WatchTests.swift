import Foundation
import Synchronization
import Testing

/// `--watch`: the test edits the script and a module it requires while `traitkit` watches.
@Suite("Watch mode")
struct WatchTests {
    /// A running traitkit whose output (both streams) the test reads as it comes.
    final class Watched {
        /// What the process wrote so far; the pipe's handler appends on its own thread.
        final class Text: Sendable {
            let value = Mutex("")
        }

        let process = Process()
        let text = Text()

        init(_ arguments: [String]) throws {
            process.executableURL = traitkitBinary
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            pipe.fileHandleForReading.readabilityHandler = { [text] handle in
                let data = handle.availableData
                text.value.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
        }

        var output: String { text.value.withLock { $0 } }

        /// Waits up to 20 s for the output to contain `expected` after what was read so far.
        func wait(for expected: String, after mark: String.Index? = nil,
                  sourceLocation: SourceLocation = #_sourceLocation) {
            for _ in 0..<400 {
                let now = output
                if now[(mark ?? now.startIndex)...].contains(expected) { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            Issue.record("no '\(expected)' in:\n\(output)", sourceLocation: sourceLocation)
        }

        var end: String.Index { output.endIndex }

        /// Ends the watcher if it still runs. SIGKILL, not `terminate()`: the test process
        /// may start it with SIGTERM blocked, and it would then watch on after the suite.
        func stop() {
            guard process.isRunning else { return }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    static func write(_ text: String, to path: String) throws {
        // A different size or a later time: a save the watcher must see even within one tick.
        Thread.sleep(forTimeInterval: 0.05)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    static func mainScript(extra: String = "") -> String {
        """
        package.path = arg[0]:match("(.*/)") .. "?.lua;" .. package.path
        local settings = require "settings"
        local tk = require "traitkit"
        local Theme = tk.defineTrait{ name = "Theme", values = {"standard", "pastel"}, default = "standard" }
        local scene = tk.WindowScene{ screen = tk.Screen{ userInterfaceIdiom = "phone" }, name = "main" }
        local window = tk.Window{ scene = scene }
        window.rootViewController = tk.ViewController{ name = "root" }
        scene.traitOverrides.Theme = settings.theme
        \(extra)
        tk.update()
        print("ran with " .. settings.theme)
        """
    }

    @Test func runsAgainOnEveryChangeAndKeepsWatchingAfterABadEdit() throws {
        let folder = NSTemporaryDirectory() + "watch-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let main = folder + "main.lua", settings = folder + "settings.lua"
        try Self.write(Self.mainScript(), to: main)
        try Self.write("return { theme = \"standard\" }\n", to: settings)
        let watched = try Watched(["run", "--watch", "--timeout", "2", main])
        defer { watched.stop() }
        watched.wait(for: "ran with standard")

        // A module the script requires changed: a fresh run, and the override's change.
        var mark = watched.end
        try Self.write("return { theme = \"pastel\" }\n", to: settings)
        watched.wait(for: "settings.lua changed; running again", after: mark)
        watched.wait(for: "ran with pastel", after: mark)
        watched.wait(for: "~ Screen / WindowScene 'main': override Theme standard -> pastel", after: mark)
        watched.wait(for: "~ Screen / WindowScene 'main' / Window / ViewController 'root': Theme standard -> pastel", after: mark)

        // A syntax error, then a runaway loop: each prints its error and the watch goes on.
        mark = watched.end
        try Self.write("local x = = 1\n", to: main)
        watched.wait(for: "main.lua:1: unexpected symbol near '='", after: mark)
        watched.wait(for: "waiting for the next change", after: mark)
        mark = watched.end
        try Self.write("while true do end\n", to: main)
        watched.wait(for: "time limit of 2 s exceeded", after: mark)
        #expect(watched.process.isRunning)

        // The next good save: what changed since the last good run.
        mark = watched.end
        try Self.write(Self.mainScript(extra: "window.rootViewController.view:addSubview(tk.View{ name = \"added\" })"), to: main)
        watched.wait(for: "ran with pastel", after: mark)
        watched.wait(for: "+ Screen / WindowScene 'main' / Window / ViewController 'root' / View / View 'added'", after: mark)

        // A watched file that disappears ends the watch with an error.
        mark = watched.end
        try FileManager.default.removeItem(atPath: settings)
        watched.wait(for: "settings.lua disappeared while watched", after: mark)
        watched.process.waitUntilExit()
        #expect(watched.process.terminationStatus == 1)
    }

    @Test func dumpWritesTheDumpAgainOnEveryChange() throws {
        let folder = NSTemporaryDirectory() + "watch-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let main = folder + "main.lua", output = folder + "tree.mmd"
        try Self.write(Self.mainScript(), to: main)
        try Self.write("return { theme = \"standard\" }\n", to: folder + "settings.lua")
        let watched = try Watched(["dump", "--watch", "--format", "mermaid", "--output", output, main])
        defer { watched.stop() }
        watched.wait(for: "ran with standard")
        #expect((try? String(contentsOfFile: output, encoding: .utf8))?.contains("● Theme = standard") == true)
        let mark = watched.end
        try Self.write("return { theme = \"pastel\" }\n", to: folder + "settings.lua")
        watched.wait(for: "override Theme standard -> pastel", after: mark)
        #expect((try? String(contentsOfFile: output, encoding: .utf8))?.contains("● Theme = pastel") == true)
    }

    @Test func aTargetThatDoesNotExistIsAnError() throws {
        let result = try traitkit(["run", "--watch", "/nonexistent/app.lua"])
        #expect(result.status == 1)
        #expect(result.stderr == "traitkit: cannot watch /nonexistent/app.lua: No such file or directory\n")
        let stdin = try traitkit(["dump", "--watch", "-"])
        #expect(stdin.status == 64 && stdin.stderr.hasPrefix("Error: --watch needs a script file, not standard input"))
    }
}
