import Foundation
import Testing

/// Every script under Examples/ runs and prints what Examples/expected/NAME.txt holds; every
/// REPL transcript (Examples/*.txt) prints what it shows; the README's script and REPL session
/// print what the README says they print.
@Suite("Examples")
struct ExamplesTests {
    static let folder = packageRoot.appendingPathComponent("Examples")
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    static let examples = files.filter { $0.hasSuffix(".lua") }
    static let transcripts = files.filter { $0.hasSuffix(".txt") }

    @Test func everyExampleHasAnExpectedOutput() {
        #expect(Self.examples.count + Self.transcripts.count >= 12)
        for example in Self.examples {
            let expected = Self.folder.appendingPathComponent("expected/" + example.replacingOccurrences(of: ".lua", with: ".txt"))
            #expect(FileManager.default.fileExists(atPath: expected.path), "\(example) has no expected output")
        }
    }

    @Test(arguments: examples)
    func exampleOutput(_ example: String) throws {
        let result = try traitkit(["run", "Examples/" + example])
        #expect(result.status == 0, "\(example): \(result.stderr)")
        let expectedURL = Self.folder.appendingPathComponent("expected/" + example.replacingOccurrences(of: ".lua", with: ".txt"))
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test(arguments: transcripts)
    func transcriptOutput(_ transcript: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(transcript), encoding: .utf8)
        try Self.expectTranscript(text)
    }

    /// The same configuration script under settings given on the command line.
    @Test func theEnvironmentsExampleTakesTraitsFromTheCommandLine() throws {
        let result = try traitkit(["run", "--trait", "userInterfaceStyle=dark", "--trait", "Density=compact",
                                   "Examples/environments.lua"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n")
        #expect(rows.count == 8)
        #expect(rows.allSatisfy { $0.contains(" dark ") && $0.hasSuffix("density=compact") }, "\(result.stdout)")
    }

    /// A transcript's `> ` lines, fed to `traitkit repl`, print exactly its other lines.
    static func expectTranscript(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
        let input = lines.filter { $0.hasPrefix("> ") }.map { $0.dropFirst(2) + "\n" }.joined()
        let expected = lines.filter { !$0.hasPrefix("> ") }.map { $0 + "\n" }.joined()
        let result = try traitkit(["repl"], input: input)
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout == expected, sourceLocation: sourceLocation)
    }

    // MARK: The README

    static func readme() throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The text of the first fenced block that follows `marker`.
    static func block(after marker: String, in text: String) -> String? {
        guard let start = text.range(of: marker) else { return nil }
        let rest = text[start.upperBound...]
        guard let open = rest.range(of: "```"), let lineEnd = rest[open.upperBound...].firstIndex(of: "\n"),
              let close = rest[lineEnd...].range(of: "\n```") else { return nil }
        return String(rest[rest.index(after: lineEnd)..<close.lowerBound]) + "\n"
    }

    @Test func theReadmeScriptPrintsWhatTheReadmeShows() throws {
        let readme = try Self.readme()
        let script = try #require(Self.block(after: "## A script", in: readme))
        let output = try #require(Self.block(after: "`traitkit run` prints:", in: readme))
        let result = try traitkit(["run", "-"], input: script)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == output)
        #expect(script.split(separator: "\n").count <= 25, "the README's script stays short")
    }

    @Test func theReadmeReplSessionPrintsWhatTheReadmeShows() throws {
        let session = try #require(Self.block(after: "## The REPL", in: try Self.readme()))
        try Self.expectTranscript(session)
    }
}
