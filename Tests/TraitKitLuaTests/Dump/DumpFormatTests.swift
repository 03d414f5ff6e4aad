import Foundation
import Testing

/// `traitkit dump --format dot|mermaid`, `--traits`, `--output`, and their bad input.
@Suite("Dump formats")
struct DumpFormatTests {
    static let script = """
        local tk = require "traitkit"
        local Theme = tk.defineTrait{ name = "Theme", values = {"standard", "pastel"}, default = "standard" }
        local screen = tk.Screen{ userInterfaceIdiom = "phone" }
        local scene = tk.WindowScene{ screen = screen, name = "main" }
        local window = tk.Window{ scene = scene }
        window.rootViewController = tk.ViewController{ name = "root" }
        local header = tk.View{ name = 'a "quoted" <name>', backgroundColor = tk.Color.hex("#FFD1DC") }
        window.rootViewController.view:addSubview(header)
        scene.traitOverrides.Theme = "pastel"
        print("the script's own output goes to standard error")
        """

    static func dump(_ arguments: [String]) throws -> ProcessResult {
        let file = try temporaryScript(script)
        return try traitkit(["dump"] + arguments + [file])
    }

    @Test func dotRendersWithGraphvizAndShowsOverridesTraitsAndSwatches() throws {
        let result = try Self.dump(["--format", "dot", "--traits", "Theme,userInterfaceIdiom"])
        #expect(result.status == 0, "\(result.stderr)")
        let dot = result.stdout
        #expect(dot.hasPrefix("digraph traitkit {"))
        #expect(dot.contains("<B>WindowScene</B> 'main'"))
        #expect(dot.contains("● Theme = pastel</FONT>") && dot.contains("penwidth=2"), "the override is marked")
        #expect(dot.contains("Theme: pastel") && dot.contains("userInterfaceIdiom: phone"), "--traits values")
        #expect(dot.contains("BGCOLOR=\"#FFD1DCFF\""), "the background as a swatch")
        #expect(dot.contains("'a &quot;quoted&quot; &lt;name&gt;'"), "names are escaped")
        #expect(!dot.contains("standard error"))
        let svg = try run("/usr/bin/dot", ["-Tsvg"], input: dot)
        #expect(svg.status == 0, "\(svg.stderr)")
        #expect(svg.stdout.contains("<svg") && svg.stdout.contains("Theme = pastel"))
    }

    @Test func mermaidIsAFlowchartWithOverridesAndFills() throws {
        let result = try Self.dump(["--format", "mermaid"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "flowchart TD")
        #expect(lines.contains("  n1[\"<b>WindowScene</b> 'main'<br/>● Theme = pastel\"]"))
        #expect(lines.contains { $0.hasPrefix("  n5[\"<b>View</b> 'a #quot;quoted#quot; #lt;name#gt;'") })
        #expect(lines.contains("  n0 --> n1") && lines.contains("  n4 --> n5"))
        #expect(lines.contains("  class n1 overridden"))
        #expect(lines.contains("  style n5 fill:#FFD1DCFF"))
    }

    @Test func outputGoesToTheFileNamed() throws {
        let path = NSTemporaryDirectory() + "dump-\(UUID().uuidString).mmd"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Self.dump(["--format", "mermaid", "--output", path])
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("flowchart TD\n"))
    }

    @Test func badInputIsOneLineAndNonZero() throws {
        let format = try Self.dump(["--format", "svg"])
        #expect(format.status == 64)
        #expect(format.stderr.hasPrefix("Error: The value 'svg' is invalid for '--format <format>'. Please provide one of 'text', 'json', 'dot', 'mermaid' or 'html'."))
        let trait = try Self.dump(["--format", "dot", "--traits", "Theem"])
        #expect(trait.status == 1)
        #expect(trait.stderr.hasSuffix("traitkit: unknown trait 'Theem' in --traits (did you mean 'Theme'?)\n"))
        let traitsForText = try Self.dump(["--traits", "Theme"])
        #expect(traitsForText.status == 64 && traitsForText.stderr.contains("--traits chooses what the dot and mermaid pictures show"))
        let unwritable = try Self.dump(["--output", "/nonexistent/dir/x.txt"])
        #expect(unwritable.status == 1 && unwritable.stderr.hasSuffix("traitkit: cannot write /nonexistent/dir/x.txt: No such file or directory\n"))
    }
}

/// A script file in the temporary folder, removed when the process ends.
func temporaryScript(_ text: String, name: String = "script-\(UUID().uuidString).lua") throws -> String {
    let path = NSTemporaryDirectory() + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}
