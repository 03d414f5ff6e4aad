import Foundation
import Testing

/// `traitkit dump --format html`: a self-contained page, tested in a real browser (headless
/// Chromium): a click on a node shows its traits, where each comes from and which are
/// defaults; the filter box hides the others. A screenshot is kept at .build/inspector.png.
@Suite("HTML inspector")
struct InspectorTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    static func page() throws -> String {
        let path = NSTemporaryDirectory() + "inspector-\(UUID().uuidString).html"
        let result = try DumpFormatTests.dump(["--format", "html", "--output", path])
        #expect(result.status == 0, "\(result.stderr)")
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The DOM after `actions` (a script run once the page's own has) in headless Chromium.
    static func dom(of page: String, after actions: String) throws -> String {
        let chromium = try #require(Self.chromium, "chromium is not installed (Scripts/install-dependencies installs it)")
        let path = NSTemporaryDirectory() + "inspector-\(UUID().uuidString).html"
        try page.replacingOccurrences(of: "</body>", with: "<script>\(actions)</script></body>")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let result = try run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile())",
                                        "--dump-dom", "file://" + path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    /// A profile of its own per browser: the suites run in parallel, and Chromium will not
    /// share a profile between two processes.
    static func profile() -> String { NSTemporaryDirectory() + "chromium-\(UUID().uuidString)" }

    @Test func thePageIsSelfContained() throws {
        let page = try Self.page()
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        for external in ["src=", "<link", "http://", "https://", "@import"] {
            #expect(!page.contains(external), "the page loads nothing: \(external)")
        }
    }

    /// A name holding `</script>` stays inside the page's data: every `</` in the JSON is
    /// written `<\/`, so the page has only its own two closing tags.
    @Test func aNameCannotEndThePagesScript() throws {
        let file = try temporaryScript("""
            local tk = require "traitkit"
            local w = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
            w.rootViewController = tk.ViewController{ name = "</script><script>alert(1)</script>" }
            """)
        let result = try traitkit(["dump", "--format", "html", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.components(separatedBy: "</script>").count == 3, "two closing tags, the page's own")
        #expect(result.stdout.contains(#"<\/script><script>alert(1)<\/script>"#))
    }

    @Test func clickingANodeShowsItsTraitsAndWhereTheyComeFrom() throws {
        // n5 is the view named 'a "quoted" <name>' under the scene's Theme override.
        let dom = try Self.dom(of: try Self.page(), after: ##"document.querySelector("#node-n5 > .row").click();"##)
        #expect(dom.contains(#"<h1 id="selected-label">View 'a "quoted" &lt;name&gt;'</h1>"#), "\(dom.prefix(3000))")
        #expect(dom.contains(#"<tr id="row-Theme" data-trait="Theme"><td>Theme</td><td>pastel</td><td>from the override on WindowScene 'main'</td></tr>"#))
        #expect(dom.contains(#"<tr id="row-layoutDirection" data-trait="layoutDirection" class="default">"#), "defaults are dimmed")
        #expect(dom.contains(#"<tr id="row-userInterfaceIdiom" data-trait="userInterfaceIdiom"><td>userInterfaceIdiom</td><td>phone</td><td>from the system traits of Screen</td></tr>"#))
        #expect(dom.contains(##"class="swatch" title="#FFD1DCFF""##), "the background's swatch")
        #expect(dom.contains(#"<li id="node-n1"><div class="row"><span class="toggle">▾</span><span class="label">WindowScene 'main'</span><span class="badge">● Theme</span>"#),
                "the overridden node is marked in the tree")
    }

    @Test func theFilterHidesTraitsByName() throws {
        let dom = try Self.dom(of: try Self.page(), after: """
            document.querySelector("#node-n1 > .row").click();
            const filter = document.getElementById("filter");
            filter.value = "style";
            filter.dispatchEvent(new Event("input"));
            """)
        #expect(dom.contains(#"<tr id="row-userInterfaceStyle" data-trait="userInterfaceStyle" class="default">"#))
        #expect(dom.contains(#"<tr id="row-Theme" data-trait="Theme" class="override" hidden="">"#))
        #expect(dom.contains(#"<tr id="row-displayScale" data-trait="displayScale" class="default" hidden="">"#))
    }

    @Test func aScreenshotIsKept() throws {
        let chromium = try #require(Self.chromium)
        let path = NSTemporaryDirectory() + "inspector-\(UUID().uuidString).html"
        try Self.page().write(toFile: path, atomically: true, encoding: .utf8)
        let screenshot = packageRoot.appendingPathComponent(".build/inspector.png").path
        try? FileManager.default.removeItem(atPath: screenshot)
        let result = try run(chromium, ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                        "--user-data-dir=\(Self.profile())",
                                        "--window-size=1200,700", "--screenshot=\(screenshot)", "file://" + path])
        #expect(result.status == 0, "\(result.stderr)")
        let size = (try FileManager.default.attributesOfItem(atPath: screenshot)[.size] as? Int) ?? 0
        #expect(size > 10_000, "a page with content, not a blank image")
    }
}
