import Foundation
import Testing

/// `require "traitkit"` from Debian's stock `lua5.4`, with the C module Scripts/build-lua-module
/// builds (Scripts/test builds it first): every example prints what `traitkit run` prints.
/// `$TRAITKIT_LUA` names another interpreter: Scripts/check-lua-api runs these tests under
/// Lua's own, built on the library with the API checks, so the module's calls are checked too.
@Suite("The C module under lua5.4")
struct CModuleTests {
    static let module = packageRoot.appendingPathComponent(".build/lua/traitkit.so").path
    static let lua = ProcessInfo.processInfo.environment["TRAITKIT_LUA"] ?? "/usr/bin/lua5.4"

    /// Runs `arguments` with lua5.4, the module first on its C path.
    static func lua(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
        try #require(FileManager.default.fileExists(atPath: module), "no \(module): run Scripts/build-lua-module")
        try #require(FileManager.default.isExecutableFile(atPath: lua), "no lua5.4 (Debian's lua5.4 package)")
        return try run(lua, arguments, input: input,
                       environment: ["LUA_CPATH": packageRoot.appendingPathComponent(".build/lua").path + "/?.so;;"])
    }

    @Test(arguments: ExamplesTests.examples)
    func everyExamplePrintsWhatTraitkitRunPrints(_ example: String) throws {
        let result = try Self.lua(["Examples/" + example])
        #expect(result.status == 0, "\(example): \(result.stderr)")
        let expected = try String(contentsOf: ExamplesTests.folder.appendingPathComponent(
            "expected/" + example.replacingOccurrences(of: ".lua", with: ".txt")), encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func theModuleLinksNoLuaAndExportsOnlyItsEntry() throws {
        let ldd = try run("/usr/bin/ldd", [Self.module])
        #expect(!ldd.stdout.contains("liblua"), "the interpreter provides Lua")
        #expect(!ldd.stdout.contains("libswift"), "Swift's runtime is inside the module")
        // Global symbols have an upper-case type letter in nm's listing.
        let symbols = try run("/usr/bin/nm", ["-D", "--defined-only", Self.module])
        let exported = symbols.stdout.split(separator: "\n").map { $0.split(separator: " ") }
            .filter { $0.count == 3 && $0[1].first!.isUppercase }.map { String($0[2]) }
        #expect(exported == ["luaopen_traitkit"], "\(exported)")
    }

    /// The binding keeps its rules in a state it did not make: errors are Lua errors with
    /// positions, handlers do not pin their nodes, coroutines made before the require work, a
    /// second require gives the same module, and the state closes cleanly at exit.
    @Test func theBindingBehavesInTheInterpretersState() throws {
        let result = try Self.lua(["-"], input: """
            local co = coroutine.create(function()
              local tk = require "traitkit"
              local v = tk.View{ name = "early" }
              coroutine.yield(v.name)
              v.traitOverrides.userInterfaceStyle = "dark"
              v:updateTraitsIfNeeded()
              return v.traitCollection.userInterfaceStyle
            end)
            print(select(2, coroutine.resume(co)), select(2, coroutine.resume(co)))
            local tk = require "traitkit"
            print(tk == package.loaded.traitkit)
            collectgarbage(); collectgarbage()
            local before = collectgarbage("count")
            for i = 1, 20000 do local v = tk.View{}; v:registerForTraitChanges({"userInterfaceStyle"}, function() return v end) end
            collectgarbage(); collectgarbage()
            print(collectgarbage("count") - before < 200)
            print(pcall(function() tk.View{ nmae = "x" } end))
            package.loaded.traitkit = nil
            print(require "traitkit" == tk)
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("early\tdark\ntrue\ntrue\nfalse\tstdin:17: unknown field 'nmae' in View{...} (did you mean 'name'?)"),
                "\(result.stdout)")
        #expect(result.stdout.hasSuffix("\ntrue\n"), "require after clearing package.loaded: \(result.stdout)")
    }

    /// Closing the state finalizes the module's own sentinel before the objects made before
    /// the `require`: their finalizers may still reach the module, and get an error, where
    /// they reached a released runtime and crashed the interpreter.
    @Test func finalizersThatRunAfterTheModulesGetAnError() throws {
        let result = try Self.lua(["-"], input: """
            local view
            local early = setmetatable({}, { __gc = function()
              local tk = package.loaded.traitkit
              print(pcall(tk.View, { name = "late" }))
              print(pcall(tk.update))
              print(pcall(function() return view.traitCollection.userInterfaceStyle end))
            end })
            local tk = require "traitkit"
            view = tk.View{ name = "made" }
            view:registerForTraitChanges({ "userInterfaceStyle" }, function() end)
            print(view.traitCollection.userInterfaceStyle)
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let refusal = "traitkit cannot be used once its Lua state is closing (a finalizer that runs after the module's own)"
        #expect(result.stdout == """
            unspecified
            false\t\(refusal)
            false\t\(refusal)
            false\tstdin:6: \(refusal)

            """)
    }

    /// The bad-input sweep (`BadInputTests`) through the module: its calls reach the engine
    /// from a state the binding did not make.
    @Test func randomBadCallsNeverCrashOrCorrupt() throws {
        let result = try Self.lua(["Tests/Fuzz/bad_input.lua", "7", "100000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("bad input: 100000 calls, seed 7, hierarchy whole"))
    }

    /// A `require` inside a coroutine: the runtime keeps the state's main thread, not the
    /// coroutine, which may stay suspended (calls on it are refused: the API-checked
    /// interpreter aborts) or be collected (valgrind saw reads of its freed stack).
    @Test func aRequireInsideACoroutineLeavesTheRuntimeTheMainThread() throws {
        let result = try Self.lua(["-"], input: """
            local co = coroutine.create(function() coroutine.yield(require "traitkit"); return "finished" end)
            local _, tk = coroutine.resume(co)
            local Card = tk.View:subclass("Card")
            local calls = 0
            function Card:layoutSubviews() calls = calls + 1 end
            local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            window.rootViewController = tk.ViewController{}
            local card = Card{ name = "card" }
            window.rootViewController.view:addSubview(card)
            card:registerForTraitChanges({ "userInterfaceStyle" }, function() calls = calls + 100 end)
            tk.update()
            window.rootViewController.traitOverrides.userInterfaceStyle = "dark"
            tk.update()
            print(calls, coroutine.status(co), select(2, coroutine.resume(co)))
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "101\tsuspended\tfinished\n")
    }

    /// A program may open the module without `require`, in a state without the package
    /// library (no table of loaded modules yet): the module makes that table, as
    /// luaL_requiref does, where it wrote into nothing and crashed.
    @Test func theModuleOpensInAStateWithoutThePackageLibrary() throws {
        let result = try Self.lua(["-"], input: """
            local open = assert(package.loadlib("\(Self.module)", "luaopen_traitkit"))
            debug.getregistry()._LOADED = nil
            local tk = open()
            local v = tk.View{ name = "bare" }
            v.traitOverrides.userInterfaceStyle = "dark"
            v:updateTraitsIfNeeded()
            print(v.name, v.traitCollection.userInterfaceStyle, debug.getregistry()._LOADED.traitkit == tk)
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "bare\tdark\ttrue\n")
    }

    /// A program with an allocator of its own (Tests/CModuleHost/allocator_host.c: a header
    /// before each block, and a limit) loads the module: every block the state uses is that
    /// allocator's and goes back to it, and a refusal while Swift frames are on top is served
    /// from the C library, then raised once back in C. The module used to put in its own
    /// allocator, which freed the program's blocks with free(): glibc aborted at the first.
    @Test func aProgramsOwnAllocatorKeepsEveryBlock() throws {
        let host = try Self.buildAllocatorHost()
        defer { try? FileManager.default.removeItem(atPath: host) }
        let modules = packageRoot.appendingPathComponent(".build/lua").path
        for (arguments, first) in [([modules], "true"), ([modules, "400000"], "refused")] {
            let result = try run(host, arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout == "\(first)\nin use after close: 0\n", "\(arguments)")
        }
    }

    /// A program that makes, uses and closes a state after another (a state per request)
    /// stays the same size: closing a state releases its runtime and everything it held, and
    /// its limits go with its last block. Each state kept its runtime (about 26 kB) while the
    /// sentinel that releases it was made after the module's own objects, whose finalizers
    /// then ran too late to let go of them.
    @Test func closedStatesLeaveNothingBehind() throws {
        let host = try Self.buildAllocatorHost()
        defer { try? FileManager.default.removeItem(atPath: host) }
        let result = try run(host, [packageRoot.appendingPathComponent(".build/lua").path, "states", "500"])
        #expect(result.status == 0, "\(result.stderr)")
        let grown = Int(result.stdout.split(separator: " ").dropFirst().first ?? "") ?? .max
        #expect(grown < 2048, "480 states made and closed grew the process by \(grown) kB")
    }

    /// Builds a copy of the allocator host with the first C compiler found (the toolchain's clang sits
    /// beside swift), against the system's liblua5.4 (the API-checked pass puts its own first
    /// on LD_LIBRARY_PATH).
    static func buildAllocatorHost() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        let compilers = path.split(separator: ":").flatMap { dir in ["clang", "cc", "gcc"].map { "\(dir)/\($0)" } }
        let compiler = try #require(compilers.first { FileManager.default.isExecutableFile(atPath: $0) }, "no C compiler in PATH")
        // A path of its own per build: the tests that use it run in parallel, and one removing
        // or rebuilding a shared file under the other failed it ("Text file busy").
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("allocator_host-\(UUID().uuidString)").path
        let build = try run(compiler, ["-o", output, "Tests/CModuleHost/allocator_host.c", "-I/usr/include/lua5.4",
                                       "-llua5.4"])
        try #require(build.status == 0, "building the allocator host: \(build.stderr)")
        return output
    }

    /// The tampering script (`BadInputTests`) through the module.
    @Test func replacedUserValuesAndMetatablesNeverCrash() throws {
        let result = try Self.lua(["Tests/Fuzz/tampering.lua"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "replaced 459 values\nreplaced at least 10 registry slots\n")
    }

    /// The module finds its limits in the registry, a lookup that takes a stack slot: a call
    /// that made room for exactly its function and arguments (`tk.async` with many) still
    /// runs, and stays within its room (under the API-checked interpreter an overrun aborts).
    @Test func aDeferredCallWithManyArgumentsRuns() throws {
        let result = try Self.lua(["-"], input: """
            local tk = require "traitkit"
            local counts = {}
            for _, n in ipairs{ 17, 18, 19, 20, 40, 200 } do
              tk.async(function(...) counts[#counts + 1] = select("#", ...) end, table.unpack({}, 1, n))
            end
            tk.update()
            print(table.concat(counts, " "))
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "17 18 19 20 40 200\n")
    }
}
