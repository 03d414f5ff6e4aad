-- The debug library against the binding's own storage (DESIGN.md §7).
--   traitkit run Tests/Fuzz/tampering.lua
-- A script with `debug` can put any value where the binding keeps its own: any user value
-- of any of its objects (debug.setuservalue: a node's owner links, cached collection and
-- overrides proxy; a proxy's node; a registration's handler) and the metatable of any of
-- them (debug.setmetatable passes over __metatable). Each is replaced, one at a time, on a
-- fresh stage, with each kind of value (another object of the binding among them); then the
-- API is used on every object. Answers may be odd and calls may raise; the process must not
-- crash, nor an API-checked Lua abort. Then the same for each of the binding's registry slots
-- (debug.getregistry: the tables it keeps by luaL_ref), put back after each use. Prints how
-- many replacements it made.
local tk = require "traitkit"
local E = tk.elements

local function stage()
  local s = {}
  s.window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
  s.controller = tk.ViewController{}
  s.window.rootViewController = s.controller
  s.root = s.controller.view
  s.a, s.b, s.c = tk.View{ name = "a" }, tk.View{ name = "b" }, tk.View{ name = "c" }
  s.root:addSubview(s.a); s.a:addSubview(s.b); s.a:addSubview(s.c)
  s.registration = s.a:registerForTraitChanges({ "userInterfaceStyle" }, function() end)
  s.overrides = s.a.traitOverrides
  s.collection = s.a.traitCollection
  -- Read often enough to get a memo and a metatable of its own (a tampered collection may
  -- be this stage's too: collections that are equal are one object).
  pcall(function() for _ = 1, 20 do local _ = s.collection.userInterfaceStyle end end)
  s.color = tk.Color(function() return tk.Color.systemBlue end)
  s.host = tk.HostingController{ root = E.VStack{ E.Text{ text = "x" } } }
  s.root:addSubview(s.host.view)
  return s
end

local function use(s)
  pcall(function() return s.a.traitCollection.userInterfaceStyle end)
  pcall(function() return s.collection.userInterfaceStyle, s.collection.horizontalSizeClass end)
  pcall(function() s.a.traitOverrides.userInterfaceStyle = "dark" end)
  pcall(function() s.overrides.horizontalSizeClass = "compact"; return s.overrides:contains("userInterfaceStyle") end)
  pcall(tk.update)
  pcall(function()
    s.c:removeFromSuperview(); s.b:addSubview(s.c); s.a:removeFromSuperview(); s.root:addSubview(s.a)
  end)
  pcall(function() s.a:unregisterForTraitChanges(s.registration) end)
  pcall(function() s.a.field = 1; return s.a.field end)
  pcall(function() for _ in pairs(s.a) do end; for _ in pairs(s.collection) do end end)
  pcall(function() return s.color:resolvedColor(s.collection) end)
  pcall(tk.dump, s.window)
  pcall(function() s.controller.traitOverrides.userInterfaceStyle = "light"; tk.update() end)
end

local targets = { "a", "root", "window", "controller", "collection", "overrides", "registration", "color", "host" }
local values = {
  function() return 5 end, function() return {} end, function() return tostring end,
  function() return false end, function() return nil end,
  function(s) return s.b end, function(s) return s.collection end,
  function(s) return s.overrides end, function(s) return s.registration end,
}
-- A metatable to put on an object: another kind's, a plain table's, or none.
local function metatableOf(value)
  if type(value) == "userdata" then return debug.getmetatable(value) end
  if type(value) == "table" then return value end
  return nil
end

local replaced = 0
for _, target in ipairs(targets) do
  for _, value in ipairs(values) do
    for slot = 0, 8 do  -- 0: the metatable
      local s = stage()
      local ok, done  -- debug.setuservalue gives nil for a slot the object does not have
      if slot == 0 then
        ok, done = pcall(debug.setmetatable, s[target], metatableOf(value(s)))
      else
        ok, done = pcall(debug.setuservalue, s[target], value(s), slot)
      end
      if ok and done ~= nil then replaced = replaced + 1 end
      use(s)
      collectgarbage()
    end
  end
end
collectgarbage()
print("replaced " .. replaced .. " values")

-- Slots 1 and 2 are Lua's own (the main thread, the globals); the binding's refs follow.
local registry, slots = debug.getregistry(), {}
for key, value in pairs(registry) do
  if math.type(key) == "integer" and key > 2 and type(value) == "table" then slots[#slots + 1] = key end
end
table.sort(slots)
local kept = 0
for _, key in ipairs(slots) do
  for _, value in ipairs{ 5, false, "x", tostring } do
    local s = stage()
    local original = registry[key]
    registry[key] = value
    use(s)
    registry[key] = original
    collectgarbage()
  end
  kept = kept + 1
end
print(kept >= 10 and "replaced at least 10 registry slots" or "replaced only " .. kept .. " registry slots")
