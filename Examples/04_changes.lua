-- WWDC23, Handling changes: the legacy traitCollectionDidChange that compares by hand, then the
-- registration APIs: closures, target-action, setNeedsLayout as the action, the semantic set,
-- and unregistering with the token.
local tk = require "traitkit"
local ContainedInSettings = tk.defineTrait{ name = "ContainedInSettings", default = false }

local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
local root = tk.ViewController{ name = "root" }
window.rootViewController = root

-- Efficient legacy implementation that only updates when necessary
local MyView = tk.View:subclass("MyView")
function MyView:traitCollectionDidChange(previous)
  if self.traitCollection.horizontalSizeClass ~= previous.horizontalSizeClass then
    self:updateViews(self.traitCollection.horizontalSizeClass)
  end
end
function MyView:updateViews(sizeClass) print(self.name .. ": update views for size class " .. sizeClass) end
function MyView:layoutSubviews() print(self.name .. ": layoutSubviews") end

local legacy = MyView{ name = "legacy" }
local anotherView = MyView{ name = "anotherView" }
root.view:addSubview(legacy)
root.view:addSubview(anotherView)
tk.update()

-- Register for horizontal size class changes on self
local token = root:registerForTraitChanges({ tk.traits.horizontalSizeClass }, function(self, previous)
  print("root: size class " .. previous.horizontalSizeClass .. " -> " .. self.traitCollection.horizontalSizeClass)
end)
-- Register for changes to multiple traits on another view
anotherView:registerForTraitChanges({ "horizontalSizeClass", ContainedInSettings }, function(view, previous)
  print(view.name .. ": handle the trait change")
end)
-- Target-action: the view itself as target, setNeedsLayout as the action
anotherView:registerForTraitChanges({ "horizontalSizeClass", ContainedInSettings }, "setNeedsLayout")
-- Target-action with another object as the target
local controller = {}
function controller:handleTraitChange(view, previous) print("controller: " .. view.name .. " changed") end
anotherView:registerForTraitChanges({ ContainedInSettings }, controller, "handleTraitChange")
-- The semantic set: redraw when anything that affects colors changes
anotherView:registerForTraitChanges(tk.systemTraitsAffectingColorAppearance, function(view)
  print(view.name .. ": color appearance changed")
end)

print("-- size class becomes regular")
window.scene.traitOverrides.horizontalSizeClass = "regular"
tk.update()
print("-- ContainedInSettings becomes true")
root.view.traitOverrides[ContainedInSettings] = true
tk.update()
print("-- dark mode")
window.scene.screen:setSystemTraits{ userInterfaceStyle = "dark" }
tk.update()
print("-- unregister the root's registration, then size class becomes compact")
root:unregisterForTraitChanges(token)
window.scene.traitOverrides.horizontalSizeClass = "compact"
tk.update()
