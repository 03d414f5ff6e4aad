import ArgumentParser
import Glibc
import TraitKit
import TraitKitLua

/// `traitkit dump`: runs a script and one more update, then prints the hierarchy from the
/// screens down, in one of several formats, once (`--watch`: after every change) or once per
/// combination of trait values (`--matrix`).
struct Dump: ScriptCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Run a script, then print every screen's hierarchy.",
        discussion: """
            Formats: text (an indented tree), json, dot (Graphviz: dot -Tsvg), mermaid (a \
            flowchart for Markdown hosts), html (a self-contained inspector page). \
            --matrix name=v1,v2 (repeatable) runs the script once per combination of values and \
            prints the traits that differ between them, node by node.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, dot, mermaid, html
    }

    @Option(help: "text, json, dot, mermaid or html.")
    var format: Format = .text

    @Flag(help: "The same as --format json.")
    var json = false

    @Flag(help: "Show every node's resolved values (those not at their default) in the text tree.")
    var resolved = false

    @Option(help: ArgumentHelp("Traits whose resolved values the dot and mermaid pictures show, comma-separated.",
                               valueName: "name,name"))
    var traits: String?

    @Option(help: ArgumentHelp("Write the dump to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Run once per value of a trait (repeatable: every combination) and compare.",
                               valueName: "name=v1,v2"))
    var matrix: [String] = []

    @OptionGroup var options: ScriptOptions

    static let optionsWithValues = ScriptOptions.optionsWithValues.union(["--format", "--traits", "--output", "--matrix"])

    var chosenFormat: Format { json ? .json : format }

    func validate() throws {
        if json && format != .text && format != .json { throw ValidationError("--json and --format \(format) disagree") }
        if !matrix.isEmpty {
            if options.watch { throw ValidationError("--matrix and --watch cannot be combined") }
            if chosenFormat != .text && chosenFormat != .json {
                throw ValidationError("--matrix prints a table, or JSON with --json (not --format \(format))")
            }
            for axis in try matrix.map(Matrix.Axis.init) {
                for value in axis.values {
                    do { _ = try TraitSettings(["\(axis.name)=\(value)"]) } catch {
                        throw ValidationError("--matrix: \(error.description)")
                    }
                }
            }
        }
        if traits != nil && chosenFormat != .dot && chosenFormat != .mermaid {
            throw ValidationError("--traits chooses what the dot and mermaid pictures show (use --resolved for text)")
        }
    }

    func run() throws {
        if !matrix.isEmpty { return try runMatrix(Matrix(axes: matrix.map(Matrix.Axis.init))) }
        if options.watch {
            let reporter = ChangeReporter()
            try Watcher(script: options.script.file).run { dumpWatched(reporter) }
        }
        let (runtime, snapshot) = runAndUpdate(extraTraits: [])
        defer { runtime?.close() }
        guard let snapshot else { throw ExitCode(1) }
        try write(try render(snapshot))
    }

    /// Runs the script and one more update with the script's own output on standard error, so
    /// standard output is the dump alone (`traitkit dump --json app.lua | jq` works); prints
    /// the error and gives no snapshot when either fails. The caller closes the runtime.
    private func runAndUpdate(extraTraits: [String], recording: Bool = false) -> (LuaRuntime?, HierarchySnapshot?) {
        let runtime: LuaRuntime
        do { runtime = try options.script.makeRuntime(extraTraits: extraTraits) } catch {
            printError("traitkit: \(error)")
            return (nil, nil)
        }
        if recording { runtime.recordLoadedFiles() }
        var failure: String?
        withStandardOutputOnStandardError {
            failure = options.script.execute(in: runtime)
            if failure == nil { do { try runtime.update() } catch { failure = "\(error)" } }
        }
        if let failure {
            printError("traitkit: " + failure)
            return (runtime, nil)
        }
        let snapshot = HierarchySnapshot(runtime.application)
        if snapshot.screens.isEmpty {
            printError("traitkit dump: the script left no screens (a tree starts at a tk.Screen)")
        }
        return (runtime, snapshot)
    }

    private func render(_ snapshot: HierarchySnapshot) throws -> String {
        switch chosenFormat {
        case .text: return snapshot.screens.isEmpty ? "" : snapshot.treeDescription(resolved: resolved) + "\n"
        case .json: return snapshot.json.serialized(indent: 2) + "\n"
        case .dot: return DotFormat.render(snapshot, traits: try chosenTraits())
        case .mermaid: return MermaidFormat.render(snapshot, traits: try chosenTraits())
        case .html: return InspectorPage.render(snapshot, title: options.script.file)
        }
    }

    /// The traits `--traits` names, which the script may have defined.
    private func chosenTraits() throws -> [Trait] {
        guard let traits else { return [] }
        let all = TraitRegistry.all
        return try traits.split(separator: ",").map { name in
            guard let trait = all.first(where: { $0.name == name }) else {
                printError("traitkit: unknown trait '\(printable(String(name)))' in --traits"
                    + didYouMean(String(name), in: all.map(\.name)))
                throw ExitCode(1)
            }
            return trait
        }
    }

    private func write(_ text: String) throws {
        guard let output else {
            print(text, terminator: "")
            return
        }
        // stdio rather than Foundation, for the C library's reason in the message.
        guard let file = fopen(output, "w") else {
            printError("traitkit: cannot write \(output): \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
        let written = text.utf8.withContiguousStorageIfAvailable { fwrite($0.baseAddress, 1, $0.count, file) }
            ?? Array(text.utf8).withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        let failed = written != text.utf8.count || fclose(file) != 0
        if failed {
            printError("traitkit: cannot write \(output): \(String(cString: strerror(errno)))")
            throw ExitCode(1)
        }
    }

    /// One run of `--watch`: the dump (to standard output or --output), or the run's error,
    /// then what changed since the last good run.
    private func dumpWatched(_ reporter: ChangeReporter) -> [String] {
        let (runtime, snapshot) = runAndUpdate(extraTraits: [], recording: true)
        defer { runtime?.close() }
        do {
            guard let snapshot else { throw ExitCode(1) }
            try write(try render(snapshot))
            reporter.report(HierarchySummary(snapshot))
        } catch {
            printError("traitkit: waiting for the next change")
        }
        return runtime?.loadedFiles ?? []
    }

    private func runMatrix(_ matrix: Matrix) throws {
        var runs: [HierarchySummary] = []
        for settings in matrix.combinations {
            let (runtime, snapshot) = runAndUpdate(extraTraits: settings)
            defer { runtime?.close() }
            guard let snapshot else {
                printError("traitkit: (the run with \(settings.joined(separator: " ")))")
                throw ExitCode(1)
            }
            runs.append(HierarchySummary(snapshot))
        }
        try write(chosenFormat == .json ? matrix.json(runs).serialized(indent: 2) + "\n" : matrix.table(runs))
    }
}
