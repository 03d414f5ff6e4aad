import Testing
@testable import TraitKit

@Suite("R11 JSON text")
struct JSONTests {
    private func string(_ text: String) throws -> String? {
        guard case .string(let s) = try JSON.parse(text) else { return nil }
        return s
    }

    @Test func surrogatePairsMakeOneCharacter() throws {
        #expect(try string(#""\ud83d\ude00""#) == "😀")
        #expect(try string(#""\u00e9\u00E9""#) == "éé")
        #expect(try string(#""\ud83d x""#) == "\u{FFFD} x")  // a lone surrogate
        #expect(try string(#""\/""#) == "/")
    }

    @Test func printedStringsParseBack() throws {
        let text = "a\"b\\c\n\t\u{1}é😀\u{7F}"
        var out = ""
        JSON.quote(text, into: &out)
        #expect(try string(out) == text)
    }

    @Test func strictStrings() {
        for bad in [#""\x""#, #""\u12g4""#, #""\u+123""#, "\"tab\there\"", "\"open"] {
            #expect(throws: TraitError.self, "\(bad)") { try JSON.parse(bad) }
        }
    }

    @Test func strictNumbers() throws {
        #expect(try JSON.parse("-0.5e+2") == .number(-50))
        #expect(try JSON.parse("[0, 12, 1E3]") == .array([.number(0), .number(12), .number(1000)]))
        for bad in ["+1", ".5", "1.", "01", "1e", "-", "1e999", "-1e999", "nan", "Infinity"] {
            #expect(throws: TraitError.self, "\(bad)") { try JSON.parse(bad) }
        }
    }

    @Test func nonFiniteNumbersPrintAsNull() {
        #expect(JSON.array([.number(.nan), .number(.infinity), .number(2.5)]).serialized() == "[null,null,2.5]")
    }
}
