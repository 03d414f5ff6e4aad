import ArgumentParser
import CEditLine
import Glibc
import TraitKitLua

/// `traitkit repl` (also `traitkit` alone): the interactive REPL (DESIGN.md §5). On a terminal
/// it edits lines with libedit, keeps history and completes names; from a pipe it reads the
/// input as a script, printing results, so it can be tested.
struct Repl: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Experiment with hierarchies interactively.")

    @Flag(help: "Run without io, os (but clock, time, date), debug, dofile/loadfile, C modules or binary chunks.")
    var sandbox = false

    @Option(name: .customLong("memory-limit"), parsing: .unconditional, help: ArgumentHelp("Stop a chunk when Lua holds more than MB megabytes.", valueName: "MB"))
    var memoryLimit: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop an input (its chunk and the update after it) after S seconds.", valueName: "S"))
    var timeout: Double?

    func validate() throws {
        try ScriptOptions.validateLimits(memoryLimit: memoryLimit, timeout: timeout)
    }

    func run() throws {
        let runtime = LuaRuntime(sandbox: sandbox)
        if let memoryLimit { runtime.memoryLimit = memoryLimit * 1024 * 1024 }
        let repl = LuaRepl(runtime: runtime)
        repl.timeout = timeout
        runtime.installInterruptHandler()
        if isatty(0) != 0 {
            Terminal(repl: repl).run()
        } else {
            runPiped(repl)
        }
    }

    private func runPiped(_ repl: LuaRepl) {
        while let line = readLine() {
            emit(repl.feed(line))
            if repl.wantsQuit { return }
        }
        if repl.isContinuing { emit("stdin: unfinished chunk at end of input\n") }
        // As a script run does: a failed input makes the piped session's exit status 1.
        if repl.anyInputFailed || repl.isContinuing { Glibc.exit(1) }
    }
}

func emit(_ text: String) {
    guard !text.isEmpty else { return }
    print(text, terminator: "")
    tk_flush_stdout()
}

/// The libedit front end: prompt, history in the user's data directory, tab completion.
struct Terminal {
    let repl: LuaRepl

    func run() {
        let history = historyPath()
        if let history { _ = read_history(history) }
        completionSession = repl
        tk_rl_set_completion(complete)
        emit("TraitKit REPL (Lua 5.4). tk = require \"traitkit\"; :help for commands, Ctrl-D to leave.\n")
        while !repl.wantsQuit {
            guard let raw = readline(repl.prompt) else {
                if repl.runtime.takeInterrupt() {
                    // Ctrl-C at the prompt drops the line (and any unfinished chunk).
                    repl.cancelInput()
                    emit("\n")
                    continue
                }
                emit("\n")
                break
            }
            let line = String(cString: raw)
            free(raw)
            if !line.trimmingSpaces.isEmpty {
                add_history(line)
                if let history { _ = write_history(history) }
            }
            emit(repl.feed(line))
        }
    }

    /// `$XDG_DATA_HOME/traitkit/history`, else `~/.local/share/traitkit/history`.
    private func historyPath() -> String? {
        let directory: String
        if let xdg = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), !xdg.isEmpty {
            directory = xdg + "/traitkit"
        } else if let home = getenv("HOME").map({ String(cString: $0) }) {
            directory = home + "/.local/share/traitkit"
        } else {
            return nil
        }
        // mkdir -p
        var path = ""
        for part in directory.split(separator: "/") {
            path += "/" + part
            mkdir(path, 0o700)
        }
        return directory + "/history"
    }
}

/// The session completion asks (readline's completion API has no context pointer).
nonisolated(unsafe) private var completionSession: LuaRepl?
nonisolated(unsafe) private var completionCandidates: [String] = []

private let complete: @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = { text, _, _ in
    guard let text, let session = completionSession else { return nil }
    completionCandidates = session.completions(for: lineBeforeCursorWord(String(cString: text)))
    return rl_completion_matches(text, nextCandidate)
}

private let nextCandidate: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = { _, state in
    let index = Int(state)
    guard index < completionCandidates.count else { return nil }
    return strdup(completionCandidates[index])
}

/// libedit splits words at its break characters, which include `.` and `:`: complete the
/// whole dotted expression before the cursor instead.
private func lineBeforeCursorWord(_ word: String) -> String {
    guard let buffer = tk_rl_line() else { return word }
    let line = String(cString: buffer)
    let end = line.index(line.startIndex, offsetBy: Int(tk_rl_point()), limitedBy: line.endIndex) ?? line.endIndex
    var start = end
    while start > line.startIndex {
        let c = line[line.index(before: start)]
        guard c.isLetter || c.isNumber || c == "_" || c == "." || c == ":" else { break }
        start = line.index(before: start)
    }
    return String(line[start..<end])
}

extension String {
    var trimmingSpaces: Substring { drop { $0 == " " || $0 == "\t" } }
}
