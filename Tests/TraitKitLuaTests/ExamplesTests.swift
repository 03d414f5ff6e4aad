import Foundation
import Testing

/// Every script under Examples/ runs and prints what Examples/expected/NAME.txt holds.
@Suite("Examples")
struct ExamplesTests {
    static let examples: [String] = {
        let folder = packageRoot.appendingPathComponent("Examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".lua") }.sorted()
    }()

    @Test func everyExampleHasAnExpectedOutput() {
        #expect(Self.examples.count >= 6)
        for example in Self.examples {
            let expected = packageRoot.appendingPathComponent("Examples/expected/" + example.replacingOccurrences(of: ".lua", with: ".txt"))
            #expect(FileManager.default.fileExists(atPath: expected.path), "\(example) has no expected output")
        }
    }

    @Test(arguments: examples)
    func exampleOutput(_ example: String) throws {
        let result = try traitkit(["run", "Examples/" + example])
        #expect(result.status == 0, "\(example): \(result.stderr)")
        let expectedURL = packageRoot.appendingPathComponent("Examples/expected/" + example.replacingOccurrences(of: ".lua", with: ".txt"))
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(result.stdout == expected)
    }
}
