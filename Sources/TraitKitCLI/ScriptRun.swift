import ArgumentParser
import TraitKit
import TraitKitLua

/// A script to run and how, as `run` and `dump` take it from the command line (ScriptOptions
/// parses the words up to FILE; TraitKitCommand.main hands it the words after FILE, and
/// makes it without a parser when no option comes before FILE).
struct ScriptRun {
    /// The script's path, or `-` for standard input.
    var file: String
    /// Every word after FILE, options included: the script's (`--` is dropped, scriptArguments).
    var arguments: [String] = []
    /// The command-line words before the script (`traitkit`, `run`, options), which `lua`
    /// puts at arg[-n]...arg[-1] (TraitKitCommand.main, which finds FILE, gives them).
    var wordsBeforeScript: [String] = []
    /// `--trait` values, as `name=value`.
    var traits: [String] = []
    var sandbox = false
    var memoryLimit: Int?
    var timeout: Double?

    /// The script's arguments: `--` ends traitkit's options (`run app.lua -- --trait x` gives
    /// the script `--trait x`) and is not one of them, as in other tools.
    var scriptArguments: [String] {
        guard let end = arguments.firstIndex(of: "--") else { return arguments }
        var rest = arguments
        rest.remove(at: end)
        return rest
    }

    /// A runtime set up as the options say, with `extraTraits` (`name=value`) after `--trait`'s.
    func makeRuntime(extraTraits: [String] = []) throws -> LuaRuntime {
        let runtime = LuaRuntime(sandbox: sandbox)
        runtime.traitSettings = try TraitSettings(traits + extraTraits)
        if let memoryLimit { runtime.memoryLimit = memoryLimit * 1024 * 1024 }
        if let timeout { runtime.timeout = timeout }
        return runtime
    }

    /// Runs the script; on failure prints `traitkit: message` and throws ExitCode(1).
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
        let arguments = scriptArguments
        runtime.setScriptArguments(script: file, arguments: arguments, preceding: wordsBeforeScript)
        if let message = runtime.run(script: source, name: chunkName, arguments: arguments) { return message }
        return runtime.traitSettings.unmatched
    }
}
