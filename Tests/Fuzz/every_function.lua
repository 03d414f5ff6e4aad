-- The audit of every function a script can reach (DESIGN.md §7): module functions, class
-- tables and their metatables, every engine object's metatable (metamethods the debug library
-- hands out with any arguments), and every member of every engine class, taken from the
-- binding's own member tables (BadInputTests prepends them as MEMBERS; run alone, the members
-- reachable from the samples' metatables are audited).
--   traitkit run Tests/Fuzz/every_function.lua
-- Each function is called with no arguments, with foreign selves (numbers, strings, tables,
-- file handles, coroutines, other engine objects), with wrong types and extra arguments after
-- a good self, and finally on objects whose finalizer was called by hand. Every call must
-- return or raise a Lua error; a method or metamethod given a self that is no engine object
-- must raise (finalizers and `__eq` answer instead, as Lua's own do). Prints a summary.
local tk = require "traitkit"
local E = tk.elements
local MEMBERS = rawget(_G, "MEMBERS") or {}

-- One sample of every class of engine object, in a window so updates reach them.
local screen = tk.Screen{ userInterfaceIdiom = "phone" }
local scene = tk.WindowScene{ screen = screen, name = "scene" }
local window = tk.Window{ scene = scene }
local root = tk.ViewController{ name = "root" }
window.rootViewController = root
local view = tk.View{ name = "view" }
root.view:addSubview(view)
local sheet = tk.ViewController{ name = "sheet" }
root:present(sheet)
local env, builder
local host = tk.HostingController{ root = E.VStack{
  E.Custom{ name = "Probe", body = function(e) env = e; return E.Text{ text = "probe" } end },
  E.ScrollView{ E.Text{ text = "scrolled" } }, E.Button{ title = "b" }, E.TextEditor{ text = "e" } } }
root:addChild(host)
root.view:addSubview(host.view)
tk.TraitCollection(function(t) builder = t end)
local Theme = tk.defineTrait{ name = "AuditTheme", values = { "plain", "loud" }, default = "plain" }
local collection = tk.TraitCollection{ userInterfaceStyle = "dark", [Theme] = "loud" }
local token = view:registerForTraitChanges({ Theme }, function() end)
tk.update()
-- The views only the declarative layer makes, by class name.
local made = {}
local function collect(v)
  made[v.className] = made[v.className] or v
  for _, sub in ipairs(v.subviews) do collect(sub) end
end
collect(host.view)

local samples = {
  TraitCollection = collection, Builder = builder, Element = E.Text{ text = "t" },
  EnvironmentKey = tk.EnvironmentKey{ name = "auditKey", default = 1 }, EnvironmentReader = env,
  HostingConfiguration = tk.HostingConfiguration{ root = E.Text{ text = "cell" } },
  Proxy = view.traitOverrides, Trait = Theme, TraitEnvironment = tk.View{ name = "plain" },
  View = view, Window = window, ScrollView = made.ScrollView, Label = made.Label, Button = made.Button,
  TextView = made.TextView, StackView = made.StackView, HostingView = host.view,
  ViewController = root, HostingController = host, PresentationController = sheet.presentationController,
  WindowScene = scene, Screen = screen, TraitChangeRegistration = token, Application = tk.app,
  Color = tk.Color(function(tc) return tk.Color.systemRed end), ImageAsset = tk.ImageAsset(),
}
for _, entry in ipairs(MEMBERS) do
  assert(samples[entry.type] ~= nil, "no sample of " .. entry.type .. " in Tests/Fuzz/every_function.lua")
end
-- A promoted collection (its own metatable, with the memo as __index): read often by name.
for _ = 1, 20 do _ = collection.userInterfaceStyle end

-- Values that are wrong almost everywhere.
local foreign = { 0, -1, 0 / 0, math.huge, "", "x", true, {}, io.stdout, coroutine.create(print), print }
local wrong = { nil, 0, 1 << 62, 0 / 0, "", "userInterfaceStyle", "no such name", true, {}, { 1, 2 },
  { userInterfaceStyle = "purple" }, io.stdout, function() end, function() error("raised") end,
  coroutine.create(print), string.rep("x", 1000) }
for _, sample in pairs(samples) do wrong[#wrong + 1] = sample end
local nwrong = #wrong

-- Every function, once, with what it is: "module" functions may accept any first argument;
-- "method"s and "meta"methods belong to objects and must refuse a foreign self.
local functions, names, roles, selves = {}, {}, {}, {}
local function add(f, name, role, self)
  if type(f) ~= "function" or roles[f] then return end
  functions[#functions + 1] = f
  names[f], roles[f], selves[f] = name, role, self
end
local visited = {}
local function walk(value, path, role, self, depth)
  if depth > 8 or visited[value] then return end
  if type(value) == "function" then return add(value, path, role, self) end
  if type(value) ~= "table" and type(value) ~= "userdata" then return end
  visited[value] = true
  if type(value) == "table" then
    for k, v in next, value do walk(v, path .. "." .. tostring(k), role, self, depth + 1) end
  end
  local mt = debug.getmetatable(value)
  if mt then walk(mt, path .. "<mt>", "meta", value, depth + 1) end
end
walk(tk, "tk", "module", nil, 0)
for class, sample in pairs(samples) do walk(sample, class, "meta", sample, 0) end
for _, entry in ipairs(MEMBERS) do
  local sample = samples[entry.type]
  for _, name in ipairs(entry.methods) do add(sample[name], entry.type .. ":" .. name, "method", sample) end
end

local calls, refused = 0, 0
local function call(f, ...)
  calls = calls + 1
  local ok, err = pcall(f, ...)
  if not ok and type(err) ~= "string" and type(err) ~= "table" then
    error(("%s raised a %s"):format(names[f], type(err)))
  end
  return ok, err
end
local function isFinalizerOrEquality(name) return name:find("__gc$") or name:find("__eq$") or name:find("__close$") end

-- 1. Wrong counts and foreign selves.
local accepted = {}
for _, f in ipairs(functions) do
  call(f)
  for _, self in ipairs(foreign) do
    local ok = call(f, self, "userInterfaceStyle", 1)
    call(f, self)
    if ok and roles[f] ~= "module" and not isFinalizerOrEquality(names[f]) then
      accepted[#accepted + 1] = ("%s accepted a %s as self"):format(names[f], type(self))
    end
  end
end
-- 2. A good self, then wrong types and too many arguments.
for _, f in ipairs(functions) do
  local self = selves[f]
  if self ~= nil and not isFinalizerOrEquality(names[f]) then
    for i = 1, nwrong do
      local w = wrong[i]
      call(f, self, w)
      call(f, self, "userInterfaceStyle", w, w, w)
      call(f, self, w, wrong[(i * 7) % nwrong + 1], w)
    end
  end
end
-- 3. Getters and setters of every member table, with wrong values.
for _, entry in ipairs(MEMBERS) do
  local sample = samples[entry.type]
  for _, name in ipairs(entry.getters) do call(function() return sample[name] end) end
  for _, name in ipairs(entry.setters) do
    for i = 1, nwrong do call(function() sample[name] = wrong[i] end) end
  end
end
tk.update()
-- 4. Finalizers called by hand: the objects are gone for Lua, but every path must still
-- refuse them (or ignore them, for the finalizer itself) instead of following a freed pointer.
local zombies = {}
for class, sample in pairs(samples) do
  local mt = debug.getmetatable(sample)
  if type(sample) == "userdata" and mt and mt.__gc then
    mt.__gc(sample)
    mt.__gc(sample)
    zombies[#zombies + 1] = sample
  end
end
for _, f in ipairs(functions) do
  for _, zombie in ipairs(zombies) do
    local ok = call(f, zombie, "userInterfaceStyle", zombie)
    -- (`__tostring` names a collected object instead of refusing it: messages print them.)
    if ok and roles[f] ~= "module" and selves[f] == zombie and not isFinalizerOrEquality(names[f])
      and not names[f]:find("__tostring$") then
      accepted[#accepted + 1] = ("%s accepted its own collected object"):format(names[f])
    end
  end
end
call(tk.update)
call(tk.dump, window)
collectgarbage()
collectgarbage()

if #accepted > 0 then error(table.concat(accepted, "\n"), 0) end
print(("audited %d functions with %d calls"):format(#functions, calls))
