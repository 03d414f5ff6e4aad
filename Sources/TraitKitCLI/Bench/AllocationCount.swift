import CLua
import CSupport
import Glibc
import TraitKit
import TraitKitLua

/// The heap blocks a whole-script phase or a single operation allocates, by Lua and outside
/// Lua (Swift objects and arrays, the binding's C blocks). Blocks outside Lua are counted in a
/// child process started with the allocation counter preloaded (`Scripts/allocation-counter.c`,
/// which Scripts/build puts beside the binary): counting needs every `malloc` of the process
/// to go through the counter, so it is done in a child, once per workload, and the timed runs
/// allocate straight from glibc.
enum AllocationCount {
    static let library = "libtraitkit-allocation-counter.so"

    /// Blocks the process allocated so far, when it was started with the counter preloaded;
    /// nil otherwise.
    static func blocks() -> Int? {
        guard let symbol = dlsym(nil, "tk_allocated_blocks") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) () -> Int).self)()
    }

    /// Gives a workload's script `allocations()`: the blocks Lua allocated so far (the state
    /// counts them from now on), the bytes the heap holds outside Lua (glibc's count of bytes
    /// in use, less what Lua holds), and the blocks allocated outside Lua so far (0 unless the
    /// counter is preloaded).
    static func provide(to runtime: LuaRuntime) {
        runtime.countsAllocations = true
        tk_pushswift(runtime.L, allocations)
        lua_setglobal(runtime.L, "allocations")
    }

    private static let allocations: @convention(c) (OpaquePointer?) -> Int32 = { L in
        let limits = tk_limits(L).pointee
        lua_pushinteger(L, lua_Integer(limits.allocations))
        lua_pushinteger(L, lua_Integer(tk_malloc_in_use()) - lua_Integer(limits.used))
        lua_pushinteger(L, blocks().map { lua_Integer($0) - lua_Integer(limits.allocations) } ?? 0)
        return 3
    }

    /// Runs `traitkit bench --count-allocations SIZES` with the counter preloaded: what that
    /// child prints, by workload (a size, or `single` for the single operations) and key
    /// (`tk.build.blocks`, `View{}.lua`, ...); or why there is nothing.
    static func inChild(sizes: [Int]) -> Result<[String: [String: Double]], CountError> {
        guard let executable = selfPath() else { return .failure(CountError("cannot read /proc/self/exe")) }
        let counter = String(executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)]) + "/" + library
        guard access(counter, R_OK) == 0 else {
            return .failure(CountError("\(library) is not beside traitkit (Scripts/build builds it)"))
        }
        let arguments = [executable, "bench", "--count-allocations", sizes.map(String.init).joined(separator: ",")]
        guard let output = outputOf(arguments, preloading: counter) else {
            return .failure(CountError("the counting run failed"))
        }
        var counts: [String: [String: Double]] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count == 3, let value = Double(fields[2]) else { continue }
            counts[String(fields[0]), default: [:]][String(fields[1])] = value
        }
        return .success(counts)
    }

    /// Why blocks outside Lua were not counted.
    struct CountError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func selfPath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What `arguments` prints on standard output, run with `library` added to LD_PRELOAD;
    /// nil when it cannot start or does not exit 0. Its standard error is this process's.
    private static func outputOf(_ arguments: [String], preloading library: String) -> String? {
        var environment: [String] = []
        var preload = library
        var entry = environ
        while let variable = entry.pointee {
            let text = String(cString: variable)
            if text.hasPrefix("LD_PRELOAD=") { preload += ":" + text.dropFirst("LD_PRELOAD=".count) } else { environment.append(text) }
            entry += 1
        }
        environment.append("LD_PRELOAD=" + preload)
        // Both ends close in the child on exec; its standard output is the write end's copy.
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return nil }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let pid = spawn(arguments, environment: environment, output: pipeEnds[1])
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard let pid else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipeEnds[0], &chunk, chunk.count)
            if count > 0 { bytes += chunk[..<count] } else if count < 0 && errno == EINTR { continue } else { break }
        }
        return waitForExit(pid) == 0 ? String(decoding: bytes, as: UTF8.self) : nil
    }
}

/// A figure's heap blocks per view (whole-script phases) or per operation: by Lua, outside Lua
/// (nil when the counting child did not run), the bytes the heap grew outside Lua, and the
/// pure-Lua side's where the figure has one.
struct Allocations {
    let per: String
    let lua: Double
    var outsideLua: Double? = nil
    var bytesOutsideLua: Double? = nil
    var pureLua: Double? = nil
    var pureOutsideLua: Double? = nil

    /// "allocations per view: 5 by Lua, 1.5 outside Lua (268 bytes); pure Lua: 15.3 by Lua, 0 outside Lua"
    var description: String {
        func number(_ x: Double) -> String { BenchReport.format(x) }
        var outside = outsideLua.map { "\(number($0)) outside Lua" } ?? ""
        if let bytes = bytesOutsideLua {
            outside = outside.isEmpty ? "\(number(bytes)) bytes outside Lua" : "\(outside) (\(number(bytes)) bytes)"
        }
        var text = "allocations per \(per): \(number(lua)) by Lua" + (outside.isEmpty ? "" : ", \(outside)")
        if let pureLua {
            text += "; pure Lua: \(number(pureLua)) by Lua" + (pureOutsideLua.map { ", \(number($0)) outside Lua" } ?? "")
        }
        return text
    }

    /// `{"per": "view", "lua": 5, "outsideLua": 1.5, ...}`, without the fields not measured.
    var json: JSON {
        var pairs: [(String, JSON)] = [("per", .string(per)), ("lua", .number(lua))]
        let optional: [(String, Double?)] = [("outsideLua", outsideLua), ("bytesOutsideLua", bytesOutsideLua),
                                            ("pureLua", pureLua), ("pureOutsideLua", pureOutsideLua)]
        for case let (key, value?) in optional { pairs.append((key, .number(value))) }
        return .object(pairs)
    }
}
