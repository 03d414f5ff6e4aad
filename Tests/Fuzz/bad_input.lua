-- Bad-input testing of the Lua API (DESIGN.md §7, issue #8).
--   traitkit run Tests/Fuzz/bad_input.lua [seed] [calls] [trace]
-- Makes `calls` random calls (default 200,000) on every object and member of the module:
-- wrong types, nil, huge strings, NaN, wrong `self`, removed nodes, callbacks that raise
-- or yield, lifecycle methods that raise. Each call must return or raise a Lua error whose
-- message is a string that carries a position and stays short; after each batch of 1,000
-- calls the hierarchy is checked (links agree both ways, no cycles, an update brings every
-- view in the window to the value its overrides give). Prints the seed on failure.
local tk = require "traitkit"
local seed = math.tointeger(tonumber(arg and arg[1])) or 1
local calls = math.tointeger(tonumber(arg and arg[2])) or 200000
local trace = arg and arg[3] == "trace" -- print each call before making it
math.randomseed(seed)
local random = math.random

local function fail(message)
  error(string.format("seed %d: %s\n(replay: traitkit run Tests/Fuzz/bad_input.lua %d %d)",
    seed, message, seed, calls), 0)
end

-- The stage: a window with a root controller, views in and out of it, a child controller,
-- a subclass whose lifecycle methods may raise.
local Flaky = tk.View:subclass("Flaky")
function Flaky:layoutSubviews() if random(4) == 1 then error("layout failed") end end
function Flaky:draw() if random(4) == 1 then error({ "a table error" }) end end
local FlakyController = tk.ViewController:subclass("FlakyController")
function FlakyController:viewIsAppearing() if random(3) == 1 then error("appearing failed") end end

local screen = tk.Screen{ userInterfaceIdiom = "phone" }
local scene = tk.WindowScene{ screen = screen }
local window = tk.Window{ scene = scene }
local root = FlakyController{ name = "root" }
window.rootViewController = root
local child = tk.ViewController{ name = "child" }
root:addChild(child)
root.view:addSubview(child.view)

local views = { root.view, child.view }
for i = 1, 24 do
  local v = (i % 3 == 0 and Flaky or tk.View){ name = "v" .. i }
  views[#views + 1] = v
  if i % 4 ~= 0 then views[random(#views - 1)]:addSubview(v) end
end

-- Values a careless or hostile script passes.
local huge = string.rep("x", 1 << 20)
local co = coroutine.create(function() end)
local values = table.pack(
  nil, false, true, 0, -1, 1 << 62, 0.5, 1e308, -1e308, 0/0, math.huge, "", "dark", "compact",
  "no such trait", huge, "\0\1\2", {}, { 1, 2, 3 }, { userInterfaceStyle = "purple" },
  { name = huge }, setmetatable({}, { __index = function() error("hostile __index") end }),
  function() end, function() error("callback raised") end, function() error({}) end,
  function() coroutine.yield() end, co, tostring, tk, tk.View, tk.traits.userInterfaceStyle,
  tk.Color.systemBlue, tk.TraitCollection{}, tk.ImageAsset(), screen, scene, window, root, child)
-- More items than a C function has stack slots without asking: a long list of elements (as
-- children) and, for some calls, that many arguments.
local long = {}
for i = 1, 40 do long[i] = tk.elements.Text{ text = "t" .. i } end
values.n = values.n + 1
values[values.n] = long
local nvalues = values.n
local function manyValues()
  local t = {}
  for i = 1, 40 do t[i] = values[random(nvalues)] end
  return t
end
local function anyValue() return values[random(nvalues)] end
local function anyView() return views[random(#views)] end

-- Receivers and their member names (unknown ones included).
local names = {
  "addChild", "addSubview", "insertSubview", "removeFromParent", "removeFromSuperview", "present",
  "dismiss", "registerForTraitChanges", "unregisterForTraitChanges", "updateTraitsIfNeeded",
  "layoutIfNeeded", "setNeedsLayout", "setNeedsDisplay", "setSystemTraits", "explain", "isKindOf",
  "findChild", "ancestor", "previousSibling", "loadViewIfNeeded", "traitOverrides", "traitCollection",
  "modifying", "changedTraits", "hasDifferentColorAppearance", "performAsCurrent", "toTable",
  "toJSON", "resolvedColor", "register", "image", "contains", "remove", "name", "backgroundColor",
  "tintColor", "overrideUserInterfaceStyle", "rootViewController", "scene", "screen", "superview",
  "subviews", "view", "parent", "children", "userInterfaceStyle", "horizontalSizeClass",
  "displayScale", "Theme", "layoutSubviews", "draw", "loadView", "viewDidLoad", "traitCollectionDidChange",
  "cgColor", "red", "current", "VStack", "Text", "Custom", "text", "axis", "title", "noSuchMember", "__index", "",
}
local function receivers()
  local r = random(12)
  if r <= 5 then return anyView() end
  if r == 6 then return anyView().traitOverrides end
  if r == 7 then return anyView().traitCollection end
  if r == 8 then return ({ root, child, window, scene, screen })[random(5)] end
  if r == 9 then -- a static color, a dynamic one whose provider answers anything, or the class table
    local c = random(3)
    if c == 1 then return tk.Color.hex("#336699") end
    if c == 2 then local v = anyValue(); return tk.Color(function() return v end) end
    return tk.TraitCollection
  end
  if r == 10 then return values[random(nvalues)] end
  if r == 11 then return tk.elements end
  return tk
end

-- Members that run a function they are given: its error leaves them as it was raised, and
-- tostring, a C function, raises without a position, as it does when Lua code calls it.
local runsFunctions = { performAsCurrent = true, modifying = true, resolvedColor = true,
  register = true, setSystemTraits = true, TraitCollection = true }
local function positionless(name, ...)
  if not runsFunctions[name] then return false end
  for i = 1, select("#", ...) do
    if select(i, ...) == tostring then return true end
  end
  return false
end

local function checkMessage(err, what, raisedByTostring)
  if type(err) ~= "string" then
    if type(err) == "table" then return end -- a script's own table error, passed through as is
    fail(what .. " raised a " .. type(err))
  end
  if #err > 4096 then fail(what .. " raised a message of " .. #err .. " bytes") end
  -- Lua's own messages for these carry no position.
  local core = err:find("not enough memory", 1, true) or err:find("stack overflow", 1, true)
    or err:find("attempt to yield", 1, true)
  if not err:find(":%d+: ") and not core and not raisedByTostring then
    fail(what .. " raised a message without a position: " .. err)
  end
end

-- One random call; `how` says what it did, for messages.
local function oneCall()
  local receiver, name = receivers(), names[random(#names)]
  local how = tostring(receiver):sub(1, 40) .. "." .. name
  if random(25) == 1 then -- pairs over anything; over overrides, changing them in the loop
    local ok, err = pcall(function()
      for k in pairs(receiver) do
        if type(receiver) == "userdata" and random(2) == 1 then receiver[k] = anyValue() end
      end
    end)
    if not ok then checkMessage(err, "pairs over " .. how) end
    return
  end
  local ok, member = pcall(function() return receiver[name] end)
  if not ok then return checkMessage(member, "reading " .. how) end
  local err
  if type(member) == "function" then
    local self = random(3) == 1 and anyValue() or receiver
    local a, b, c = anyValue(), anyValue(), anyValue()
    if trace then print(how, tostring(self):sub(1, 40), tostring(a):sub(1, 40), tostring(b):sub(1, 40)) end
    local more = random(10) == 1 and manyValues() or {}
    ok, err = pcall(function() member(self, a, b, c, table.unpack(more)) end) -- from Lua, so errors carry a position
    if not ok then return checkMessage(err, how, positionless(name, self, a, b, c, table.unpack(more))) end
  elseif type(receiver) == "table" and receiver == tk then
    local fname = ({ "View", "ViewController", "Window", "WindowScene", "Screen", "TraitCollection",
      "Color", "ImageAsset", "defineTrait", "update", "async", "dump", "tree", "EnvironmentKey",
      "HostingController", "Label", "StackView", "HostingView" })[random(18)]
    local f = tk[fname]
    local a, b = anyValue(), anyValue()
    local more = random(10) == 1 and manyValues() or {}
    ok, err = pcall(function() f(a, b, table.unpack(more)) end)
    if not ok then return checkMessage(err, "tk." .. fname, positionless(fname, a, b, table.unpack(more))) end
  elseif type(receiver) == "userdata" or rawequal(receiver, tk.TraitCollection) then
    -- plain tables (the module itself) are the script's to change; TraitCollection's class
    -- table guards its fields (only `current` can be set)
    local value = anyValue()
    if trace then print(how .. " =", tostring(value):sub(1, 40)) end
    ok, err = pcall(function() receiver[name] = value end)
  end
  if not ok then checkMessage(err, how) end
end

-- Registrations whose handlers raise, yield or return.
local function register()
  local v = anyView()
  local handler = values[({ 23, 24, 25, 26 })[random(4)]] -- returns, raises, raises a table, yields
  pcall(v.registerForTraitChanges, v, { "userInterfaceStyle", "horizontalSizeClass" }, handler)
end

-- The hierarchy is whole: links agree both ways, no cycles, and after an update every view in
-- the window has the userInterfaceStyle its override chain gives (views below the child
-- controller's view, whose controller may override too, are left out).
local function expectedStyle(v)
  local n = v
  while not rawequal(n, root.view) do
    if rawequal(n, child.view) or n == nil then return nil end
    if n.traitOverrides:contains("userInterfaceStyle") then return n.traitOverrides.userInterfaceStyle end
    n = n.superview
  end
  return root.view.traitCollection.userInterfaceStyle
end

local function checkHierarchy(batch)
  for _, v in ipairs(views) do
    local steps, n = 0, v
    while n.superview do
      n = n.superview; steps = steps + 1
      if steps > #views then fail("batch " .. batch .. ": a cycle above " .. tostring(v.name)) end
    end
    local parent = v.superview
    if parent then
      local seen = 0
      for _, s in ipairs(parent.subviews) do if rawequal(s, v) then seen = seen + 1 end end
      if seen ~= 1 then fail("batch " .. batch .. ": " .. tostring(v.name) .. " is " .. seen .. " times in its superview") end
    end
    for _, s in ipairs(v.subviews) do
      if not rawequal(s.superview, v) then fail("batch " .. batch .. ": a subview of " .. tostring(v.name) .. " names another superview") end
    end
  end
  for _ = 1, 3 do if pcall(tk.update) then break end end
  for _, v in ipairs(views) do
    local want = rawequal(v.window, window) and expectedStyle(v)
    if want and v.traitCollection.userInterfaceStyle ~= want then
      fail(string.format("batch %d: %s has %s, its overrides give %s", batch, tostring(v.name),
        v.traitCollection.userInterfaceStyle, want))
    end
  end
end

local batches = math.max(1, calls // 1000)
for batch = 1, batches do
  for i = 1, 1000 do
    if i % 100 == 0 then register() end
    if i % 250 == 0 then
      local ok, err = coroutine.resume(coroutine.create(oneCall))
      if not ok and tostring(err):find("^seed %d+: ") then error(err, 0) end -- a failure found inside
      if not ok then checkMessage(err, "a call in a coroutine") end
    else
      oneCall()
    end
  end
  -- Keep the stage usable: the root back in its window.
  window.rootViewController = root
  checkHierarchy(batch)
end
print(string.format("bad input: %d calls, seed %d, hierarchy whole after each of %d batches", batches * 1000, seed, batches))
