/// A small JSON value with a strict parser and a stable printer: enough for trait collections
/// (R11) and hierarchy dumps, without pulling Foundation into the engine.
public enum JSON: Equatable, Sendable {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer: a number written without a fraction or an exponent that fits in 64 bits,
    /// read and written exactly (a `Double` would round those beyond 2^53).
    case integer(Int)
    /// Any other number, written so that it reads back as the same `Double`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSON])
    /// Keys keep their order, so dumps print in hierarchy order.
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.integer(let x), .integer(let y)): x == y
        case (.integer(let x), .number(let y)), (.number(let y), .integer(let x)): Int(exactly: y) == x
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.elementsEqual(y) { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The value under `key` of an object; nil for a missing key or another kind of value.
    public subscript(key: String) -> JSON? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    // MARK: Printing

    /// Compact JSON text; with `indent`, pretty-printed. The text is written as UTF-8 bytes
    /// and made a `String` once: appending to a `String` piece by piece was most of the time
    /// of a collection's `toJSON`.
    public func serialized(indent: Int? = nil) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        write(to: &out, indent: indent, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    private func write(to out: inout [UInt8], indent: Int?, level: Int) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .number(let d) where !d.isFinite: out += "null".utf8  // JSON has no NaN or infinity
        case .integer(let i): out += String(i).utf8
        // Whole numbers a Double holds exactly print as integers; any other the shortest way
        // that reads back as the same Double (Swift's `description`: `0.30000000000000004`,
        // `1e+300`), so a collection's JSON round-trips (R11).
        case .number(let d): out += (d == d.rounded() && abs(d) < 0x1p53 ? String(Int(d)) : d.description).utf8
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                JSON.beginItem(i, in: &out, indent: indent, level: level)
                item.write(to: &out, indent: indent, level: level + 1)
            }
            JSON.end("]", empty: items.isEmpty, in: &out, indent: indent, level: level)
        case .object(let pairs):
            out.append(UInt8(ascii: "{"))
            for (i, (key, value)) in pairs.enumerated() {
                JSON.beginItem(i, in: &out, indent: indent, level: level)
                JSON.quote(key, into: &out)
                out += (indent == nil ? ":" : ": ").utf8
                value.write(to: &out, indent: indent, level: level + 1)
            }
            JSON.end("}", empty: pairs.isEmpty, in: &out, indent: indent, level: level)
        }
    }

    /// Before the `i`-th item of a container at `level`: a comma after the first; pretty-printed,
    /// a new line one level deeper.
    private static func beginItem(_ i: Int, in out: inout [UInt8], indent: Int?, level: Int) {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        newline(in: &out, indent: indent, level: level + 1)
    }

    /// Closes a container at `level`; pretty-printed, a non-empty one on a line of its own.
    private static func end(_ bracket: Unicode.Scalar, empty: Bool, in out: inout [UInt8], indent: Int?, level: Int) {
        if !empty { newline(in: &out, indent: indent, level: level) }
        out.append(UInt8(ascii: bracket))
    }

    private static func newline(in out: inout [UInt8], indent: Int?, level: Int) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        out += repeatElement(UInt8(ascii: " "), count: indent * level)
    }

    /// Appends `s` as a JSON string: its UTF-8 bytes, with the quote, the backslash and the
    /// control characters escaped.
    static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += #"\""#.utf8
            case UInt8(ascii: "\\"): out += #"\\"#.utf8
            case UInt8(ascii: "\n"): out += #"\n"#.utf8
            case UInt8(ascii: "\r"): out += #"\r"#.utf8
            case UInt8(ascii: "\t"): out += #"\t"#.utf8
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += #"\u00"#.utf8
                out += [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: Parsing

    /// Parses JSON text; errors say what was expected and at which offset.
    public static func parse(_ text: String) throws(TraitError) -> JSON {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value()
        parser.skipSpace()
        guard parser.at == parser.bytes.count else { throw parser.fail("end of input") }
        return value
    }

    /// How deep arrays and objects may nest: deeper input is an error, not a stack overflow.
    public static let maxDepth = 512

    struct Parser {
        let bytes: [UInt8]
        var at = 0
        var depth = 0

        func fail(_ expected: String) -> TraitError {
            .malformedJSON("expected \(expected) at offset \(at), found \(found)")
        }

        /// What the text has at the offset, for messages: its next word or character.
        var found: String {
            guard at < bytes.count else { return "the end of the text" }
            let word = bytes[at...].prefix { !Parser.separators.contains($0) }.prefix(16)
            let shown = word.isEmpty ? bytes[at...].prefix(1) : word
            return "'" + String(decoding: shown, as: UTF8.self) + "'"
        }

        static let separators: Set<UInt8> = Set(" \n\r\t,:[]{}\"".utf8)

        static let aValue = "a JSON value (an object {...}, an array [...], a \"string\", a number, true, false or null)"

        mutating func skipSpace() {
            while at < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[at]) { at += 1 }
        }

        mutating func value() throws(TraitError) -> JSON {
            skipSpace()
            guard at < bytes.count else { throw fail(Parser.aValue) }
            if bytes[at] == UInt8(ascii: "{") || bytes[at] == UInt8(ascii: "[") {
                guard depth < JSON.maxDepth else {
                    throw .malformedJSON("nesting deeper than \(JSON.maxDepth) levels at offset \(at)")
                }
                depth += 1
                defer { depth -= 1 }
                return bytes[at] == UInt8(ascii: "{") ? try object() : try array()
            }
            switch bytes[at] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        mutating func literal(_ word: String) throws(TraitError) {
            let w = Array(word.utf8)
            guard at + w.count <= bytes.count, Array(bytes[at..<at + w.count]) == w else {
                // `not json` starts like null, but the writer meant no literal at all.
                throw fail(bytes[at...].prefix(2).elementsEqual(w.prefix(2)) ? word : Parser.aValue)
            }
            at += w.count
        }

        /// A number as RFC 8259 writes it (`-?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?`): `.integer`
        /// when it has no fraction or exponent and fits in 64 bits, else `.number` if it fits a
        /// `Double` (`1e999` would read as infinity, which no trait holds).
        mutating func number() throws(TraitError) -> JSON {
            let start = at
            skip("-")
            if !skip("0") { guard digits() else { at = start; throw fail(Parser.aValue) } }
            var whole = true
            if skip(".") {
                whole = false
                guard digits() else { throw fail("a digit after '.'") }
            }
            if skip("e") || skip("E") {
                whole = false
                _ = skip("+") || skip("-")
                guard digits() else { throw fail("a digit in the exponent") }
            }
            let text = String(decoding: bytes[start..<at], as: UTF8.self)
            if whole, let i = Int(text) { return .integer(i) }
            guard let d = Double(text), d.isFinite else {
                at = start
                throw fail("a number within ±1.8e308")
            }
            return .number(d)
        }

        /// Skips `c` if it is next.
        @discardableResult
        mutating func skip(_ c: Unicode.Scalar) -> Bool {
            guard at < bytes.count, bytes[at] == UInt8(ascii: c) else { return false }
            at += 1
            return true
        }

        /// Skips a run of decimal digits; false when there was none.
        mutating func digits() -> Bool {
            let start = at
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
            return at > start
        }

        mutating func string() throws(TraitError) -> String {
            at += 1
            // The bytes between escapes are copied in runs; a string without escapes, the
            // usual one, is made from the input's bytes at once.
            var run = at
            var text: [UInt8] = [], escaped = false
            while at < bytes.count {
                let c = bytes[at]
                if c == UInt8(ascii: "\"") {
                    defer { at += 1 }
                    if !escaped { return String(decoding: bytes[run..<at], as: UTF8.self) }
                    text += bytes[run..<at]
                    return String(decoding: text, as: UTF8.self)
                }
                if c < 0x20 { throw fail("a control character written as an escape (\\n, \\u0001)") }
                at += 1
                guard c == UInt8(ascii: "\\") else { continue }
                text += bytes[run..<at - 1]
                UTF8.encode(try escape()) { text.append($0) }
                escaped = true
                run = at
            }
            throw fail("a closing quote")
        }

        /// The character of the escape after a backslash; a `\u` surrogate pair makes one.
        mutating func escape() throws(TraitError) -> Unicode.Scalar {
            guard at < bytes.count else { throw fail("an escape") }
            at += 1
            switch bytes[at - 1] {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "b"): return "\u{8}"
            case UInt8(ascii: "f"): return "\u{C}"
            case UInt8(ascii: "u"):
                let v = try hex4()
                if (0xD800..<0xDC00).contains(v), bytes[at...].starts(with: [0x5C, 0x75]) {
                    let mark = at
                    at += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        return Unicode.Scalar(0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
                    }
                    at = mark
                }
                return Unicode.Scalar(v) ?? "\u{FFFD}"  // a lone surrogate
            default:
                at -= 1
                throw fail("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
            }
        }

        /// Four hex digits, as after `\u`.
        mutating func hex4() throws(TraitError) -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard at < bytes.count, let d = hexDigit(bytes[at]) else { throw fail("four hex digits") }
                v = v << 4 | d
                at += 1
            }
            return v
        }

        func hexDigit(_ c: UInt8) -> UInt32? {
            switch c {
            case 0x30...0x39: UInt32(c - 0x30)
            case 0x41...0x46: UInt32(c - 0x41 + 10)
            case 0x61...0x66: UInt32(c - 0x61 + 10)
            default: nil
            }
        }

        mutating func array() throws(TraitError) -> JSON {
            at += 1
            var items: [JSON] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(items) }
            while true {
                items.append(try value())
                skipSpace()
                guard at < bytes.count else { throw fail("',' or ']'") }
                at += 1
                if bytes[at - 1] == UInt8(ascii: "]") { return .array(items) }
                guard bytes[at - 1] == UInt8(ascii: ",") else { at -= 1; throw fail("',' or ']'") }
            }
        }

        mutating func object() throws(TraitError) -> JSON {
            at += 1
            var pairs: [(String, JSON)] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(pairs) }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fail("a string key") }
                let key = try string()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fail("':'") }
                at += 1
                pairs.append((key, try value()))
                skipSpace()
                guard at < bytes.count else { throw fail("',' or '}'") }
                at += 1
                if bytes[at - 1] == UInt8(ascii: "}") { return .object(pairs) }
                guard bytes[at - 1] == UInt8(ascii: ",") else { at -= 1; throw fail("',' or '}'") }
            }
        }
    }
}
