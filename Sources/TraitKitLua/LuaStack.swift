import CLua
import TraitKit

/// A raw `lua_State *`.
public typealias LuaState = OpaquePointer

/// A Swift function callable from Lua through `tk_trampoline`.
typealias SwiftLuaFunction = @convention(c) (LuaState?) -> Int32

/// An error a Swift function reports to Lua: raised by the trampoline with the caller's
/// position (`file:line: message`), as luaL_error does.
struct LuaError: Error, CustomStringConvertible {
    let description: String
    /// The message starts with its own position (the script function that returned a bad
    /// value), so it is raised without the caller's.
    let placed: Bool
    /// Messages quote script values clipped; the cap here is the backstop for any that does not.
    init(_ message: String) { self.init(message, at: "") }

    /// A message about what the script function defined at `position` (`definedAt`) did.
    init(_ message: String, at position: String) {
        description = clipped(position + message, limit: 2048)
        placed = !position.isEmpty
    }
}

/// An error that already carries its position and traceback (a failing Lua callback):
/// raised as it is.
struct LuaCallError: Error, CustomStringConvertible {
    let description: String
    /// A runtime error whose value `tk_msghandler` kept (not a memory error, which runs no
    /// handler): one `guardedPassingErrors` may raise again as it was.
    var passable = false
    /// For an error value that is not a message raised while an update runs: its number among
    /// the values kept for the call that ran the update (`UpdateErrors.swift`); else 0.
    var valueNumber = 0
}

/// A script's error that a binding call lets through unchanged (`guardedPassingErrors`);
/// `trace` is its message with the traceback from where it was raised.
struct PassedLuaError: Error {
    let trace: String
}

/// Makes room for `n` more values on the stack of `L`. A C function may push only
/// `LUA_MINSTACK` (20) values without asking; pushing more overruns the stack. Fails as
/// `luaL_checkstack` does, with "stack overflow (what)", but as a Swift error, not a longjmp.
func ensureStack(_ L: LuaState, _ n: Int, _ what: String) throws {
    guard n < 1_000_000, lua_checkstack(L, Int32(n)) != 0 else { throw LuaError("stack overflow (\(what))") }
}

/// Runs the body of a Swift function called from Lua, turning Swift errors into the
/// trampoline's raise codes. Nothing here may raise a Lua error itself.
@inline(__always)
func guarded(_ L: LuaState?, _ body: (LuaState) throws -> Int32) -> Int32 {
    let L = L!
    do {
        return try body(L)
    } catch let error as PassedLuaError {
        push(L, error.trace)
        return TK_RAISE_PASS
    } catch let error as LuaCallError {
        push(L, error.description)
        return TK_RAISE
    } catch let error as LuaError where error.placed {
        push(L, error.description)
        return TK_RAISE
    } catch {
        push(L, "\(error)")
        return TK_RAISE_WHERE
    }
}

/// `guarded` for a Swift function that calls a script function straight back (a builder
/// function, `performAsCurrent`, a color provider): an error raised there leaves it as it
/// would leave a Lua function, the same value (a table stays that table, a message gets
/// nothing appended), for `pcall` to catch; uncaught, it still prints the traceback taken
/// where it was raised. Errors of the call itself, and runs ended by a limit, are as in
/// `guarded`.
func guardedPassingErrors(_ L: LuaState?, _ body: (LuaState) throws -> Int32) -> Int32 {
    guarded(L) { L in
        do {
            return try body(L)
        } catch let error as LuaCallError where error.passable && !LuaRuntime.of(L).limitEnded {
            throw PassedLuaError(trace: error.description)
        }
    }
}

// MARK: Pushing

func push(_ L: LuaState, _ s: String) {
    var s = s
    s.withUTF8 { buffer in
        _ = buffer.withMemoryRebound(to: CChar.self) { lua_pushlstring(L, $0.baseAddress, $0.count) }
    }
}

func push(_ L: LuaState, _ function: SwiftLuaFunction) {
    tk_pushswift(L, function)
}

/// Pushes the table a `luaL_ref` keeps: always a table, even after a script replaced the
/// registry slot through the debug library (`tk_push_registry_table`).
func pushRef(_ L: LuaState, _ ref: Int32) {
    tk_push_registry_table(L, ref)
}

/// Pushes the function a `luaL_ref` keeps. It is only ever called in protected mode, so
/// whatever a script put in its slot fails as a call, and needs no repair.
func pushFunctionRef(_ L: LuaState, _ ref: Int32) {
    lua_rawgeti(L, tk_registryindex(), lua_Integer(ref))
}

// MARK: Reading

func isNil(_ L: LuaState, _ i: Int32) -> Bool { lua_type(L, i) <= LUA_TNIL }

/// Sets a metatable with `__mode = mode` ("k", "v") on the table on top of the stack.
func makeWeak(_ L: LuaState, _ mode: String) {
    tk_newtable(L)
    push(L, mode)
    rawSetField(L, -2, "__mode")
    lua_setmetatable(L, -2)
}

/// The string at `i` for a message or a comparison with a fixed word (nil unless it is a
/// string): bytes that are not UTF-8 read as U+FFFD. What the engine keeps or looks up by
/// name takes `text`, which refuses them.
func string(_ L: LuaState, _ i: Int32) -> String? {
    guard lua_type(L, i) == LUA_TSTRING else { return nil }
    var length = 0
    guard let chars = tk_tolstring(L, i, &length) else { return nil }
    return decoded(chars, length)
}

/// Lua's bytes as Swift text, bad bytes read as U+FFFD. `String(decoding:)` on a byte buffer
/// is the specialized path: `String(validating:)` runs unspecialized generic code, about four
/// times the instructions, on every name a script sets.
private func decoded(_ chars: UnsafePointer<CChar>, _ length: Int) -> String {
    chars.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
}

/// The string at `i` as text the engine keeps (a name, a title, a trait's value), or nil when
/// it is not a string or its bytes are not UTF-8. A Lua string may hold any bytes, but Swift
/// text cannot: a conversion that replaced the bad bytes would hand back another string than
/// the one given (`v.name ~= name`), or take two names for one, so those are refused.
func text(_ L: LuaState, _ i: Int32) -> String? {
    var length = 0
    guard lua_type(L, i) == LUA_TSTRING, let chars = tk_tolstring(L, i, &length) else { return nil }
    // Decoding replaces bad bytes, so the text is the string exactly when its bytes came back
    // unchanged.
    var result = decoded(chars, length)
    let unchanged = result.withUTF8 { bytes in
        guard let start = bytes.baseAddress else { return length == 0 }
        return bytes.count == length && memcmp(start, chars, length) == 0
    }
    return unchanged ? result : nil
}

/// The error for a value at `i` that should be text: a string whose bytes are not UTF-8 is
/// shown with them escaped, anything else by its type.
func textError(_ L: LuaState, _ i: Int32, _ function: String, expected: String = "a string") -> LuaError {
    guard lua_type(L, i) == LUA_TSTRING else { return argumentError(L, i, function, expected: expected) }
    return argumentError(L, i, function, detail: "expected UTF-8 text, got \(TraitValues.describeValue(L, i))")
}

/// The Lua type name of the value at `i` (objects by their class), for messages.
func typeName(_ L: LuaState, _ i: Int32) -> String {
    if let object = LuaObject.peek(L, i) { return LuaObject.className(object) }
    if LuaObject.box(L, i)?.pointee.kind == LuaObject.Kind.overrides.rawValue { return "TraitOverrides" }
    return String(cString: lua_typename(L, lua_type(L, i)))
}

/// Where the Lua function at `i` is defined, as `file.lua:12: `, for errors about what it
/// returned: once it has returned no stack frame places them. Empty for C functions.
func definedAt(_ L: LuaState, _ i: Int32) -> String {
    var ar = lua_Debug()
    lua_pushvalue(L, i)
    guard lua_getinfo(L, ">S", &ar) != 0, ar.linedefined > 0 else { return "" }
    let source = withUnsafeBytes(of: &ar.short_src) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return "\(source):\(ar.linedefined): "
}

/// `bad argument #n to 'f' (expected X, got Y)`, numbered as luaL_argerror numbers it: in a
/// call written `obj:f(...)` the script did not write `self`, so it is not counted, and a bad
/// `self` is `calling 'f' on bad self`. An assignment `obj.f = v` reaches its setter through
/// `__newindex` with `v` as argument 3, a number the script never wrote: it is `bad value for 'f'`.
func argumentError(_ L: LuaState, _ n: Int32, _ function: String, expected: String) -> LuaError {
    argumentError(L, n, function, detail: "expected \(expected), got \(typeName(L, n))")
}

/// The same, with what was wrong said in full (`position 0 out of bounds, expected 1 to 3`).
func argumentError(_ L: LuaState, _ n: Int32, _ function: String, detail: String) -> LuaError {
    let what = "(\(detail))"
    switch (callSyntax(L), n) {
    case (.field, 1) where LuaRuntime.of(L).isMethodName(function):
        // `screen.setSystemTraits{...}`: the script's first argument took self's place.
        return LuaError("bad argument #1 to '\(function)' (\(detail); use ':' to call a method)")
    case (.method, 1): return LuaError("calling '\(function)' on bad self \(what)")
    case (.method, 2...): return LuaError("bad argument #\(n - 1) to '\(function)' \(what)")
    case (.assignment, _): return LuaError("bad value for '\(function)' \(what)")
    default: return LuaError("bad argument #\(n) to '\(function)' \(what)")
    }
}

/// `bad argument #1 to 'View' (...)` for a constructor: a class, `tk.TraitCollection` or
/// `tk.Color` called as a function gets itself as argument 1 (`__call`), which the script
/// never wrote, so its first own argument, at index 2, is argument #1.
func constructorArgumentError(_ L: LuaState, _ function: String, expected: String) -> LuaError {
    LuaError("bad argument #1 to '\(clipped(function))' (expected \(expected), got \(typeName(L, 2)))")
}

private enum CallSyntax { case method, field, assignment, other }

/// How the script called the running C function, from the calling instruction, as
/// luaL_argerror finds it (`lua_getinfo` "n", which never raises).
private func callSyntax(_ L: LuaState) -> CallSyntax {
    var ar = lua_Debug()
    guard lua_getstack(L, 0, &ar) != 0, lua_getinfo(L, "n", &ar) != 0, let namewhat = ar.namewhat else { return .other }
    switch String(cString: namewhat) {
    case "method": return .method
    case "field": return .field
    case "metamethod" where ar.name.map { String(cString: $0) } == "newindex": return .assignment
    default: return .other
    }
}

func checkString(_ L: LuaState, _ i: Int32, _ function: String) throws -> String {
    guard let s = text(L, i) else { throw textError(L, i, function) }
    return s
}

func optString(_ L: LuaState, _ i: Int32, _ function: String) throws -> String? {
    if isNil(L, i) { return nil }
    return try checkString(L, i, function)
}

/// Text shown to a user (a label's, a button's title): a string, or a number as Lua prints
/// it, as `luaL_checkstring` takes one; nil for anything else.
func displayText(_ L: LuaState, _ i: Int32) -> String? {
    switch lua_type(L, i) {
    case LUA_TSTRING: return text(L, i)
    case LUA_TNUMBER: return numberText(L, i)
    default: return nil
    }
}

/// The number at `i` for display: an integer in full, a float as `formatNumber` writes it.
func numberText(_ L: LuaState, _ i: Int32) -> String {
    var isInteger: Int32 = 0
    let n = tk_tointeger(L, i, &isInteger)
    return isInteger != 0 ? String(n) : formatNumber(tk_tonumber(L, i, nil))
}

/// `displayText`, or an error naming what was expected.
func checkDisplayText(_ L: LuaState, _ i: Int32, _ function: String) throws -> String {
    guard let text = displayText(L, i) else { throw textError(L, i, function) }
    return text
}

/// A finite number: a NaN or an infinity (a color component of `0/0`) would be clamped to
/// something the script did not ask for, so it is an error, as it is for a number trait.
func checkNumber(_ L: LuaState, _ i: Int32, _ function: String) throws -> Double {
    guard lua_type(L, i) == LUA_TNUMBER else { throw argumentError(L, i, function, expected: "a number") }
    let d = tk_tonumber(L, i, nil)
    guard d.isFinite else { throw argumentError(L, i, function, detail: "expected a finite number, got \(formatNumber(d))") }
    return d
}

func checkInteger(_ L: LuaState, _ i: Int32, _ function: String) throws -> Int {
    var isInteger: Int32 = 0
    let value = tk_tointeger(L, i, &isInteger)
    guard lua_type(L, i) == LUA_TNUMBER, isInteger != 0 else {
        throw argumentError(L, i, function, expected: "an integer")
    }
    return Int(value)
}

func checkFunction(_ L: LuaState, _ i: Int32, _ function: String) throws {
    guard lua_type(L, i) == LUA_TFUNCTION else { throw argumentError(L, i, function, expected: "a function") }
}

func checkTable(_ L: LuaState, _ i: Int32, _ function: String) throws {
    guard lua_type(L, i) == LUA_TTABLE else { throw argumentError(L, i, function, expected: "a table") }
}

/// Checks that every key of the constructor table at `i` is a string in `allowed`, so a
/// misspelt field is an error rather than silently ignored.
func checkFieldNames(_ L: LuaState, _ i: Int32, _ function: String, allowed: [String]) throws {
    try forEachPair(L, i) {
        guard lua_type(L, -2) == LUA_TSTRING, let field = string(L, -2) else {
            throw LuaError("\(function): field names must be strings (got a \(typeName(L, -2)) key; expected \(allowed.joined(separator: ", ")))")
        }
        guard allowed.contains(field) else {
            throw LuaError("\(function): unknown field '\(clipped(field))' (expected \(allowed.joined(separator: ", ")))")
        }
    }
}

/// Absolute index of a possibly negative stack index.
func absolute(_ L: LuaState, _ i: Int32) -> Int32 { lua_absindex(L, i) }

// MARK: Raw table access (never runs metamethods, so never raises but for memory)

/// Pushes `table[key]` without metamethods; pushes nil when `table` is not a table (a raw get
/// on anything else is undefined behaviour in the C API, so no caller can get that wrong).
func rawGetField(_ L: LuaState, _ table: Int32, _ key: String) -> Int32 {
    let t = absolute(L, table)
    guard lua_type(L, t) == LUA_TTABLE else {
        lua_pushnil(L)
        return LUA_TNIL
    }
    push(L, key)
    return lua_rawget(L, t)
}

/// `rawGetField` for a literal key: `lua_pushstring` finds it in Lua's cache of C strings by
/// address, where a Swift string is hashed and interned again on every push (a constructor
/// reads its fields this way once per object made).
func rawGetField(_ L: LuaState, _ table: Int32, literal key: StaticString) -> Int32 {
    let t = absolute(L, table)
    guard lua_type(L, t) == LUA_TTABLE else {
        lua_pushnil(L)
        return LUA_TNIL
    }
    lua_pushstring(L, UnsafeRawPointer(key.utf8Start).assumingMemoryBound(to: CChar.self))
    return lua_rawget(L, t)
}

/// Throws unless the value at `i` can key a table (not nil, not NaN): `lua_rawset` would raise
/// for those, from inside the Swift frames that called it.
func checkFieldKey(_ L: LuaState, _ i: Int32) throws {
    guard lua_type(L, i) == LUA_TSTRING || lua_type(L, i) == LUA_TNUMBER || lua_type(L, i) == LUA_TBOOLEAN
            || lua_type(L, i) >= LUA_TLIGHTUSERDATA else {
        throw LuaError("cannot use a \(typeName(L, i)) as a field key")
    }
    if lua_type(L, i) == LUA_TNUMBER, tk_tonumber(L, i, nil).isNaN {
        throw LuaError("cannot use NaN as a field key")
    }
}

func rawSetField(_ L: LuaState, _ table: Int32, _ key: String) {
    let t = absolute(L, table)
    push(L, key)
    tk_insert(L, -2)
    lua_rawset(L, t)
}

/// Pushes the global `name`, read raw: `lua_getglobal` runs the globals' `__index`, which a
/// script may have set to raise (the "strict globals" idiom), and Swift must not be below a raise.
@discardableResult
func rawGetGlobal(_ L: LuaState, _ name: String) -> Int32 {
    tk_pushglobaltable(L)
    let type = rawGetField(L, -1, name)
    tk_remove(L, -2)
    return type
}

/// Sets the global `name` to the value on top (popped), raw, for the same reason.
func rawSetGlobal(_ L: LuaState, _ name: String) {
    tk_pushglobaltable(L)
    tk_insert(L, -2)
    rawSetField(L, -2, name)
    tk_pop(L, 1)
}

/// The string keys of the table at `table`, in traversal order (none when it is not a table):
/// the names an unknown-name error or the REPL's completion offers.
func stringKeys(_ L: LuaState, _ table: Int32) -> [String] {
    var names: [String] = []
    try? forEachPair(L, table) { if let name = string(L, -2) { names.append(name) } }
    return names
}

/// Iterates a table's pairs with key at -2 and value at -1 during `body`. The pairs are read
/// first, onto the stack: `body` may run Lua code (a setter calling a scripted method) that
/// changes the table, and `lua_next` would then raise through this frame. Reading them cannot
/// raise: nothing runs between the `lua_next` calls, and growing the stack runs no collection
/// step (at most an emergency collection, which calls no finalizer). `body` then has the room a
/// C function starts with (`LUA_MINSTACK`). A table with more pairs than the stack can hold is
/// read into a list table instead, in protected mode (`tk_pairs_list`).
func forEachPair(_ L: LuaState, _ table: Int32, _ body: () throws -> Void) throws {
    let t = absolute(L, table)
    guard lua_type(L, t) == LUA_TTABLE else { throw LuaError("expected a table, got \(typeName(L, t))") }
    let base = lua_gettop(L)
    defer { lua_settop(L, base) }
    lua_pushnil(L)
    while lua_next(L, t) != 0 {
        guard lua_checkstack(L, 3) != 0 else {
            lua_settop(L, base)
            return try forEachListedPair(L, t, body)
        }
        lua_pushvalue(L, -2)
    }
    // `body` gets the room a C function starts with, above the pairs and its own two values.
    guard lua_checkstack(L, LUA_MINSTACK + 2) != 0 else {
        lua_settop(L, base)
        return try forEachListedPair(L, t, body)
    }
    let end = lua_gettop(L)
    var key = base + 1
    while key < end {
        lua_pushvalue(L, key)
        lua_pushvalue(L, key + 1)
        try body()
        lua_settop(L, end)
        key += 2
    }
}

/// `forEachPair` through a list table of the pairs, for a table too large for the stack.
private func forEachListedPair(_ L: LuaState, _ table: Int32, _ body: () throws -> Void) throws {
    guard tk_pairs_list(L, table) == 0 else {
        throw LuaError("a table changed while its pairs were read (a key was added during the traversal)")
    }
    let list = lua_gettop(L)
    defer { lua_settop(L, list - 1) }
    let count = lua_Integer(rawLength(L, list))
    var i: lua_Integer = 1
    while i < count {
        lua_rawgeti(L, list, i)
        lua_rawgeti(L, list, i + 1)
        try body()
        tk_pop(L, 2)
        i += 2
    }
}

/// The length of a sequence without metamethods.
func rawLength(_ L: LuaState, _ i: Int32) -> Int { Int(lua_rawlen(L, i)) }
