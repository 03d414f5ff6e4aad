-- A settings app: a scene with a split of controllers (sidebar and detail), a theme picked per
-- scene, a settings sheet presented modally, registrations that keep a status line current,
-- and the hierarchy printed at the end.
local tk = require "traitkit"

local Theme = tk.defineTrait{ name = "Theme", identifier = "com.example.settings.theme",
  values = {"standard", "pastel", "bold", "monochrome"}, default = "standard", affectsColorAppearance = true }
local InSettings = tk.defineTrait{ name = "ContainedInSettings", identifier = "com.example.settings.contained",
  default = false }
local RowHeight = tk.defineTrait{ name = "RowHeight", default = 44, kind = "integer" }

local screen = tk.Screen{ name = "iPad", userInterfaceIdiom = "pad", displayScale = 2,
  horizontalSizeClass = "regular", verticalSizeClass = "regular" }
local scene = tk.WindowScene{ screen = screen, name = "main" }
local window = tk.Window{ scene = scene, name = "window" }

-- Controllers
local Split = tk.ViewController:subclass("SplitController")
function Split:viewDidLoad()
  self.sidebar = tk.ViewController{ name = "sidebar" }
  self.detail = tk.ViewController{ name = "detail" }
  for _, child in ipairs{ self.sidebar, self.detail } do
    self:addChild(child)
    self.view:addSubview(child.view)
  end
  self.sidebar.traitOverrides.horizontalSizeClass = "compact"   -- the sidebar column is narrow
end

local Row = tk.View:subclass("Row")
function Row:layoutSubviews()
  -- Read during layout: automatic trait tracking relayouts the row when these change.
  self.frameHeight = self.traitCollection.RowHeight
  self.style = self.traitCollection.Theme
end

local split = Split{ name = "split" }
window.rootViewController = split
for i, title in ipairs{ "General", "Display", "Privacy" } do
  split.sidebar.view:addSubview(Row{ name = title:lower() })
end

local status = {}
split.detail:registerForTraitChanges({ Theme, "horizontalSizeClass" }, function(detail, previous)
  status[#status + 1] = string.format("detail: theme %s -> %s, width %s -> %s", previous.Theme,
    detail.traitCollection.Theme, previous.horizontalSizeClass, detail.traitCollection.horizontalSizeClass)
end)

tk.update()
print("launch:  sidebar " .. split.sidebar.traitCollection.horizontalSizeClass
  .. ", detail " .. split.detail.traitCollection.horizontalSizeClass)

-- Theme switching per scene
for _, theme in ipairs{ "pastel", "monochrome" } do
  scene.traitOverrides.Theme = theme
  tk.update()
  local general = split.sidebar.view.subviews[1]
  print(string.format("theme %-10s row style %s, height %d", theme, general.style, general.frameHeight))
end

-- A settings sheet presented from the detail; inside it rows are denser
local sheet = tk.ViewController{ name = "settingsSheet" }
split:present(sheet)
sheet.traitOverrides[InSettings] = true
sheet.traitOverrides.RowHeight = 36
sheet.view:addSubview(Row{ name = "sheetRow" })
tk.update()
local sheetRow = sheet.view.subviews[1]
print(string.format("sheet:   in settings %s, row height %d, theme %s (from the window)",
  tostring(sheetRow.traitCollection.ContainedInSettings), sheetRow.frameHeight, sheetRow.traitCollection.Theme))

-- Dark mode arrives while the sheet is up
screen:setSystemTraits{ userInterfaceStyle = "dark" }
tk.update()
print("dark:    sheet row sees " .. sheetRow.traitCollection.userInterfaceStyle)

for _, line in ipairs(status) do print(line) end
print()
print(tk.tree(window))
split:dismiss()
tk.update()
print()
print("after dismiss: sheet has a window: " .. tostring(sheet.view.window ~= nil))
