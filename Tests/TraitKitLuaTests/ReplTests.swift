import Foundation
import Testing
@testable import TraitKitLua

@Suite("REPL")
struct ReplTests {
    func session() -> (LuaRepl, () -> String) {
        let repl = LuaRepl()
        var watched = ""
        repl.write = { watched += $0 }
        return (repl, { defer { watched = "" }; return watched })
    }

    @Test func expressionsPrintWithoutEquals() {
        let (repl, _) = session()
        #expect(repl.feed("1 + 2") == "3\n")
        #expect(repl.feed("x = 5") == "")
        #expect(repl.feed("x, 'two', nil") == "5\ttwo\tnil\n")
        #expect(repl.feed("tk.TraitCollection{ displayScale = 2 }") == "<TraitCollection: displayScale = 2>\n")
        #expect(repl.feed("tk.Color.hex('#FF0000')") == "#FF0000FF\n")
    }

    /// A script that makes unknown globals an error (the "strict" idiom) must not take the
    /// REPL down: the prompt read `_PROMPT` with `lua_getglobal`, whose `__index` raised with
    /// no protected call around it, and the process died at the next prompt.
    @Test func strictGlobalsDoNotBreakThePromptOrPrinting() {
        let (repl, _) = session()
        _ = repl.feed("setmetatable(_G, { __index = function(_, k) error('undefined global ' .. k, 2) end, "
                      + "__newindex = function(_, k) error('no new global ' .. k, 2) end })")
        #expect(repl.prompt == "> ")
        #expect(repl.feed("newGlobal = 1").contains("no new global newGlobal"))
        #expect(repl.feed("do rawset(_G, '_PROMPT', 'tk> ') end") == "")
        #expect(repl.prompt == "tk> ")
        #expect(repl.feed("undefinedName").contains("undefined global undefinedName"))
        #expect(repl.feed("{ 1, 2 }") == "{ 1, 2 }\n")
    }

    /// `lua -i` habits keep working: `=expr` on a first line is `return expr`.
    @Test func equalsPrefixReturnsAsInLua() {
        let (repl, _) = session()
        #expect(repl.feed("=1 + 2") == "3\n")
        #expect(repl.feed("=") == "")  // `return` with nothing: no results
        #expect(repl.feed("t = {") == "")
        #expect(repl.feed("=1}").contains("unexpected symbol"))  // only on a chunk's first line
    }

    @Test func tablesArePrettyPrintedWithCycles() {
        let (repl, _) = session()
        #expect(repl.feed("t = { 1, 'a', k = { x = true } }; t.me = t; return t")
                == "{ 1, \"a\", k = { x = true }, me = <cycle> }\n")
        let long = repl.feed("local t = {} for i = 1, 30 do t['key' .. i] = i end return t")
        #expect(long.hasPrefix("{\n  key1 = 1,\n"))
    }

    @Test func incompleteChunksContinue() {
        let (repl, _) = session()
        #expect(repl.feed("function add(a,") == "")
        #expect(repl.isContinuing)
        #expect(repl.prompt == ">> ")
        #expect(repl.feed("  b) return a + b end") == "")
        #expect(!repl.isContinuing)
        #expect(repl.feed("add(2, 3)") == "5\n")
        #expect(repl.feed("x = = 1").contains("unexpected symbol"))
    }

    @Test func promptsFollowPROMPTGlobals() {
        let (repl, _) = session()
        _ = repl.feed("_PROMPT = 'tk> '; _PROMPT2 = 'tk>> '")
        #expect(repl.prompt == "tk> ")
        _ = repl.feed("if true then")
        #expect(repl.prompt == "tk>> ")
    }

    @Test func errorsPrintATracebackAndTheSessionGoesOn() {
        let (repl, _) = session()
        let out = repl.feed("error('boom')")
        #expect(out.hasPrefix("stdin:1: boom\nstack traceback:"))
        #expect(repl.feed("1") == "1\n")
    }

    @Test func updatesRunAfterEachInputUnlessAutoIsOff() {
        let (repl, _) = session()
        _ = repl.feed("w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{ displayScale = 3 } } }")
        _ = repl.feed("w.rootViewController = tk.ViewController{}")
        #expect(repl.feed("w.rootViewController.view.traitCollection.displayScale") == "3.0\n")
        _ = repl.feed(":auto off")
        _ = repl.feed("w.scene.traitOverrides.displayScale = 2")
        #expect(repl.feed("w.rootViewController.view.traitCollection.displayScale") == "3.0\n")
        _ = repl.feed(":auto on")
        _ = repl.feed("")
        #expect(repl.feed("w.rootViewController.view.traitCollection.displayScale") == "2.0\n")
    }

    @Test func treeExplainAndWatch() {
        let (repl, watched) = session()
        _ = repl.feed("Theme = tk.defineTrait{ name = 'ReplTheme', values = {'standard', 'pastel'}, default = 'standard' }")
        _ = repl.feed("scene = tk.WindowScene{ screen = tk.Screen{}, name = 'main' }")
        _ = repl.feed("w = tk.Window{ scene = scene, name = 'w' }; w.rootViewController = tk.ViewController{ name = 'root' }")
        _ = repl.feed("header = tk.View{ name = 'header' }; w.rootViewController.view:addSubview(header)")
        _ = repl.feed("header.traitOverrides.ReplTheme = 'pastel'")
        #expect(repl.feed(":tree w") == "Window 'w'\n  ViewController 'root'\n    View\n      View 'header'  [ReplTheme = pastel]\n")
        // With no node, the tree starts at the screens, where the talk's scene overrides show.
        _ = repl.feed("scene.traitOverrides.horizontalSizeClass = 'compact'")
        #expect(repl.feed(":tree").hasPrefix("Screen\n  WindowScene 'main'  [horizontalSizeClass = compact]\n    Window 'w'\n"))
        #expect(repl.feed(":tree --resolved header") == "View 'header'  [ReplTheme = pastel]  {horizontalSizeClass = compact, ReplTheme = pastel}\n")
        #expect(repl.feed(":explain header ReplTheme") == "ReplTheme = pastel on View 'header': from its own override\n")
        #expect(repl.feed(":watch header ReplTheme").hasPrefix("watching <View 'header'>"))
        _ = watched()
        _ = repl.feed("header.traitOverrides.ReplTheme = nil")
        #expect(watched() == "watch <View 'header'>: ReplTheme pastel -> standard\n")
        #expect(repl.feed(":nope") == "unknown command :nope (try :help)\n")
        #expect(repl.feed(":explian header ReplTheme") == "unknown command :explian (did you mean :explain?)\n")
        // A command's start names it, as in gdb and ghci.
        #expect(repl.feed(":e header ReplTheme") == "ReplTheme = standard on View 'header': the default (nothing sets it)\n")
        #expect(repl.feed(":t header") == "View 'header'\n")
        #expect(repl.feed(":h").hasPrefix("Lua 5.4 with `tk = require \"traitkit\"`."))
    }

    /// A trait may be named in a command as Lua code names it, in quotes; whatever the words,
    /// they reach Lua as strings, never as code (`:watch v "displayScale"` was a syntax error
    /// in the code the command ran).
    @Test func commandsTakeQuotedTraitNamesAndNothingElseAsCode() {
        let (repl, _) = session()
        _ = repl.feed("v = tk.View{ name = 'v' }; leaked = nil")
        #expect(repl.feed(":explain v \"displayScale\"").hasPrefix("displayScale = 0 on View 'v'"))
        #expect(repl.feed(":explain v 'displayScale'").hasPrefix("displayScale = 0 on View 'v'"))
        #expect(repl.feed(":watch v \"displayScale\", userInterfaceStyle") == "watching <View 'v'>: displayScale, userInterfaceStyle\n")
        _ = repl.feed(":watch v displayScale\" .. (function() leaked = true end)() .. \"")
        #expect(repl.feed("leaked") == "nil\n")
    }

    /// Watching a node again replaces its watch; `:unwatch` ends one, or all.
    @Test func watchesAreReplacedAndEnded() {
        let (repl, watched) = session()
        _ = repl.feed("w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }; w.rootViewController = tk.ViewController{ name = 'root' }")
        _ = repl.feed("root = w.rootViewController")
        #expect(repl.feed(":unwatch") == "nothing is watched\n")
        _ = repl.feed(":watch root userInterfaceStyle")
        #expect(repl.feed(":watch root userInterfaceStyle") == "watching <ViewController 'root'>: userInterfaceStyle (instead of what it watched before)\n")
        _ = repl.feed(":watch root.view userInterfaceStyle")
        _ = watched()
        _ = repl.feed("root.overrideUserInterfaceStyle = 'dark'")
        #expect(watched() == "watch <ViewController 'root'>: userInterfaceStyle unspecified -> dark\nwatch <View>: userInterfaceStyle unspecified -> dark\n")
        #expect(repl.feed(":unwatch root") == "stopped watching <ViewController 'root'>\n")
        #expect(repl.feed(":unwatch root") == "<ViewController 'root'> is not watched\n")
        _ = repl.feed("root.overrideUserInterfaceStyle = 'light'")
        #expect(watched() == "watch <View>: userInterfaceStyle dark -> light\n")
        #expect(repl.feed(":unwatch") == "stopped watching 1 node\n")
        _ = repl.feed("root.overrideUserInterfaceStyle = 'dark'")
        #expect(watched() == "")
        #expect(repl.feed(":unwatch 5") == ":unwatch needs a node (a view, view controller, window, scene or screen), and 5 is a number\n")
    }

    /// Ctrl-C ends whatever Lua runs on behalf of an input, the automatic update included (a
    /// handler that loops), and the session goes on.
    /// (In a `traitkit repl` process of its own: SIGINT goes to a whole process.)
    @Test func controlCStopsAHandlerLoopingInTheAutomaticUpdate() throws {
        let process = Process()
        process.executableURL = traitkitBinary
        process.arguments = ["repl"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let lines = """
            screen = tk.Screen{}; w = tk.Window{ scene = tk.WindowScene{ screen = screen } }
            w.rootViewController = tk.ViewController{}
            w.rootViewController:registerForTraitChanges({'userInterfaceStyle'}, function() while true do end end)
            screen:setSystemTraits{ userInterfaceStyle = 'dark' }

            """
        input.fileHandleForWriting.write(Data(lines.utf8))
        Thread.sleep(forTimeInterval: 1)
        process.interrupt()
        input.fileHandleForWriting.write(Data("print('still here', 1 + 1)\n".utf8))
        try input.fileHandleForWriting.close()
        // Before the fix the loop went on and the process never ended.
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("interrupted"), "\(text)")
        #expect(text.contains("still here\t2"), "\(text)")
    }

    @Test func commandsSayWhatTheyNeed() {
        let (repl, watched) = session()
        #expect(repl.feed(":tree").hasPrefix("(no screens"))
        #expect(repl.feed(":tree missing") == ":tree needs a node (a view, view controller, window, scene or screen), and missing is nil\n")
        #expect(repl.feed(":explain 5 displayScale").hasPrefix(":explain needs a node (a view, view controller, window, scene or screen), and 5 is a number"))
        #expect(repl.feed(":watch tk.TraitCollection{}").hasSuffix("and tk.TraitCollection{} is a TraitCollection\n"))
        _ = repl.feed("Insets = tk.defineTrait{ name = 'ReplInsets', default = { top = 0 } }")
        _ = repl.feed("w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }; w.rootViewController = tk.ViewController{ name = 'root' }")
        #expect(repl.feed(":watch w.rootViewController displayScale, ReplInsets") == "watching <ViewController 'root'>: displayScale, ReplInsets\n")
        _ = watched()
        _ = repl.feed("w.scene.screen:setSystemTraits{ displayScale = 2.5, userInterfaceStyle = 'dark' }")
        _ = repl.feed("w.scene.traitOverrides.ReplInsets = { top = 3 }")
        // Values print as collections print them; a record that did not change is not listed.
        #expect(watched() == "watch <ViewController 'root'>: displayScale 0 -> 2.5\nwatch <ViewController 'root'>: ReplInsets {top = 0} -> {top = 3}\n")
    }

    @Test func completionOfGlobalsFieldsMethodsAndTraits() {
        let (repl, _) = session()
        _ = repl.feed("header = tk.View{ name = 'header' }")
        _ = repl.feed("tc = tk.TraitCollection{}")
        #expect(repl.completions(for: "head") == ["header"])
        #expect(repl.completions(for: "tk.Scr") == ["tk.Screen", "tk.ScrollView"])
        #expect(repl.completions(for: "header.trait") == ["header.traitCollection", "header.traitCollectionDidChange", "header.traitOverrides"])
        #expect(repl.completions(for: "header:layoutS") == ["header:layoutSubviews"], "a built-in method (super calls)")
        #expect(repl.completions(for: "tk.ViewController.viewDidL") == ["tk.ViewController.viewDidLayoutSubviews", "tk.ViewController.viewDidLoad"])
        #expect(repl.completions(for: "tk.Label.addS") == ["tk.Label.addSubview"], "a class table's inherited methods")
        #expect(repl.completions(for: "header:regi") == ["header:registerForTraitChanges"])
        #expect(repl.completions(for: "header:super").isEmpty, "a property is not a method")
        #expect(repl.completions(for: "header.traitOverrides.horiz") == ["header.traitOverrides.horizontalSizeClass"])
        #expect(repl.completions(for: "tc.userInterfaceSt") == ["tc.userInterfaceStyle"])
        #expect(repl.completions(for: "tk.traits.display").contains("tk.traits.displayScale"))
        #expect(repl.completions(for: "nosuch.x").isEmpty)
    }

    @Test func loadRunsAFileInTheSession() throws {
        let (repl, _) = session()
        let path = NSTemporaryDirectory() + "repl-load-\(UUID().uuidString).lua"
        try "loaded = 42".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(repl.feed(":load \(path)") == "")
        #expect(repl.feed("loaded") == "42\n")
        #expect(repl.feed(":load /nonexistent.lua") == "cannot read /nonexistent.lua: No such file or directory\n")
        #expect(repl.feed(":load \(NSTemporaryDirectory())") == "cannot read \(NSTemporaryDirectory()): Is a directory\n")
    }

    @Test func pipedInputRunsAsAScriptWithResultsPrinted() throws {
        let result = try traitkit(["repl"], input: "x = 2\nx * 21\nfor i = 1, 2 do\nprint(i) end\n:quit\nprint('not reached')\n")
        #expect(result.status == 0)
        #expect(result.stdout == "42\n1\n2\n")
        // Piped input is a script: a failed input makes the exit status 1.
        let failed = try traitkit(["repl"], input: "x = 1\nerror('boom')\nprint(x)\n")
        #expect(failed.status == 1 && failed.stdout.hasSuffix("1\n"), "\(failed)")
        let quitAfterAFailure = try traitkit(["repl"], input: "error('boom')\n:quit\n")
        #expect(quitAfterAFailure.status == 1, ":quit does not hide a failed input")
    }

    /// `repl --timeout`: a runaway input (or a handler in the update after it) is stopped,
    /// and the session goes on with a fresh allowance for the next input.
    @Test func timeoutStopsOneInputAndTheSessionGoesOn() throws {
        let result = try traitkit(["repl", "--timeout", "0.5"], input: """
            while true do end
            v = tk.View{}; v:registerForTraitChanges({"displayScale"}, function() while true do end end)
            v.traitOverrides.displayScale = 2; v:updateTraitsIfNeeded()
            pcall(function() while true do end end); print("not reached")
            for i = 1, 1e6 do end; print("still here")
            """)
        #expect(result.status == 1, "inputs the limit ended failed")
        #expect(result.stdout.components(separatedBy: "time limit of 0.5 s exceeded").count == 4, "\(result.stdout)")
        #expect(!result.stdout.contains("not reached"))
        #expect(result.stdout.hasSuffix("still here\n"))
    }

    /// An input ended by the memory limit ends there: no update runs after it, and the next
    /// input has the budget back (its update picks up what the ended one changed).
    @Test func anInputEndedByTheMemoryLimitEndsThere() {
        let runtime = LuaRuntime()
        runtime.memoryLimit = 16 * 1024 * 1024
        let repl = LuaRepl(runtime: runtime)
        _ = repl.feed("w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }; w.rootViewController = tk.ViewController{}")
        _ = repl.feed("seen = {}; w.rootViewController.view:registerForTraitChanges({ 'displayScale' }, function(v) seen[#seen + 1] = v.traitCollection.displayScale end)")
        let ended = repl.feed("w.scene.traitOverrides.displayScale = 2; pcall(function() local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(100) .. i end end); print('not reached')")
        #expect(ended == "memory limit of 16 MB exceeded\n")
        #expect(repl.feed("#seen") == "0\n")
        #expect(repl.feed("seen[1]") == "2.0\n")
    }

    /// A top-level `local` typed at the prompt is there at the next one, as in Node's and
    /// Python's REPLs; a `local` inside a block, in a string or with an attribute is not touched.
    @Test func topLevelLocalsOutliveTheirInput() {
        let (repl, _) = session()
        _ = repl.feed("local x = 5")
        #expect(repl.feed("x") == "5\n")
        _ = repl.feed("local a, b")
        #expect(repl.feed("a, b") == "nil\tnil\n")
        _ = repl.feed("local function twice() return x * 2 end")
        #expect(repl.feed("twice()") == "10\n")
        _ = repl.feed("for i = 1, 2 do local inner = i end")
        _ = repl.feed("local s = 'local quoted = 1' -- local commented")
        #expect(repl.feed("inner, quoted, commented, s") == "nil\tnil\tnil\tlocal quoted = 1\n")
        _ = repl.feed("local c <const> = 3")
        #expect(repl.feed("c") == "nil\n")
        _ = repl.feed("local t = {")
        _ = repl.feed("1, 2 }")
        #expect(repl.feed("#t") == "2\n")
    }

    /// A trait object typed alone shows its definition.
    @Test func aTraitShowsItsDefinition() {
        let (repl, _) = session()
        _ = repl.feed("Theme = tk.defineTrait{ name = 'ShownTheme', values = { 'standard', 'pastel' }, affectsColorAppearance = true }")
        #expect(repl.feed("Theme") == "trait ShownTheme: enum (standard, pastel), default standard, affects color appearance\n")
        #expect(repl.feed("tk.traits.horizontalSizeClass").hasPrefix("trait horizontalSizeClass: enum (unspecified, compact, regular), default unspecified"))
        #expect(repl.feed("{ Theme }") == "{ ShownTheme }\n")
    }

    /// Tab after `:` completes commands; inside a string, trait names.
    @Test func completionOfCommandsAndTraitNamesInStrings() {
        let (repl, _) = session()
        #expect(repl.commandCompletions(for: ":t") == [":tree"])
        #expect(repl.commandCompletions(for: "un") == ["unwatch"])
        #expect(repl.traitNameCompletions(for: "userInterfaceSt") == ["userInterfaceStyle"])
    }

    /// `traitkit repl FILE` runs the script, then opens the REPL on its globals (`lua -i`);
    /// a script that fails is reported and the session opens all the same.
    @Test func replRunsAFileFirst() throws {
        let directory = NSTemporaryDirectory() + "traitkit-repl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "answer = 41\nroot = tk.ViewController{ name = 'r' }\n".write(toFile: directory + "/s.lua", atomically: true, encoding: .utf8)
        try "error('broken')\n".write(toFile: directory + "/bad.lua", atomically: true, encoding: .utf8)
        let result = try traitkit(["repl", "-i", directory + "/s.lua"], input: "answer + 1\nroot\n")
        #expect(result.status == 0 && result.stdout == "42\n<ViewController 'r'>\n", "\(result.stdout)\(result.stderr)")
        let bad = try traitkit(["repl", directory + "/bad.lua"], input: "1 + 1\n")
        #expect(bad.status == 1 && bad.stdout.contains("bad.lua:1: broken") && bad.stdout.hasSuffix("2\n"), "\(bad.stdout)")
    }

    /// Through a pseudo-terminal: a chunk typed over several lines comes back whole from
    /// history (one Up arrow), and runs again.
    @Test func aMultiLineChunkIsOneHistoryEntry() throws {
        let script = Self.ptyPreamble(arguments: ", \"repl\"") + """
            read("> ")
            os.write(fd, b"if true then\\r"); read(">> ")
            os.write(fd, b"print('in' .. 'side')\\r"); read(">> ")
            os.write(fd, b"end\\r"); read("inside")
            os.write(fd, b"\\x1b[A\\r"); print("AGAIN:" + repr(read("inside\\r\\n> ")))
            os.write(fd, b":quit\\r"); read("never", 2)
            print("EXIT:" + str(finish()))
            """
        let text = try pty(script)
        #expect(text.contains("AGAIN:") && text.components(separatedBy: "AGAIN:").last!.contains("inside"), "\(text)")
        #expect(text.contains("EXIT:0"))
    }

    @Test func controlDEndsTheSession() throws {
        let script = Self.ptyPreamble(arguments: "") + """
            read("> ")
            os.write(fd, b"while true do end\\r"); read("end"); time.sleep(0.3)
            os.write(fd, b"\\x03"); read("> ")
            os.write(fd, b"\\x04"); read("never", 2)
            print("EXIT:" + str(finish()))
            """
        #expect(try pty(script).contains("EXIT:0"))
    }

    /// A terminal without libedit (here a library by its name that does not load) still gets
    /// prompts and results, with a note that line editing is missing; Ctrl-C at the prompt
    /// drops the unfinished chunk and the session goes on (Swift's readLine spun for ever
    /// after it).
    @Test func aTerminalWithoutLibeditReadsPlainLines() throws {
        let folder = NSTemporaryDirectory() + "traitkit-noedit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "not a library".write(toFile: folder + "/libedit.so.2", atomically: true, encoding: .utf8)
        let script = Self.ptyPreamble(arguments: ", \"repl\"", environment: ["LD_LIBRARY_PATH": folder]) + """
            print("START:" + repr(read("> ")))
            os.write(fd, b"if true then\\r"); read(">> ")
            os.write(fd, b"\\x03"); read("> ")
            os.write(fd, b"6 * 7\\r"); print("AFTER:" + repr(read("42")))
            os.write(fd, b":quit\\r"); read("never", 2)
            print("EXIT:" + str(finish()))
            """
        let text = try pty(script)
        #expect(text.contains("libedit") && text.contains("no line editing"), "\(text)")
        #expect(text.contains("AFTER:'6 * 7\\r\\n42"), "\(text)")
        #expect(text.contains("EXIT:0"), "\(text)")
    }

    /// Ctrl-C while a piped session waits for input ends it, as it ends `lua -` reading a
    /// script: exit status 130 and a note (it spun for ever, Swift's readLine retrying the
    /// read the signal ended).
    @Test func controlCEndsAPipedSession() throws {
        let script = """
            import signal, subprocess, sys, time
            p = subprocess.Popen([sys.argv[1], "repl"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            p.stdin.write(b"x = 41\\nx + 1\\n"); p.stdin.flush()
            p.stdout.readline()  # "42": the session waits for more, or is about to
            time.sleep(0.2)
            p.send_signal(signal.SIGINT)
            try:
                p.wait(timeout=10)  # with standard input still open: no end of input to end it
                print("EXIT:%d %r" % (p.returncode, p.stderr.read().decode()))
            except subprocess.TimeoutExpired:
                p.kill(); p.wait(); print("EXIT:hung")
            """
        let result = try run("/usr/bin/env", ["python3", "-c", script, traitkitBinary.path])
        #expect(result.stdout == "EXIT:130 'traitkit: interrupted\\n'\n", "\(result.stdout)\(result.stderr)")
    }

    /// Python that starts traitkit (argv 1) on a pseudo-terminal with HOME = argv 2 (and the
    /// variables in `environment`) and defines `read(until)`; a test appends what it types and
    /// checks. Waiting for expected output (not for fixed times) keeps it stable on a loaded
    /// machine.
    static func ptyPreamble(arguments: String, environment: [String: String] = [:]) -> String {
        """
        import os, pty, sys, time, select
        pid, fd = pty.fork()
        if pid == 0:
            os.environ["HOME"] = sys.argv[2]
            os.environ.pop("XDG_DATA_HOME", None)
            os.environ.update({\(environment.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", "))})
            os.execv(sys.argv[1], [sys.argv[1]\(arguments)])
        def read(until, t=20):
            # Output up to and including `until` (or whatever came within t seconds), then a
            # moment for libedit to settle into its read, as a person typing would leave.
            out, end = b"", time.time() + t
            while time.time() < end and until.encode() not in out:
                if select.select([fd], [], [], 0.05)[0]:
                    try: out += os.read(fd, 4096)
                    except OSError: break
            time.sleep(0.4)
            return out.decode(errors="replace")
        def finish(t=10):
            # The exit status, or "killed" when traitkit did not end by itself (never hang).
            end = time.time() + t
            while time.time() < end:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done: return status
                time.sleep(0.05)
            os.kill(pid, 9); os.waitpid(pid, 0)
            return "killed"

        """
    }

    /// Runs a Python script that drives traitkit through a pseudo-terminal (argv: binary, home).
    /// Without `home`, a temporary one is made and removed afterwards.
    func pty(_ script: String, home: String? = nil) throws -> String {
        let temporary = NSTemporaryDirectory() + "traitkit-home-\(UUID().uuidString)"
        defer { if home == nil { try? FileManager.default.removeItem(atPath: temporary) } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, traitkitBinary.path, home ?? temporary]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// Through a real pseudo-terminal: completion, Ctrl-C stopping `while true do end`, Ctrl-C
    /// at the prompt, and history written to the user's data directory.
    @Test func terminalSession() throws {
        let home = NSTemporaryDirectory() + "traitkit-home-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let script = Self.ptyPreamble(arguments: ", \"repl\"") + """
            read("> ")
            os.write(fd, b"header = tk.View{ name = 'hd' }\\r"); read("> ")
            os.write(fd, b"header:regi\\t"); print("COMPLETED:" + repr(read("Changes")))
            os.write(fd, b"\\x15while true do end\\r"); read("end"); time.sleep(0.3)
            os.write(fd, b"\\x03"); print("INTERRUPT:" + repr(read("> ")))
            os.write(fd, b"if true then\\r"); read(">> ")
            os.write(fd, b"\\x03"); read("> ")
            os.write(fd, b"6 * 7\\r"); print("AFTER:" + repr(read("42")))
            os.write(fd, b":quit\\r"); read("never", 2)
            print("EXIT:" + str(finish()))
            """
        let text = try pty(script, home: home)
        #expect(text.contains("sterForTraitChanges"), "libedit completed the method name")
        #expect(text.contains("interrupted"))
        #expect(text.contains("AFTER:'6 * 7\\r\\n42"))
        #expect(text.contains("EXIT:0"))
        let history = try String(contentsOfFile: home + "/.local/share/traitkit/history", encoding: .utf8)
        // libedit's history format escapes spaces as \040.
        #expect(history.replacing("\\040", with: " ").contains("while true do end"))
    }
}
