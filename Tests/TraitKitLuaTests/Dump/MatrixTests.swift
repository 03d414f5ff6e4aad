import Foundation
import Testing

/// `traitkit dump --matrix`: one run per combination, and per node the traits that differ.
@Suite("Environment matrix")
struct MatrixTests {
    static let script = """
        local tk = require "traitkit"
        local Density = tk.defineTrait{ name = "Density", values = {"regular", "compact"}, default = "regular" }
        local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{ userInterfaceIdiom = "phone" } } }
        local root = tk.ViewController{ name = "root" }
        window.rootViewController = root
        local forced = tk.View{ name = "forced" }
        root.view:addSubview(forced)
        forced.overrideUserInterfaceStyle = "light"
        """

    @Test func aTableOfWhatDiffersNodeByNode() throws {
        let file = try temporaryScript(Self.script)
        let result = try traitkit(["dump", "--matrix", "userInterfaceStyle=light,dark", "--matrix", "Density=regular,compact", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            combinations:
              1  userInterfaceStyle=light Density=regular
              2  userInterfaceStyle=light Density=compact
              3  userInterfaceStyle=dark Density=regular
              4  userInterfaceStyle=dark Density=compact
            (a node not listed differs as its parent does)

            Screen
              trait               1      2      3     4
              userInterfaceStyle  light  light  dark  dark

            Screen / WindowScene
              trait               1        2        3        4
              userInterfaceStyle  light    light    dark     dark
              Density             regular  compact  regular  compact

            Screen / WindowScene / Window / ViewController 'root' / View / View 'forced'
              trait    1        2        3        4
              Density  regular  compact  regular  compact

            """, "\(result.stdout)")
    }

    @Test func json() throws {
        let file = try temporaryScript(Self.script)
        let result = try traitkit(["dump", "--json", "--matrix", "userInterfaceStyle=light,dark", file])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let combinations = object?["combinations"] as? [[String: String]]
        #expect(combinations == [["userInterfaceStyle": "light"], ["userInterfaceStyle": "dark"]])
        let nodes = object?["nodes"] as? [[String: Any]] ?? []
        let paths = nodes.compactMap { $0["path"] as? String }
        #expect(paths.contains("Screen / WindowScene / Window / ViewController 'root' / View"))
        #expect(!paths.contains { $0.hasSuffix("'forced'") }, "the forced style does not vary")
        let root = nodes.first { ($0["path"] as? String) == "Screen" }?["traits"] as? [String: [String]]
        #expect(root?["userInterfaceStyle"] == ["light", "dark"])
    }

    @Test func badInputIsOneLineAndNonZero() throws {
        let file = try temporaryScript(Self.script)
        let value = try traitkit(["dump", "--matrix", "userInterfaceStyle=light,purple", file])
        #expect(value.status == 64)
        #expect(value.stderr.hasPrefix("Error: --matrix: --trait userInterfaceStyle=purple: expected one of: unspecified, light, dark\n"))
        let custom = try traitkit(["dump", "--matrix", "Density=regular,huge", file])
        #expect(custom.status == 1 && custom.stderr.contains("--trait Density=huge: expected one of: regular, compact"))
        let shape = try traitkit(["dump", "--matrix", "userInterfaceStyle", file])
        #expect(shape.status == 64 && shape.stderr.hasPrefix("Error: --matrix takes name=value1,value2 (got 'userInterfaceStyle')"))
        let format = try traitkit(["dump", "--format", "dot", "--matrix", "userInterfaceStyle=light,dark", file])
        #expect(format.status == 64 && format.stderr.contains("--matrix prints a table"))
    }
}
