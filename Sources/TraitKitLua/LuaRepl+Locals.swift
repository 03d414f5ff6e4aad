/// Top-level `local`s that outlive their input (DESIGN.md §5), as in Node's and Python's
/// REPLs: each input is a chunk of its own, so `local x = 5` would be gone at the next prompt.
///
/// Before an input compiles, a `local` statement at its top level (outside every function and
/// block) becomes an assignment to a global: `local a, b = 1, 2` → `a, b = 1, 2`,
/// `local x` → `x = nil`, `local function f` → `function f`. A `local` with an attribute
/// (`<const>`, `<close>`) keeps its meaning and stays local to its input; so does every
/// `local` inside a block.
enum ReplLocals {
    static func globalized(_ source: String) -> String {
        let bytes = Array(source.utf8)
        var tokens = Tokens(bytes)
        var edits: [(range: Range<Int>, text: String)] = []
        var depth = 0
        while let token = tokens.next() {
            switch token.text(in: bytes) {
            case "function", "do", "if", "repeat": depth += 1
            case "end", "until": depth = max(0, depth - 1)
            case "local" where depth == 0:
                if let edit = rewrite(local: token, in: bytes, tokens: &tokens) { edits.append(contentsOf: edit) }
            default: break
            }
        }
        var result = bytes
        for edit in edits.reversed() { result.replaceSubrange(edit.range, with: Array(edit.text.utf8)) }
        return String(decoding: result, as: UTF8.self)
    }

    /// The edits that turn the `local` at `token` into a global assignment, or nil to leave it.
    private static func rewrite(local token: Token, in bytes: [UInt8], tokens: inout Tokens)
        -> [(range: Range<Int>, text: String)]? {
        let dropLocal = (token.range.lowerBound..<token.range.upperBound, "")
        var lookahead = tokens
        guard let first = lookahead.next() else { return nil }
        if first.text(in: bytes) == "function" { return [dropLocal] }
        var last = first
        guard first.isName(in: bytes) else { return nil }
        while let next = lookahead.next() {
            switch next.text(in: bytes) {
            case ",":
                guard let name = lookahead.next(), name.isName(in: bytes) else { return nil }
                last = name
            case "=":
                return [dropLocal]
            case "<":
                return nil  // an attribute: a real local
            default:
                return [dropLocal, (last.range.upperBound..<last.range.upperBound, " = nil")]
            }
        }
        return [dropLocal, (last.range.upperBound..<last.range.upperBound, " = nil")]
    }

    struct Token {
        let range: Range<Int>
        func text(in bytes: [UInt8]) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func isName(in bytes: [UInt8]) -> Bool {
            let c = bytes[range.lowerBound]
            return (c == UInt8(ascii: "_") || isLetter(c)) && !LuaRepl.keywords.contains(text(in: bytes))
        }
    }

    /// Lua's tokens, enough to tell names and keywords from what is in strings and comments.
    struct Tokens {
        let bytes: [UInt8]
        var i = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() -> Token? {
            skipSpaceAndComments()
            guard i < bytes.count else { return nil }
            let start = i
            let c = bytes[i]
            if c == UInt8(ascii: "_") || isLetter(c) {
                while i < bytes.count, bytes[i] == UInt8(ascii: "_") || isLetter(bytes[i]) || isDigit(bytes[i]) { i += 1 }
            } else if isDigit(c) {
                while i < bytes.count, isDigit(bytes[i]) || isLetter(bytes[i]) || bytes[i] == UInt8(ascii: ".")
                        || ((bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-"))
                            && "eEpP".utf8.contains(bytes[i - 1])) { i += 1 }
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                i += 1
                while i < bytes.count, bytes[i] != c {
                    if bytes[i] == UInt8(ascii: "\\") { i += 1 }
                    i += 1
                }
                i = min(i + 1, bytes.count)
            } else if c == UInt8(ascii: "["), let level = longBracket(at: i) {
                skipLong(level: level)
            } else {
                i += 1
            }
            return Token(range: start..<i)
        }

        private mutating func skipSpaceAndComments() {
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") || bytes[i] == UInt8(ascii: "\n")
                    || bytes[i] == UInt8(ascii: "\r") {
                    i += 1
                } else if bytes[i] == UInt8(ascii: "-"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "-") {
                    i += 2
                    if let level = longBracket(at: i) { skipLong(level: level); continue }
                    while i < bytes.count, bytes[i] != UInt8(ascii: "\n") { i += 1 }
                } else {
                    return
                }
            }
        }

        /// The level of a long bracket `[==[` starting at `j`, or nil.
        private func longBracket(at j: Int) -> Int? {
            guard j < bytes.count, bytes[j] == UInt8(ascii: "[") else { return nil }
            var k = j + 1, level = 0
            while k < bytes.count, bytes[k] == UInt8(ascii: "=") { level += 1; k += 1 }
            return k < bytes.count && bytes[k] == UInt8(ascii: "[") ? level : nil
        }

        /// Skips from the opening long bracket at `i` past its closing `]==]`.
        private mutating func skipLong(level: Int) {
            i += level + 2
            let close = [UInt8(ascii: "]")] + Array(repeating: UInt8(ascii: "="), count: level) + [UInt8(ascii: "]")]
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "]"), bytes[i...].starts(with: close) { i += close.count; return }
                i += 1
            }
        }
    }
}

private func isLetter(_ c: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
}
private func isDigit(_ c: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) }
