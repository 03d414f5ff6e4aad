import Foundation
import Testing
@testable import TraitKitLua

/// Runs `source` in a fresh state; returns nil or the error message.
func runLua(_ source: String, name: String = "=test", sandbox: Bool = false) -> String? {
    LuaRuntime(sandbox: sandbox).run(chunk: source, name: name)
}

/// Expects `source` to run without error (its own `assert`s included).
func expectLua(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) {
    if let error = runLua(source) {
        Issue.record("Lua failed: \(error)", sourceLocation: sourceLocation)
    }
}

/// Expects each case's line, run in `file` after the lines of `prelude`, to fail with
/// `file:N: message` at that line (a prefix: the traceback follows).
func expectLuaErrors(_ cases: [(String, String)], prelude: String, file: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
    let lineNumber = prelude.split(separator: "\n", omittingEmptySubsequences: false).count + 1
    for (line, message) in cases {
        let error = runLua(prelude + "\n" + line, name: "@" + file)
        #expect(error?.hasPrefix("\(file):\(lineNumber): " + message) == true, "\(line): \(error ?? "no error")",
                sourceLocation: sourceLocation)
    }
}

/// The package root (two levels above this file's folder).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The traitkit binary: $TRAITKIT_BIN, else the debug build next to the tests.
var traitkitBinary: URL {
    if let path = ProcessInfo.processInfo.environment["TRAITKIT_BIN"] { return URL(fileURLWithPath: path) }
    return packageRoot.appendingPathComponent(".build/debug/traitkit")
}

struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the traitkit binary with `arguments` (and `input` on standard input).
func traitkit(_ arguments: [String], input: String? = nil) throws -> ProcessResult {
    try run(traitkitBinary.path, arguments, input: input)
}

/// Runs a program in the package root with `input` on standard input and `environment`
/// added to the test's own.
func run(_ program: String, _ arguments: [String], input: String? = nil,
         environment: [String: String] = [:]) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe(), err = Pipe(), inPipe = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = inPipe
    try process.run()
    if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inPipe.fileHandleForWriting.close()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                         stderr: String(decoding: stderr, as: UTF8.self))
}
