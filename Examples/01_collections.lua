-- WWDC23 "Unleash the UIKit trait system", Understanding traits:
-- build a trait collection with a builder function, then derive one with modifying.
local tk = require "traitkit"

-- Build a new trait collection instance from scratch
local myTraits = tk.TraitCollection(function(t)
  t.userInterfaceIdiom = "phone"
  t.horizontalSizeClass = "regular"
end)

-- Get a new instance by modifying traits of an existing one
local otherTraits = myTraits:modifying(function(t)
  t.horizontalSizeClass = "compact"
  t.userInterfaceStyle = "dark"
end)

print("myTraits:    " .. tostring(myTraits))
print("otherTraits: " .. tostring(otherTraits))
print("idiom kept:  " .. otherTraits.userInterfaceIdiom)
print("changed:     " .. table.concat(otherTraits:changedTraits(myTraits), ", "))
print("JSON:        " .. otherTraits:toJSON())
