-- The declarative layer (the SwiftUI analogue): elements describe views, environment keys carry
-- values down the element tree, a key bridged to a trait reads the trait, and a body runs again
-- only when a key it read changes. `introspect` reaches the view that backs an element.
local tk = require "traitkit"
local E = tk.elements

local Theme = tk.defineTrait{ name = "Theme", values = {"standard", "bold"}, default = "standard" }
tk.EnvironmentKey{ name = "theme", default = "standard", bridge = Theme }
tk.EnvironmentKey{ name = "accent", default = "blue" }

local Title = E.Custom{ name = "Title", body = function(env)
  print(string.format("  Title body: theme %s, accent %s, colorScheme %s", env.theme, env.accent, env.colorScheme))
  return E.Text{ text = env.theme == "bold" and "SETTINGS" or "Settings", color = env.accent }
end }
local Footer = E.Custom{ name = "Footer", body = function(env)
  print("  Footer body: size class " .. tostring(env.horizontalSizeClass))
  return E.Text{ text = "v1.0" }
end }

local host = tk.HostingController{ name = "host", root = E.VStack{
  Title:environment("accent", "orange"),
  E.ScrollView{ E.Text{ text = "row" } }:introspect("ScrollView", function(scrollView)
    scrollView.bounces = false
    print("  introspect: " .. scrollView.className .. " bounces " .. tostring(scrollView.bounces))
  end),
  Footer,
} }

local screen = tk.Screen{ userInterfaceIdiom = "phone", horizontalSizeClass = "compact" }
local scene = tk.WindowScene{ screen = screen }
local window = tk.Window{ scene = scene }
window.rootViewController = host

print("first render")
tk.update()
print("the scene's theme becomes bold: only Title read it")
scene.traitOverrides.Theme = "bold"
tk.update()
print("dark mode: Title read colorScheme")
screen:setSystemTraits{ userInterfaceStyle = "dark" }
tk.update()
print("bodies evaluated: " .. host.view.bodyEvaluations)
local label = host.view:findChild("Label")
print("the label: " .. label.text .. " in " .. tostring(label.color))
