-- Fuzz seed 1278 (Tests/Fuzz/random_scripts.py, 120 statements), reduced by the fuzzer.
-- Corrupted the heap under Lua 5.4.7 built with HARDMEMTESTS ("malloc(): invalid next size"):
-- there, luaC_condGC evaluates its 'pre' twice, and lvm.c's checkGC passes L->top = ra + 1.
-- At one OP_NEWTABLE the positive debt's step ran a finalizer whose call grew and moved the
-- stack; the second 'pre', for the forced full collection, set the top from the stale `ra`,
-- and the collection cleared the "dead" slice of the freed stack (valgrind: the write in
-- traversethread and the free in luaD_reallocstack, both under the same checkGC). Builds
-- without HARDMEMTESTS evaluate 'pre' once and run it clean. Scripts/check-lua-api patches
-- the heavy-test macro (no forced collection after a step) and runs this script:
--   LD_LIBRARY_PATH=.build/lua-hardmem-trixie .build/release/traitkit run THIS_FILE
local tk = require "traitkit"
local E = tk.elements
local Theme = tk.defineTrait{ name = "FuzzTheme", values = { "plain", "loud", "quiet" }, default = "plain",
  affectsColorAppearance = true }
local Gap = tk.defineTrait{ name = "FuzzGap", default = 8, kind = "integer" }
local Obj = tk.defineTrait{ name = "FuzzObj", kind = "object" }
local Rec = tk.defineTrait{ name = "FuzzRec", default = { top = 0, left = 0 } }
local Card = tk.View:subclass("FuzzCard")
local Ctl = tk.ViewController:subclass("FuzzCtl")
local screen = tk.Screen{ userInterfaceIdiom = "phone" }
local scene = tk.WindowScene{ screen = screen, name = "scene" }
local window = tk.Window{ scene = scene }
local V, C, TC, K, X = {}, {}, {}, {}, {}
C[1] = tk.ViewController{ name = "root" }
window.rootViewController = C[1]
X.target = { hit = function(self, node, previous) X.hits = (X.hits or 0) + 1 end }
local function P(f) return pcall(f) end
for i = 1, 8 do V[i] = (i % 3 == 0 and Card or tk.View){ name = "v" .. i } end
for i = 1, 4 do C[1].view:addSubview(V[i]) end
V[1]:addSubview(V[5]); V[5]:addSubview(V[6])
for i = 2, 4 do C[i] = (i == 3 and Ctl or tk.ViewController){ name = "c" .. i } end
C[1]:addChild(C[2]); C[1].view:addSubview(C[2].view)
for i = 1, 4 do TC[i] = tk.TraitCollection{ horizontalSizeClass = i % 2 == 0 and "compact" or "regular" } end
K[1] = V[1]:registerForTraitChanges({ Theme }, function() end)
X.asset = tk.ImageAsset()
X.key = tk.EnvironmentKey{ name = "fuzzKey", default = 1 }
X.host = tk.HostingController{ root = E.Text{ text = "host" } }
tk.update()
P(function() V[3].backgroundColor = tk.Color(function(tc) P(function() _ = TC[1]:containsTraits(TC[2]) end) P(function() TC[4] = tk.TraitCollection(function(b) X.builder = b; b[Obj] = { 1 }; P(function() tk.Color.register("A1", tk.Color(function(tc) P(function() V[8].overrideUserInterfaceStyle = 0 end) return tk.Color.green end)) end) P(function() _ = tostring(TC[3]) .. tostring(V[7]) .. tostring(C[2]) end) end) end) P(function() Card.draw = function(self) _ = self.traitCollection[Theme]  end end) return tk.Color.systemBlue end) end)
P(function() window.scene = nil end)
P(function() V[3].traitCollectionDidChange = function(node, previous) P(function() _ = tk.tree({ resolved = true }) end) P(function() debug.getmetatable(V[2]).__pairs() end) P(function() tk.update() end)  end end)
P(function() window:layoutIfNeeded() end)
P(function() window.scene = tk.WindowScene{ screen = screen } end)
P(function() _ = tk.tree({ resolved = true }) end)
P(function() TC[4]:performAsCurrent(function() _ = tk.TraitCollection.current.FuzzTheme P(function() collectgarbage("incremental", 10, 1000, 10) end) P(function() C[2]:didMoveToParent(V[3]) end) P(function() X.host = tk.HostingController{ root = E.VStack{ E.Text{ text = "a" }, E.Custom{ name = "F", body = function(env) X.env = env; P(function() window:layoutIfNeeded() end) P(function() C[3]:present(C[1]) end) return E.Text{ text = tostring(env.colorScheme) } end } } } end) end) end)
P(function() tk.update() end)
collectgarbage()
collectgarbage()
print("fuzz script done")
