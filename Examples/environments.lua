-- One configuration script, checked under several environments: the same hierarchy is built
-- once per environment (a phone and a pad, light and dark, a larger text size), and each view
-- reports what it would show. A configuration that only looks right in the environment its
-- author tried shows up here as a row that is wrong.
--
-- Try one environment from the command line too, without editing the script:
--   traitkit run --trait userInterfaceStyle=dark --trait Density=compact Examples/environments.lua
local tk = require "traitkit"

local Density = tk.defineTrait{ name = "Density", values = {"regular", "compact"}, default = "regular" }

-- The configuration under test: columns by size class, colors by style, a compact density
-- for large text, and a per-idiom title.
local function configure(screen)
  local window = tk.Window{ scene = tk.WindowScene{ screen = screen } }
  local root = tk.ViewController{ name = "settings" }
  window.rootViewController = root
  local list = tk.View{ name = "list" }
  root.view:addSubview(list)
  root:registerForTraitChanges({"preferredContentSizeCategory"}, function(vc)
    local large = vc.traitCollection.preferredContentSizeCategory:find("accessibility") ~= nil
    vc.traitOverrides.Density = large and "compact" or nil
  end)
  return list
end

local function describe(tc)
  local columns = tc.horizontalSizeClass == "regular" and 2 or 1
  local background = tk.Color.systemBackground:resolvedColor(tc)
  return string.format("%-5s %-6s %-20s columns=%d background=%s density=%s",
    tc.userInterfaceIdiom, tc.userInterfaceStyle, tc.preferredContentSizeCategory, columns,
    tostring(background), tc.Density)
end

local environments = {
  { userInterfaceIdiom = "phone", horizontalSizeClass = "compact", userInterfaceStyle = "light" },
  { userInterfaceIdiom = "phone", horizontalSizeClass = "compact", userInterfaceStyle = "dark" },
  { userInterfaceIdiom = "pad", horizontalSizeClass = "regular", userInterfaceStyle = "light" },
  { userInterfaceIdiom = "pad", horizontalSizeClass = "regular", userInterfaceStyle = "dark",
    userInterfaceLevel = "elevated" },
}
for _, traits in ipairs(environments) do
  traits.preferredContentSizeCategory = "large"
  local screen = tk.Screen(traits)
  local list = configure(screen)
  tk.update()
  print(describe(list.traitCollection))
  -- The user picks an accessibility text size: the registration switches the density.
  screen:setSystemTraits{ preferredContentSizeCategory = "accessibilityLarge" }
  tk.update()
  print(describe(list.traitCollection))
end
