-- WWDC23, Applying overrides: the theme set on the window scene flows to every view controller
-- and view; an override deeper wins below it; toggleThemeOverride adds or removes one.
local tk = require "traitkit"
local Theme = tk.defineTrait{ name = "Theme", values = {"standard", "pastel", "bold", "monochrome"},
  default = "standard", affectsColorAppearance = true }

local scene = tk.WindowScene{ screen = tk.Screen{ userInterfaceIdiom = "phone" }, name = "scene" }
local window = tk.Window{ scene = scene, name = "window" }
local root = tk.ViewController{ name = "root" }
window.rootViewController = root
local header = tk.View{ name = "header" }
local card = tk.View{ name = "card" }
root.view:addSubview(header)
header:addSubview(card)

scene.traitOverrides[Theme] = "pastel"
tk.update()
print("after the scene override: root " .. root.traitCollection.Theme .. ", card " .. card.traitCollection.Theme)

local function toggleThemeOverride(view, overrideTheme)
  if view.traitOverrides:contains(Theme) then
    view.traitOverrides:remove(Theme)      -- there's an existing theme override; remove it
  else
    view.traitOverrides[Theme] = overrideTheme   -- there's none; apply one
  end
end

toggleThemeOverride(header, "monochrome")
tk.update()
print("header overridden:        header " .. header.traitCollection.Theme .. ", card " .. card.traitCollection.Theme
  .. ", root " .. root.traitCollection.Theme)
print(card:explain(Theme))

toggleThemeOverride(header, "monochrome")
tk.update()
print("override toggled off:     card " .. card.traitCollection.Theme)
print(card:explain(Theme))
