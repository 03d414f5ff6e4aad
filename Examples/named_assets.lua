-- Colors and images by name, as an asset catalog holds them (UIColor(named:), UIImage(named:)):
-- the script registers them once, views look them up by name, and each resolves for the
-- appearance of the view that shows it.
local tk = require "traitkit"

local Theme = tk.defineTrait{ name = "Theme", values = {"standard", "pastel"}, default = "standard",
  affectsColorAppearance = true }

-- The catalog: a dynamic accent color, and an icon with dark and pastel variants.
tk.Color.register("Accent", tk.Color(function(tc)
  if tc.Theme == "pastel" then return tk.Color.hex("#F4A6C0") end
  return tc.userInterfaceStyle == "dark" and tk.Color.hex("#0A84FF") or tk.Color.hex("#007AFF")
end))
local icon = tk.ImageAsset()
icon:register("icon")
icon:register("icon-dark", { userInterfaceStyle = "dark" })
icon:register("icon-pastel", { Theme = "pastel" })
tk.Image.register("Icon", icon)

print("unknown names are nil:", tk.Color.named("Acent"), tk.Image.named("Icn"))

local screen = tk.Screen{ userInterfaceIdiom = "phone" }
local scene = tk.WindowScene{ screen = screen }
local window = tk.Window{ scene = scene }
window.rootViewController = tk.ViewController{ name = "root" }
local badge = tk.View{ name = "badge", backgroundColor = tk.Color.named("Accent") }
window.rootViewController.view:addSubview(badge)

-- A view redraws when its color's traits change; draw resolves with the view's collection.
function badge:draw()
  print(string.format("  draw: background %s, image %s", tostring(self.backgroundColor.cgColor),
    tk.Image.named("Icon")))
end

local function step(title, change)
  print(title)
  change()
  tk.update()
end
step("light", function() end)
step("dark", function() screen:setSystemTraits{ userInterfaceStyle = "dark" } end)
step("pastel theme on the scene", function() scene.traitOverrides.Theme = "pastel" end)
step("back to standard", function() scene.traitOverrides.Theme = nil end)
