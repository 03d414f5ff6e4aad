import Testing
@testable import TraitKitLua

/// `pairs(tc)`, `pairs(node.traitOverrides)` and `pairs(node)` (`Pairs.swift`).
@Suite("pairs over collections, overrides and nodes")
struct PairsTests {
    /// A collection iterates the traits that differ from their default, by name, as `toTable`
    /// gives them, in definition order (as `tostring` prints them); an empty one iterates nothing.
    @Test func collectionsIterateTheirSetTraits() {
        expectLua("""
            local tk = require "traitkit"
            local Theme = tk.defineTrait{ name = "PairsTheme", values = {"standard", "pastel"}, default = "standard" }
            local tc = tk.TraitCollection{ displayScale = 2, PairsTheme = "pastel", userInterfaceStyle = "light" }
            local seen = {}
            for name, value in pairs(tc) do seen[#seen + 1] = name .. "=" .. tostring(value) end
            assert(table.concat(seen, " ") == "userInterfaceStyle=light displayScale=2.0 PairsTheme=pastel", table.concat(seen, " "))
            for name in pairs(tk.TraitCollection{ PairsTheme = "standard" }) do error("a default was iterated: " .. name) end
            """)
    }

    /// A node iterates the fields a script set on it, as a plain object its own fields: not
    /// its properties, not its class's values or methods, not what the binding keeps on it.
    /// Assigning to a field inside the loop is safe, and `next` replaced by the script does
    /// not break it.
    @Test func nodesIterateTheirOwnFields() {
        expectLua("""
            local tk = require "traitkit"
            local Card = tk.View:subclass("PairsCard")
            Card.cornerRadius = 8
            function Card:greet() end
            local c = Card{ name = "c", title = "hello" }
            c.extra, c[1] = 1, "one"
            c.backgroundColor = tk.Color.red
            local seen = {}
            next = nil
            for k, v in pairs(c) do
              seen[#seen + 1] = tostring(k) .. "=" .. tostring(v)
              c[k] = v
            end
            table.sort(seen)
            assert(table.concat(seen, " ") == "1=one extra=1 title=hello", table.concat(seen, " "))
            for k in pairs(tk.View{}) do error("a plain view has no fields, got " .. tostring(k)) end
            """)
    }

    /// Overrides iterate what is set on the node, in definition order whatever order they were
    /// set in; removing them inside the loop is safe, and a script that replaces the globals
    /// `next` and `error` does not break the loop.
    @Test func overridesIterateAndMayChangeInTheLoop() {
        expectLua("""
            local tk = require "traitkit"
            local Theme = tk.defineTrait{ name = "PairsTheme", values = {"standard", "pastel"}, default = "standard" }
            local v = tk.View{}
            v.traitOverrides.PairsTheme = "pastel"
            v.overrideUserInterfaceStyle = "dark"
            next, error = nil, nil
            local names = {}
            for name, value in pairs(v.traitOverrides) do
              names[#names + 1] = name
              assert(v.traitOverrides[name] == value)
              v.traitOverrides[name] = nil
            end
            assert(table.concat(names, " ") == "userInterfaceStyle PairsTheme", table.concat(names, " "))
            assert(not v.traitOverrides:contains(Theme) and not v.traitOverrides:contains("userInterfaceStyle"))
            """)
    }

    /// The iterator is stateless, as `next` is: called with a key it gives the one after it,
    /// and a key it never gave is a Lua error, as `next` raises it.
    @Test func theIteratorIsStatelessAndRefusesABadKey() {
        expectLua("""
            local tk = require "traitkit"
            local f, s = pairs(tk.TraitCollection{ displayScale = 2, userInterfaceStyle = "dark" })
            assert(select(2, f(s, "userInterfaceStyle")) == 2.0 and f(s, "displayScale") == nil)
            assert(f(s, "userInterfaceStyle") == "displayScale", "asking twice gives the same answer")
            local ok, e = pcall(f, s, "nope")
            assert(not ok and e:find("invalid key to 'next'"), e)
            """)
    }
}
