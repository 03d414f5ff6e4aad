import Testing
@testable import TraitKitLua

/// `pairs(tc)` and `pairs(node.traitOverrides)` (`Pairs.swift`).
@Suite("pairs over collections and overrides")
struct PairsTests {
    /// A collection iterates the traits that differ from their default, by name, as `toTable`
    /// gives them; an empty one iterates nothing.
    @Test func collectionsIterateTheirSetTraits() {
        expectLua("""
            local tk = require "traitkit"
            local Theme = tk.defineTrait{ name = "PairsTheme", values = {"standard", "pastel"}, default = "standard" }
            local tc = tk.TraitCollection{ displayScale = 2, PairsTheme = "pastel", userInterfaceStyle = "light" }
            local seen = {}
            for name, value in pairs(tc) do seen[#seen + 1] = name .. "=" .. tostring(value) end
            table.sort(seen)
            assert(table.concat(seen, " ") == "PairsTheme=pastel displayScale=2.0 userInterfaceStyle=light", table.concat(seen, " "))
            for name in pairs(tk.TraitCollection{ PairsTheme = "standard" }) do error("a default was iterated: " .. name) end
            """)
    }

    /// Overrides iterate what is set on the node; removing them inside the loop is safe, and a
    /// script that replaces the global `next` does not break the loop.
    @Test func overridesIterateAndMayChangeInTheLoop() {
        expectLua("""
            local tk = require "traitkit"
            local Theme = tk.defineTrait{ name = "PairsTheme", values = {"standard", "pastel"}, default = "standard" }
            local v = tk.View{}
            v.traitOverrides.PairsTheme = "pastel"
            v.overrideUserInterfaceStyle = "dark"
            next = nil
            local count = 0
            for name, value in pairs(v.traitOverrides) do
              count = count + 1
              assert(v.traitOverrides[name] == value)
              v.traitOverrides[name] = nil
            end
            assert(count == 2, count)
            assert(not v.traitOverrides:contains(Theme) and not v.traitOverrides:contains("userInterfaceStyle"))
            """)
    }

    /// The iterator is Lua's `next`: a bad key is Lua's error, raised as a Lua error.
    @Test func aBadKeyIsLuasOwnError() {
        expectLua("""
            local tk = require "traitkit"
            local f, s = pairs(tk.TraitCollection{ displayScale = 2 })
            local ok, e = pcall(f, s, "nope")
            assert(not ok and e:find("invalid key to 'next'"), e)
            """)
    }
}
