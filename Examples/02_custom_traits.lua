-- WWDC23, Defining custom traits: a Bool trait (ContainedInSettingsTrait) read by subscript and
-- by name, and the app's theme as an enum trait that affects color appearance.
local tk = require "traitkit"

local ContainedInSettings = tk.defineTrait{ name = "ContainedInSettings", default = false }
local tc = tk.TraitCollection(function(t) t[ContainedInSettings] = true end)
print("tc[ContainedInSettings] = " .. tostring(tc[ContainedInSettings]))
print("tc.ContainedInSettings  = " .. tostring(tc.ContainedInSettings))

local Theme = tk.defineTrait{
  name = "Theme", identifier = "com.myapp.theme",
  values = {"standard", "pastel", "bold", "monochrome"}, default = "standard",
  affectsColorAppearance = true,
}
print(string.format("%s (%s): default %s, cases %s, affectsColorAppearance %s", Theme.name,
  Theme.identifier, Theme.default, table.concat(Theme.cases, "/"), tostring(Theme.affectsColorAppearance)))

-- A dynamic color chooses per theme, as UIColor { traitCollection in ... } does.
local backgrounds = {
  standard = tk.Color.hex("#FFFFFF"), pastel = tk.Color.hex("#FFD1DC"),
  bold = tk.Color.hex("#FF2D55"), monochrome = tk.Color.hex("#8E8E93"),
}
local customBackgroundColor = tk.Color(function(t) return backgrounds[t.Theme] end)
for _, theme in ipairs(Theme.cases) do
  local resolved = customBackgroundColor:resolvedColor(tk.TraitCollection{ [Theme] = theme })
  print(string.format("background for %-10s %s", theme, tostring(resolved)))
end
