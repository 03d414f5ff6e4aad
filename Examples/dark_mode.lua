-- Dark mode (WWDC19 notes, R9): dynamic colors resolve against the trait collection that flows
-- from the screen; overrideUserInterfaceStyle and the app-wide style change it; a custom theme
-- trait with affectsColorAppearance redraws views with dynamic colors. Prints each view's
-- resolved colors after every switch.
local tk = require "traitkit"
local Theme = tk.defineTrait{ name = "Theme", values = {"standard", "pastel"}, default = "standard",
  affectsColorAppearance = true }

local screen = tk.Screen{ userInterfaceIdiom = "phone", displayScale = 3 }
local window = tk.Window{ scene = tk.WindowScene{ screen = screen, name = "main" } }
local root = tk.ViewController{ name = "root" }
window.rootViewController = root

local background = tk.Color(function(tc)
  if tc.Theme == "pastel" then
    return tc.userInterfaceStyle == "dark" and tk.Color.hex("#5C3A45") or tk.Color.hex("#FFD1DC")
  end
  return tk.Color.systemBackground
end)

local Panel = tk.View:subclass("Panel")
function Panel:draw()
  -- Three ways to resolve for a consumer that does not understand dynamic colors:
  local direct = self.backgroundColor:resolvedColor(self.traitCollection)      -- 1. resolvedColor(with:)
  local viaCurrent
  self.traitCollection:performAsCurrent(function()                              -- 2. performAsCurrent
    viaCurrent = tk.Color.label:resolvedColor()
  end)
  self.lastDraw = string.format("%-8s style=%-5s background=%s label=%s", self.name,
    self.traitCollection.userInterfaceStyle, tostring(direct), tostring(viaCurrent))
  self.draws = (self.draws or 0) + 1
end

local header = Panel{ name = "header", backgroundColor = background }
local content = Panel{ name = "content", backgroundColor = tk.Color.secondarySystemBackground }
local sheet = Panel{ name = "sheet", backgroundColor = tk.Color.systemBackground }
root.view:addSubview(header)
root.view:addSubview(content)
content:addSubview(sheet)
sheet.traitOverrides.userInterfaceLevel = "elevated"

local function show(title)
  tk.update()
  print("== " .. title)
  for _, panel in ipairs{ header, content, sheet } do print("  " .. panel.lastDraw) end
end

show("light")
screen:setSystemTraits{ userInterfaceStyle = "dark" }
show("dark (the user's setting)")
window.scene.traitOverrides.Theme = "pastel"
show("dark + pastel theme")
content.overrideUserInterfaceStyle = "light"
show("content forced light")
tk.app.userInterfaceStyle = "light"
show("app-wide light (Info.plist)")
tk.app.userInterfaceStyle = nil
content.overrideUserInterfaceStyle = nil
show("back to the user's dark setting")

-- 3. Colors for a CGColor, which has no dynamic colors: the notes' three ways.
local darkElevated = tk.TraitCollection{ userInterfaceStyle = "dark", userInterfaceLevel = "elevated" }
print("resolvedColor(tc): " .. tostring(tk.Color.systemBackground:resolvedColor(darkElevated)))
darkElevated:performAsCurrent(function()
  print("performAsCurrent, cgColor: " .. tostring(tk.Color.systemBackground.cgColor))
end)
local saved = tk.TraitCollection.current
tk.TraitCollection.current = darkElevated
print("current set by hand, cgColor: " .. tostring(tk.Color.systemBackground.cgColor))
tk.TraitCollection.current = saved
print("current restored: " .. tostring(tk.TraitCollection.current == saved))
print("header drawn " .. header.draws .. " times")
