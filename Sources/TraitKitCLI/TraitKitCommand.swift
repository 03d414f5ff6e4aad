import ArgumentParser
import Glibc
import TraitKitLua

/// The `traitkit` command-line tool (DESIGN.md §4).
@main
struct TraitKitCommand: ParsableCommand {
    /// `traitkit FILE.lua ...` is `traitkit run FILE.lua ...`, as `lua FILE` runs a file; a
    /// first word that is neither a command nor a file is an error that names the nearest
    /// command (`traitkit rnu x.lua`). The words after a run's FILE go to the script unparsed.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let commands = ["run", "repl", "dump", "bench", "stubs", "help"]
        if let first = arguments.first, !first.hasPrefix("-"), !commands.contains(first) {
            if first.hasSuffix(".lua") || access(first, F_OK) == 0 {
                arguments.insert("run", at: 0)
            } else {
                printError("traitkit: unknown command '\(first)'" + didYouMean(first, in: commands)
                    + " (commands: run, repl, dump, bench, stubs; or a script file)")
                Glibc.exit(64)  // EX_USAGE, as ArgumentParser exits on a usage error
            }
        }
        guard arguments.first == "run", let file = ScriptOptions.indexOfFile(in: arguments, from: 1) else {
            return main(arguments)
        }
        let scriptArguments = Array(arguments[(file + 1)...])
        do {
            if file == 1 {
                try Run.run(ScriptRun(file: arguments[1], arguments: scriptArguments))
            } else {
                try run(parsing: Array(arguments[...file]), scriptArguments: scriptArguments)
            }
        } catch {
            exit(withError: error)
        }
    }

    /// Runs `run [options] FILE` with the script's arguments, which the parser never sees:
    /// every word after FILE is the script's (DESIGN.md §4), `--help` or
    /// `--generate-completion-script` too, which ArgumentParser answers wherever they are.
    /// With nothing before FILE there is nothing to parse: skipping ArgumentParser, which
    /// reflects over every option of the command, halves the tool's start-up
    /// (CommandLineTests checks that both ways run a script alike).
    private static func run(parsing head: [String], scriptArguments: [String]) throws {
        var command = try parseAsRoot(head)
        if var run = command as? Run {
            run.options.arguments = scriptArguments
            command = run
        }
        try command.run()
    }

    static let configuration = CommandConfiguration(
        commandName: "traitkit",
        abstract: "Run Lua scripts that drive UIKit-style trait hierarchies.",
        version: "traitkit \(version) (\(LuaRuntime.luaRelease))",
        subcommands: [Run.self, Repl.self, Dump.self, Bench.self, Stubs.self])

    /// The release this tool is; `traitkit --version` prints it with the Lua it embeds.
    static let version = "0.1.0"

    /// `traitkit` alone is the REPL. Not a default subcommand: with one, a mistyped command
    /// (`traitkit runn app.lua`) was parsed as the REPL's arguments and answered with its usage.
    func run() throws {
        try Repl.parse([]).run()
    }
}
