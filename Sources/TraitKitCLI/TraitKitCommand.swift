import ArgumentParser
import Glibc
import TraitKit
import TraitKitLua

/// The `traitkit` command-line tool (DESIGN.md §4).
@main
struct TraitKitCommand: ParsableCommand {
    /// `traitkit FILE.lua ...` is `traitkit run FILE.lua ...`, as `lua FILE` runs a file; a
    /// first word that is neither a command nor a file is an error that names the nearest
    /// command (`traitkit rnu x.lua`). The words after FILE of `run` and `dump` go to the
    /// script unparsed.
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
        let command: (any ScriptCommand.Type)? = switch arguments.first {
        case "run": Run.self
        case "dump": Dump.self
        default: nil
        }
        guard let command, let file = indexOfFile(in: arguments, optionsWithValues: command.optionsWithValues) else {
            return main(arguments)
        }
        let scriptArguments = Array(arguments[(file + 1)...])
        // The same words as typed (`run` is not, for `traitkit FILE.lua`), the tool's path first.
        let wordsBefore = Array(CommandLine.arguments.prefix(file + CommandLine.arguments.count - arguments.count))
        do {
            if command == Run.self && file == 1 {
                try Run.run(ScriptRun(file: arguments[1], arguments: scriptArguments, wordsBeforeScript: wordsBefore))
            } else {
                try run(parsing: Array(arguments[...file]), scriptArguments: scriptArguments, wordsBefore: wordsBefore)
            }
        } catch {
            exit(withError: error)
        }
    }

    /// Where FILE is in `words` (the command first): the first word that is no option nor the
    /// value of one of `optionsWithValues` (`-` is standard input; after `--` the next word is
    /// FILE). Nil when there is none, which the parser then reports.
    private static func indexOfFile(in words: [String], optionsWithValues: Set<String>) -> Int? {
        var i = 1
        while i < words.count {
            let word = words[i]
            if word == "--" { return i + 1 < words.count ? i + 1 : nil }
            if word == "-" || !word.hasPrefix("-") { return i }
            i += optionsWithValues.contains(word) ? 2 : 1
        }
        return nil
    }

    /// Runs `run` or `dump` with its options up to FILE and the script's arguments, which the
    /// parser never sees: every word after FILE is the script's (DESIGN.md §4), `--help` or
    /// `--generate-completion-script` too, which ArgumentParser answers wherever they are.
    /// `run FILE` with nothing before FILE has nothing to parse: skipping ArgumentParser, which
    /// reflects over every option of the command, halves the tool's start-up (CommandLineTests
    /// checks that both ways run a script alike).
    private static func run(parsing head: [String], scriptArguments: [String], wordsBefore: [String]) throws {
        var command = try parseAsRoot(head)
        if var scriptCommand = command as? any ScriptCommand {
            scriptCommand.options.arguments = scriptArguments
            scriptCommand.options.wordsBeforeScript = wordsBefore
            command = scriptCommand
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
