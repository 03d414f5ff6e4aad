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
        // An escaped character that begins a longer character (a quote or a newline followed
        // by a combining mark) keeps the mark, once.
        for text in ["a\"b\\c\n\t\u{1}é😀\u{7F}", "\"\u{301}", "x\n\u{301}\u{0}y", "", "plain"] {
            let out = JSON.string(text).serialized()
            #expect(try string(out).map { Array($0.utf8) } == Array(text.utf8), "\(out)")
        }
        #expect(Array(JSON.string("a\"\u{301}\u{1f}").serialized().utf8) == Array("\"a\\\"\u{301}\\u001f\"".utf8))
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

    /// Whole numbers without a fraction or exponent read as integers, so 64-bit values survive
    /// (a Double rounds those beyond 2^53); other numbers print the shortest way that reads back
    /// as the same Double, where 14 digits lost the last ones.
    @Test func numbersRoundTripExactly() throws {
        guard case .integer(let max) = try JSON.parse("9223372036854775807"),
              case .integer(let min) = try JSON.parse("-9223372036854775808") else {
            Issue.record("64-bit integers did not parse as integers")
            return
        }
        #expect(max == .max && min == .min)
        guard case .number(let beyond) = try JSON.parse("9223372036854775808") else {
            Issue.record("an integer beyond 64 bits did not parse as a number")
            return
        }
        #expect(beyond == 0x1p63)
        #expect(JSON.integer(.max).serialized() == "9223372036854775807")
        for (value, text) in [(0.1 + 0.2, "0.30000000000000004"), (1.0 / 3, "0.3333333333333333"), (1e300, "1e+300"),
                              (2.0, "2"), (-0.5, "-0.5"), (0x1p53 + 2, "9.007199254740994e+15"), (Double.leastNonzeroMagnitude, "5e-324")] {
            #expect(JSON.number(value).serialized() == text)
            guard case .number(let back) = try JSON.parse(text) else { continue }
            #expect(back == value, "\(text)")
        }
    }

    @Test func nonFiniteNumbersPrintAsNull() {
        #expect(JSON.array([.number(.nan), .number(.infinity), .number(2.5)]).serialized() == "[null,null,2.5]")
    }
}
