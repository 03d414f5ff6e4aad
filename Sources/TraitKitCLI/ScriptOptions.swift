import ArgumentParser
import TraitKit
import TraitKitLua

/// A command that runs a script (`run`, `dump`): the words after its FILE are the script's.
protocol ScriptCommand: ParsableCommand {
    var options: ScriptOptions { get set }
    /// Its options, ScriptOptions' included, that take a value as the next word.
    static var optionsWithValues: Set<String> { get }
}

/// Options shared by the commands that run a script.
struct ScriptOptions: ParsableArguments {
    @Argument(help: "The Lua script to run ('-' reads standard input).")
    var file: String

    @Option(name: .customLong("trait"), help: ArgumentHelp(
        "A system trait for every Screen the script makes, or a custom trait the script defines for every WindowScene, as name=value (repeatable).",
        valueName: "name=value"))
    var traits: [String] = []

    @Flag(help: "Run without io, os (but clock, time, date), debug, dofile/loadfile, C modules or binary chunks.")
    var sandbox = false

    @Option(name: .customLong("memory-limit"), parsing: .unconditional, help: ArgumentHelp("End the script when Lua holds more than MB megabytes.", valueName: "MB"))
    var memoryLimit: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("End the script after S seconds.", valueName: "S"))
    var timeout: Double?

    @Flag(help: "Run the script again, in a fresh state, whenever it or a file it loads changes (Ctrl-C ends).")
    var watch = false

    @Argument(parsing: .captureForPassthrough, help: "Arguments for the script (its `arg` table and `...`): everything after FILE, options included.")
    var arguments: [String] = []

    /// The command-line words before FILE, not parsed: TraitKitCommand.main sets them.
    var wordsBeforeScript: [String] = []

    /// The options above that take a value as the next word, for finding FILE before parsing
    /// (the parser's own list is not public; CommandLineTests checks this one against the help).
    static let optionsWithValues: Set<String> = ["--trait", "--memory-limit", "--timeout"]

    func validate() throws {
        try Self.validateLimits(memoryLimit: memoryLimit, timeout: timeout)
        do { _ = try TraitSettings(traits) } catch { throw ValidationError(error.description) }
    }

    /// `--memory-limit` and `--timeout`, as `run` and `repl` both take them.
    static func validateLimits(memoryLimit: Int?, timeout: Double?) throws {
        if let memoryLimit, memoryLimit <= 0 { throw ValidationError("--memory-limit must be a positive number of MB") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The script and the options it runs with.
    var script: ScriptRun {
        ScriptRun(file: file, arguments: arguments, wordsBeforeScript: wordsBeforeScript, traits: traits,
                  sandbox: sandbox, memoryLimit: memoryLimit, timeout: timeout)
    }
}

func printError(_ message: String) {
    var stderr = StandardError()
    print(message, to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

import Glibc
