import ArgumentParser
import TraitKit
import TraitKitLua

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

    /// The script's arguments: `--` ends traitkit's options (`run app.lua -- --trait x` gives
    /// the script `--trait x`) and is not one of them, as in other tools.
    var scriptArguments: [String] {
        guard let end = arguments.firstIndex(of: "--") else { return arguments }
        var rest = arguments
        rest.remove(at: end)
        return rest
    }

    /// The command-line words before the script (`traitkit`, `run`, options), which `lua`
    /// puts at arg[-n]...arg[-1]; an option's value is never taken for the script.
    var wordsBeforeScript: [String] {
        let words = CommandLine.arguments
        var i = 1
        while i < words.count, words[i] != file {
            if ["--trait", "--memory-limit", "--timeout"].contains(words[i]) { i += 1 }
            i += 1
        }
        return Array(words.prefix(min(i, words.count)))
    }

    func validate() throws {
        try Self.validateLimits(memoryLimit: memoryLimit, timeout: timeout)
        do { _ = try TraitSettings(traits) } catch { throw ValidationError(error.description) }
    }

    /// `--memory-limit` and `--timeout`, as `run` and `repl` both take them.
    static func validateLimits(memoryLimit: Int?, timeout: Double?) throws {
        if let memoryLimit, memoryLimit <= 0 { throw ValidationError("--memory-limit must be a positive number of MB") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// A runtime set up as the options say, with `extraTraits` (`name=value`) after `--trait`'s.
    func makeRuntime(extraTraits: [String] = []) throws -> LuaRuntime {
        let runtime = LuaRuntime(sandbox: sandbox)
        runtime.traitSettings = try TraitSettings(traits + extraTraits)
        if let memoryLimit { runtime.memoryLimit = memoryLimit * 1024 * 1024 }
        if let timeout { runtime.timeout = timeout }
        return runtime
    }

    /// Runs the script; on failure prints `traitkit: message` and exits 1.
    func run(in runtime: LuaRuntime) throws {
        if let message = execute(in: runtime) {
            printError("traitkit: " + message)
            throw ExitCode(1)
        }
    }

    /// Runs the script (FILE, or standard input for `-`); returns the error message, or nil
    /// when it ran.
    func execute(in runtime: LuaRuntime) -> String? {
        let source: [UInt8]
        let chunkName = file == "-" ? "=stdin" : "@" + file
        if file == "-" {
            source = readStandardInput()
        } else {
            do { source = try readSource(file) } catch { return "\(error)" }
        }
        runtime.setScriptArguments(script: file, arguments: scriptArguments, preceding: wordsBeforeScript)
        if let message = runtime.run(script: source, name: chunkName, arguments: scriptArguments) { return message }
        return runtime.traitSettings.unmatched
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
