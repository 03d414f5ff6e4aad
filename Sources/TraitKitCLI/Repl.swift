import ArgumentParser
import CEditLine
import Glibc
import TraitKitLua

/// `traitkit repl` (also `traitkit` alone): the interactive REPL (DESIGN.md §5). On a terminal
/// it edits lines with libedit, keeps history and completes names; from a pipe it reads the
/// input as a script, printing results, so it can be tested.
struct Repl: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "repl", abstract: "Experiment with hierarchies interactively.")

    @Flag(help: "Run without io, os (but clock, time, date), debug, dofile/loadfile, C modules or binary chunks.")
    var sandbox = false

    @Option(name: .customLong("memory-limit"), parsing: .unconditional, help: ArgumentHelp("Stop a chunk when Lua holds more than MB megabytes.", valueName: "MB"))
    var memoryLimit: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop an input (its chunk and the update after it) after S seconds.", valueName: "S"))
    var timeout: Double?

    @Flag(name: .customShort("i"), help: "Open the REPL after running FILE (it does anyway; accepted as lua -i takes it).")
    var interactive = false

    @Argument(help: "A script to run first; the REPL then sees its globals, as with lua -i.")
    var file: String?

    func validate() throws {
        try ScriptOptions.validateLimits(memoryLimit: memoryLimit, timeout: timeout)
    }

    func run() throws {
        let runtime = LuaRuntime(sandbox: sandbox)
        if let memoryLimit { runtime.memoryLimit = memoryLimit * 1024 * 1024 }
        let repl = LuaRepl(runtime: runtime)
        repl.timeout = timeout
        runtime.installInterruptHandler()
        // As lua -i: the script's error is printed, and the session opens all the same.
        if let file {
            runtime.setScriptArguments(script: file, arguments: [], preceding: Array(CommandLine.arguments.prefix { $0 != file }))
            emit(repl.load(file))
        }
        if isatty(0) == 0 {
            runPiped(repl)
        } else if tk_edit_open() != 0 {
            Terminal(repl: repl).run()
        } else {
            printError("traitkit: libedit (libedit.so.2, Debian's libedit2) not found: no line editing, history or completion")
            runPlain(repl)
        }
    }

    /// A terminal without libedit: prompts and lines, nothing more. Ctrl-C at the prompt
    /// drops the line (and any unfinished chunk), as with libedit.
    private func runPlain(_ repl: LuaRepl) {
        emit(Terminal.banner)
        while !repl.wantsQuit {
            emit(repl.prompt)
            switch InputLine.read(repl) {
            case .line(let line):
                emit(repl.feed(line))
            case .interrupted:
                repl.cancelInput()
                emit("\n")
            case .end:
                emit("\n")
                return
            }
        }
    }

    private func runPiped(_ repl: LuaRepl) {
        reading: while !repl.wantsQuit {
            switch InputLine.read(repl) {
            case .line(let line):
                emit(repl.feed(line))
            case .interrupted:
                // As a script read from a pipe by `lua -`, which Ctrl-C ends.
                emit("\n")
                printError("traitkit: interrupted")
                Glibc.exit(130)
            case .end:
                break reading
            }
        }
        if repl.isContinuing && !repl.wantsQuit { emit("stdin: unfinished chunk at end of input\n") }
        // As a script run does: a failed input makes the piped session's exit status 1, whether
        // the input ends or says :quit.
        if repl.anyInputFailed || (repl.isContinuing && !repl.wantsQuit) { Glibc.exit(1) }
    }
}

/// A line of standard input, read with `tk_read_line`: Swift's `readLine` spins for ever
/// once Ctrl-C has ended a read (the REPL's SIGINT handler does not restart reads).
enum InputLine {
    case line(String), interrupted, end

    /// The next line, or `interrupted` when Ctrl-C ends the read or came since the last input
    /// was taken (while results were printed, before the read began); either way the Ctrl-C
    /// is taken here.
    static func read(_ repl: LuaRepl) -> InputLine {
        if repl.runtime.takeInterrupt() { return .interrupted }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity: UInt = 0
        defer { free(buffer) }
        let count = tk_read_line(&buffer, &capacity)
        if count == -2 {
            _ = repl.runtime.takeInterrupt()
            return .interrupted
        }
        guard count >= 0, let buffer else { return .end }
        var bytes = UnsafeRawBufferPointer(start: buffer, count: count)
        // Without its newline, "\r\n" included, as readLine gives it.
        if bytes.last == UInt8(ascii: "\n") { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast()) }
        if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast()) }
        return .line(String(decoding: bytes, as: UTF8.self))
    }
}

func emit(_ text: String) {
    guard !text.isEmpty else { return }
    print(text, terminator: "")
    tk_flush_stdout()
}

/// The libedit front end: prompt, history in the user's data directory, tab completion.
struct Terminal {
    static let banner = "TraitKit REPL (Lua 5.4). tk = require \"traitkit\"; :help for commands, Ctrl-D to leave.\n"
    let repl: LuaRepl

    func run() {
        let history = historyPath()
        if let history { tk_edit_read_history(history) }
        completionSession = repl
        tk_edit_set_completion(complete)
        emit(Self.banner)
        var chunk: [String] = []
        while !repl.wantsQuit {
            guard let raw = tk_edit_readline(repl.prompt) else {
                if repl.runtime.takeInterrupt() {
                    // Ctrl-C at the prompt drops the line (and any unfinished chunk).
                    repl.cancelInput()
                    chunk.removeAll()
                    emit("\n")
                    continue
                }
                emit("\n")
                break
            }
            let line = String(cString: raw)
            free(raw)
            chunk.append(line)
            emit(repl.feed(line))
            // A chunk typed over several lines is one history entry, recalled whole.
            if !repl.isContinuing {
                let entry = chunk.joined(separator: "\n")
                chunk.removeAll()
                if !entry.trimmingSpaces.isEmpty {
                    tk_edit_add_history(entry)
                    if let history { tk_edit_write_history(history) }
                }
            }
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
    let word = String(cString: text)
    let line = lineBeforeCursor() ?? word
    if line.hasPrefix(":"), !line.contains(" ") {
        completionCandidates = session.commandCompletions(for: word)
    } else if let quote = line.dropLast(word.count).last, quote == "\"" || quote == "'" {
        completionCandidates = session.traitNameCompletions(for: word)
    } else {
        completionCandidates = session.completions(for: lineBeforeCursorWord(word))
    }
    return tk_edit_completion_matches(text, nextCandidate)
}

private let nextCandidate: @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>? = { _, state in
    let index = Int(state)
    guard index < completionCandidates.count else { return nil }
    return strdup(completionCandidates[index])
}

/// The input line up to the cursor.
private func lineBeforeCursor() -> String? {
    guard let buffer = tk_edit_line() else { return nil }
    let bytes = Array(String(cString: buffer).utf8)
    return String(decoding: bytes.prefix(max(0, Int(tk_edit_point()))), as: UTF8.self)
}

/// libedit splits words at its break characters, which include `.` and `:`: complete the
/// whole dotted expression before the cursor instead.
private func lineBeforeCursorWord(_ word: String) -> String {
    guard let line = lineBeforeCursor() else { return word }
    let end = line.endIndex
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
