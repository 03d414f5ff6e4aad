-- WWDC23, SwiftUI bridging: a custom UIKit trait bridged to an environment key, read by a
-- SwiftUI-style view hosted in a cell, and an environment value written into the traits of a
-- UIKit view controller hosted by a representable.
local tk = require "traitkit"
local E = tk.elements

-- Custom UIKit trait and the environment key bridged to it
local Theme = tk.defineTrait{ name = "Theme", identifier = "com.myapp.theme",
  values = {"standard", "pastel", "bold", "monochrome"}, default = "standard", affectsColorAppearance = true }
local themeKey = tk.EnvironmentKey{ name = "myAppTheme", default = "standard", bridge = Theme }

local windowScene = tk.WindowScene{ screen = tk.Screen{ userInterfaceIdiom = "phone" }, name = "scene" }
local window = tk.Window{ scene = windowScene }
local root = tk.ViewController{ name = "root" }
window.rootViewController = root

-- UIKit trait override applied to the window scene
windowScene.traitOverrides.Theme = "monochrome"

-- SwiftUI view displayed in the cell, which reads the bridged value from the environment
local CellView = E.Custom{ name = "CellView", body = function(env)
  print("  CellView body: theme " .. env.myAppTheme)
  return E.Text{ text = "Settings", color = env.myAppTheme == "monochrome" and "gray" or "blue" }
end }

-- Cell configured to display the SwiftUI view
local cell = tk.View{ name = "cell" }
root.view:addSubview(cell)
cell.contentConfiguration = tk.HostingConfiguration{ root = CellView }

print("first update:")
tk.update()
local label = cell:findChild("Label")
print("  label '" .. label.text .. "' in " .. label.color)

print("scene theme -> pastel:")
windowScene.traitOverrides.Theme = "pastel"
tk.update()
print("  label '" .. label.text .. "' in " .. cell:findChild("Label").color)

print("size class change (not read by the body):")
windowScene.traitOverrides.horizontalSizeClass = "compact"
tk.update()
print("  (no body evaluation)")

-- UIKit view controller contained in the representable
local SettingsViewController = tk.ViewController:subclass("SettingsViewController")
function SettingsViewController:viewWillLayoutSubviews()
  print("  SettingsViewController sees theme " .. self.traitCollection.Theme)
end

-- SwiftUI environment value applied to a UIViewControllerRepresentable
local SettingsView = E.ViewControllerRepresentable{ make = function()
  return SettingsViewController{ name = "settings" }
end }:environment("myAppTheme", "standard")

print("hosting SettingsView:")
local host = tk.HostingController{ name = "settingsHost", root = SettingsView }
root:addChild(host)
root.view:addSubview(host.view)
tk.update()
print("  the scene says " .. host.traitCollection.Theme .. "; the environment value wins inside")
