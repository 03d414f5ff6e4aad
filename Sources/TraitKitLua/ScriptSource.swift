#if canImport(Glibc)
import Glibc
#endif

/// Why a script file could not be read, in the C library's words, as `lua` reports it:
/// `cannot read x.lua: No such file or directory`.
public struct ScriptReadError: Error, CustomStringConvertible {
    /// The file that could not be read.
    public let path: String
    /// The C library's reason (`No such file or directory`).
    public let reason: String

    init(path: String, errorNumber: Int32) {
        self.path = path
        reason = String(cString: strerror(errorNumber))
    }

    public var description: String { "cannot read \(path): \(reason)" }
}

/// The bytes of the script file at `path`, as they are: string literals may hold any bytes, and
/// a precompiled chunk is binary. A directory opens on Linux and fails only at the first read:
/// that is an error too, never an empty script that "succeeds".
public func readSource(_ path: String) throws(ScriptReadError) -> [UInt8] {
    guard let handle = fopen(path, "rb") else { throw ScriptReadError(path: path, errorNumber: errno) }
    defer { fclose(handle) }
    let bytes = readAll { fread($0, 1, $1, handle) }
    if ferror(handle) != 0 { throw ScriptReadError(path: path, errorNumber: errno) }
    return bytes
}

/// All of standard input's bytes (`traitkit run -`).
public func readStandardInput() -> [UInt8] { readAll { read(0, $0, $1) } }

/// Calls `next(buffer, capacity)` until it gives no bytes (end of input) or fails with
/// anything but an interrupted call; returns what it read. `errno` is cleared before each
/// call: `fread` gives 0 at the end without setting it, and a stale EINTR would loop forever.
private func readAll(_ next: (UnsafeMutableRawPointer, Int) -> Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        errno = 0
        let n = buffer.withUnsafeMutableBytes { next($0.baseAddress!, $0.count) }
        if n > 0 { bytes.append(contentsOf: buffer[..<n]) } else if n == 0 || errno != EINTR { return bytes }
    }
}

/// A script as `lua`'s loader reads a file: without a UTF-8 byte-order mark, and with a first
/// line that starts with `#` (`#!/usr/bin/env -S traitkit run`) left out but its line break
/// kept, so line numbers stay right (a precompiled chunk after it has no lines to keep).
func skippingPrelude(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    var text = bytes[...]
    if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
    guard text.first == UInt8(ascii: "#") else { return text }
    let rest = text[(text.firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex)...]
    return rest.dropFirst().first == 0x1B ? rest.dropFirst() : rest
}
