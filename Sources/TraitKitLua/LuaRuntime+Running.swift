import CLua
import TraitKit

/// Running Lua code from Swift: chunks and script files, protected calls with a traceback,
/// error messages, the script's `arg` and the globals tools read back.
extension LuaRuntime {
    /// Loads and runs a chunk; returns nil, or the error message (with traceback).
    public func run(chunk: String, name: String, arguments: [String] = []) -> String? {
        var chunk = chunk
        return chunk.withUTF8 { run(bytes: $0, name: name, arguments: arguments) }
    }

    /// Loads and runs a script file's bytes as `lua` runs a file: a byte-order mark and a
    /// `#` first line are skipped, and outside the sandbox a precompiled chunk runs too.
    public func run(script bytes: [UInt8], name: String, arguments: [String] = []) -> String? {
        skippingPrelude(bytes).withUnsafeBufferPointer { run(bytes: $0, name: name, arguments: arguments) }
    }

    private func run(bytes: UnsafeBufferPointer<UInt8>, name: String, arguments: [String]) -> String? {
        beginRun()
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        let handler = pushMessageHandler(L)
        let status = bytes.withMemoryRebound(to: CChar.self) {
            tk_loadbuffer(L, $0.baseAddress, $0.count, name, sandboxed ? "t" : "bt")
        }
        if status != LUA_OK { return errorMessage(at: -1) }
        // As lua.c does: the arguments go on the stack, so there must be room for them.
        guard lua_checkstack(L, Int32(clamping: arguments.count + 3)) != 0 else {
            return "too many script arguments (\(arguments.count))"
        }
        for argument in arguments { push(L, argument) }
        if tk_pcall(L, Int32(arguments.count), 0, handler) != LUA_OK { return errorMessage(at: -1) }
        return nil
    }

    /// The error at `i` as text, saying plainly when a limit ended the run.
    func errorMessage(at i: Int32) -> String { errorMessage(L, at: i) }

    func errorMessage(_ L: LuaState, at i: Int32) -> String {
        if limits.pointee.memory_error != 0 {
            limits.pointee.memory_error = 0
            // Give back what the failed code left behind, so the state stays usable.
            tk_fullgc(L)
            return "memory limit of \(limits.pointee.limit / (1024 * 1024)) MB exceeded"
        }
        return string(L, i) ?? "(error object is a \(String(cString: lua_typename(L, lua_type(L, i)))) value)"
    }

    /// Calls the function below `nargs` arguments on the main thread's stack, protected, with
    /// a traceback (the engine's callbacks: handlers, lifecycle methods, providers).
    func protectedCall(nargs: Int32, nresults: Int32 = 0) throws {
        try protectedCall(L, nargs: nargs, nresults: nresults)
    }

    /// Calls the function below `nargs` arguments on `L`'s stack, protected, with a traceback;
    /// throws the failure as a `LuaCallError`. Leaves the stack as it found it minus the call.
    /// A Swift function called from Lua passes the state it was called with: inside a
    /// coroutine that is the coroutine, whose stack holds the function and its arguments.
    func protectedCall(_ L: LuaState, nargs: Int32, nresults: Int32 = 0) throws {
        let base = lua_gettop(L) - nargs
        _ = pushMessageHandler(L)
        tk_insert(L, base)
        do {
            try protectedCall(L, nargs: nargs, nresults: nresults, handler: base)
        } catch {
            lua_settop(L, base - 1)
            throw error
        }
        tk_remove(L, base)
    }

    /// The same call with the traceback handler already at `handler`, below the function
    /// (`pushMessageHandler`): callers that push it first spare the two stack rotations per
    /// call, the cost of a fired handler that matters on large trees. Pops the error on failure.
    func protectedCall(_ L: LuaState, nargs: Int32, nresults: Int32, handler: Int32) throws {
        // Lua code run while the engine records reads must read through Swift (tk_collection_index):
        // collections that answer reads from a table go back to the shared metatable first.
        let savedTracking = limits.pointee.tracking_reads
        limits.pointee.tracking_reads = TraitCollection.isRecordingReads ? 1 : 0
        if limits.pointee.tracking_reads != 0, savedTracking == 0 { demoteCollections(L) }
        defer {
            if savedTracking != 0, limits.pointee.tracking_reads == 0 { demoteCollections(L) }
            limits.pointee.tracking_reads = savedTracking
        }
        let status = tk_pcall(L, nargs, nresults, handler)
        if status != LUA_OK {
            let passable = status == LUA_ERRRUN && limits.pointee.memory_error == 0
            let message = errorMessage(L, at: -1)
            tk_pop(L, 1)
            throw LuaCallError(description: message, passable: passable,
                               valueNumber: passable ? keepErrorValue(L) : 0)
        }
    }

    /// Pushes the traceback handler every protected call runs with; returns its index.
    func pushMessageHandler(_ L: LuaState) -> Int32 {
        lua_pushcclosure(L, tk_msghandler, 0)
        return lua_gettop(L)
    }

    /// Sends every collection with a metatable of its own back to the shared one, so the
    /// reads of Lua code about to run reach the engine's read tracking (tk_collection_index.h). Never raises.
    private func demoteCollections(_ L: LuaState) {
        pushRef(L, promotedCollectionsRef)
        pushRef(L, metatableRefs[Int(LuaObject.Kind.collection.rawValue)])
        tk_demote_collections(L, -2, -1)
        tk_pop(L, 2)
    }

    /// Sets the global `arg` as `lua` does: arg[0] the script, arg[1...] its arguments, and
    /// the command-line words before the script (the tool, its options) at arg[-n]...arg[-1].
    public func setScriptArguments(script: String, arguments: [String], preceding: [String] = []) {
        lua_createtable(L, Int32(arguments.count), Int32(preceding.count + 1))
        for (n, word) in preceding.reversed().enumerated() {
            push(L, word)
            lua_rawseti(L, -2, lua_Integer(-1 - n))
        }
        push(L, script)
        lua_rawseti(L, -2, 0)
        for (n, argument) in arguments.enumerated() {
            push(L, argument)
            lua_rawseti(L, -2, lua_Integer(n + 1))
        }
        rawSetGlobal(L, "arg")
    }

    /// The number at `table.key` in the globals, if there is one (for tools reading results).
    public func globalNumber(table: String, key: String) -> Double? {
        let top = lua_gettop(L)
        defer { lua_settop(L, top) }
        guard rawGetGlobal(L, table) == LUA_TTABLE, rawGetField(L, -1, key) == LUA_TNUMBER else { return nil }
        return tk_tonumber(L, -1, nil)
    }
}
