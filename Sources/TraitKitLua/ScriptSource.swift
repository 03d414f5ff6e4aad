#if canImport(Glibc)
import Glibc
#endif

/// Why a script file could not be read, in the C library's words, as `lua` reports it:
/// `cannot read x.lua: No such file or directory`.
public struct ScriptReadError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String

    init(path: String, errorNumber: Int32) {
        self.path = path
        reason = String(cString: strerror(errorNumber))
    }

    public var description: String { "cannot read \(path): \(reason)" }
}

/// The contents of the script file at `path` as UTF-8 text. A directory opens on Linux and
/// fails only at the first read: that is an error too, never an empty script that "succeeds".
public func readSource(_ path: String) throws(ScriptReadError) -> String {
    guard let handle = fopen(path, "rb") else { throw ScriptReadError(path: path, errorNumber: errno) }
    defer { fclose(handle) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buffer, 1, buffer.count, handle)
        bytes.append(contentsOf: buffer[..<n])
        if n < buffer.count { break }
    }
    if ferror(handle) != 0 { throw ScriptReadError(path: path, errorNumber: errno) }
    return String(decoding: bytes, as: UTF8.self)
}
