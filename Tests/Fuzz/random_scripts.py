#!/usr/bin/env python3
"""Random-script fuzzer of the Lua binding (DESIGN.md §7).

Generates straight-line Lua scripts, one protected statement a line, over every constructor,
hierarchy mutation, override (good and bad values), registration form (handlers that mutate the
tree, raise strings and tables, re-enter tk.update, unregister, yield), builders, `modifying`,
`performAsCurrent`, coroutines, `tk.async`, the declarative layer, dropped references,
`collectgarbage` at random points, finalizers that use the API, and calls of metamethods through `debug.getmetatable` with
random arguments. Runs each with `traitkit run`, or with `--lua` under a Lua interpreter that
loads the C module (`require "traitkit"` finds it through LUA_CPATH). A script may fail; it
must never end by a signal (a crash, or an assertion of an API-checked Lua). A crash prints
its seed and the script reduced to the lines that still crash it, and the run exits 1.

    Tests/Fuzz/random_scripts.py --bin .build/release/traitkit [--scripts N] [--seed S]
        [--statements N] [--jobs N]
    LUA_CPATH='.build/lua/?.so;;' Tests/Fuzz/random_scripts.py --lua lua5.4 [--scripts N] ...
    Tests/Fuzz/random_scripts.py --print SEED      # the script of one seed, to stdout
"""
import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

PRELUDE = """\
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
local function P(f) local ok, err = pcall(f) return ok, err end
-- A hook that raises a few times, now and then, only where a P call protects it: not in the
-- main chunk, not in a function it calls directly, not in P or pcall themselves (their events
-- come before or after the protection). Then it only watches: raising on every statement would
-- leave the rest of the script testing nothing.
X.hook = function(n, left) return function()
  if left == 0 then return end
  local here, caller = debug.getinfo(2, "Snf"), debug.getinfo(3, "S")
  if here and here.what ~= "main" and here.name ~= "P" and here.name ~= "pcall" and here.func ~= P
     and not (caller and caller.what == "main") and math.random(n) == 1 then left = left - 1; error("hook") end
end end
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
"""
EPILOGUE = """\
pcall(debug.sethook)
P(function() tk.update() end)
collectgarbage()
collectgarbage()
print("fuzz script done")
"""

STYLES = ['"dark"', '"light"', '"unspecified"', '"purple"', '0', 'nil', '{}']
THEMES = ['"plain"', '"loud"', '"quiet"', '"shouty"', '1', 'nil', 'true']
GAPS = ['0', '3', '-7', '1 << 62', '2.5', '"3"', '0/0', 'nil']
ARGS = ['nil', '0', '-1', '0/0', '"x"', '"userInterfaceStyle"', '"traitCollection"', 'true', '{}', 'io.stdout',
        'print', 'coroutine.create(print)', 'V[1]', 'V[2]', 'C[1]', 'TC[1]', 'K[1]', 'Theme', 'window', 'scene',
        'screen', 'tk.Color.systemBlue', 'tk.app', 'X.asset', 'X.host', 'X.key']
OBJECTS = ['V[{v}]', 'C[{c}]', 'TC[{t}]', 'K[{k}]', 'Theme', 'window', 'scene', 'screen', 'tk.Color.systemBlue',
           'tk.app', 'X.asset', 'X.host', 'X.key', 'V[{v}] and V[{v}].traitOverrides', 'tk.View', 'Card',
           'X.builder', 'X.env', 'tk.TraitCollection']
FIELD_KEYS = ['"title"', '"cornerRadius"', '"draw"', '"layoutSubviews"', '"name"', '"superview"', '"addSubview"',
              '"traitCollection"', '1', 'true', '0/0', 'Theme', '"__super"']
METAMETHODS = ['__index', '__newindex', '__tostring', '__eq', '__call', '__pairs', '__close', '__gc', '__len']


class Generator:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def v(self): return self.r.randint(1, 8)
    def c(self): return self.r.randint(1, 4)
    def t(self): return self.r.randint(1, 4)
    def k(self): return self.r.randint(1, 6)
    def pick(self, xs): return self.r.choice(xs)

    def obj(self):
        return self.pick(OBJECTS).format(v=self.v(), c=self.c(), t=self.t(), k=self.k())

    def traits(self):
        sets = ['{ Theme }', '{ "userInterfaceStyle" }', '{ Theme, "horizontalSizeClass", Gap }', '{ Obj, Rec }',
                'tk.systemTraitsAffectingColorAppearance', 'tk.systemTraitsAffectingImageLookup', '{}', '{ "nope" }',
                '{ 5 }']
        return self.pick(sets)

    def body(self, depth):
        """A few statements for a handler, lifecycle method, builder or coroutine body."""
        if depth > 2:
            return ''
        return ' '.join('P(function() %s end)' % self.statement(depth + 1) for _ in range(self.r.randint(0, 3)))

    def handler(self, depth):
        raise_ = self.pick(['', '', '', 'error("handler raised")', 'error({ code = 42 })', 'error()'])
        return 'function(node, previous) %s %s end' % (self.body(depth), raise_)

    def statement(self, depth=0):
        r, v, c, t, k = self.r, self.v, self.c, self.t, self.k
        choices = [
            # Constructors and hierarchy.
            lambda: 'V[%d] = %s{ name = "v%d" }' % (v(), self.pick(['tk.View', 'Card', 'tk.View']), v()),
            lambda: 'V[%d] = tk.View%s' % (v(), self.pick(['{ nmae = "typo" }', '(5)', '{ name = 5 }', '()'])),
            lambda: 'V[%d] = %s' % (v(), self.pick(['tk.Label{ text = "l" }', 'tk.Button{ title = 1 }', 'tk.TableView{}',
                                                   'tk.StackView{ axis = "vertical" }', 'tk.TextView{ text = "t" }',
                                                   'tk.HostingView{}', 'tk.Label:subclass("L%d"){}' % r.randint(0, 3)])),
            lambda: '%s = %s' % (self.pick(['V[%d].text' % v(), 'V[%d].axis' % v(), 'V[%d].title' % v(),
                                            'V[%d].color' % v()]),
                                 self.pick(['"x"', 'nil', '"horizontal"', '5', 'tk.Color.red'])),
            lambda: 'V[%d]:addSubview(V[%d])' % (v(), v()),
            lambda: 'C[%d].view:addSubview(V[%d])' % (c(), v()),
            lambda: 'V[%d]:insertSubview(V[%d], %d)' % (v(), v(), r.randint(-1, 4)),
            lambda: 'V[%d]:removeFromSuperview()' % v(),
            # Engine methods reached through class tables, with any self.
            lambda: '%s.%s(%s, %s)' % (self.pick(['tk.View', 'Card', 'tk.Window', 'tk.ViewController', 'Ctl', 'tk.Screen']),
                                       self.pick(['addSubview', 'removeFromSuperview', 'addChild', 'setNeedsLayout',
                                                  'registerForTraitChanges', 'setSystemTraits', 'layoutIfNeeded']),
                                       self.obj(), self.obj()),
            lambda: 'C[%d] = %s{ name = "c%d" }' % (c(), self.pick(['tk.ViewController', 'Ctl']), c()),
            lambda: 'C[%d]:addChild(C[%d])' % (c(), c()),
            lambda: 'C[%d]:removeFromParent()' % c(),
            lambda: 'C[%d]:present(C[%d])' % (c(), c()),
            lambda: 'C[%d]:dismiss()' % c(),
            lambda: 'window.rootViewController = C[%d]' % c(),
            lambda: 'window.scene = %s' % self.pick(['nil', 'scene', 'tk.WindowScene{ screen = screen }']),
            lambda: 'screen:setSystemTraits{ userInterfaceStyle = %s, horizontalSizeClass = "%s" }'
                    % (self.pick(STYLES), self.pick(['compact', 'regular'])),
            lambda: 'screen:setSystemTraits(function(t) t.userInterfaceStyle = %s end)' % self.pick(STYLES),
            # Overrides, good and bad.
            lambda: 'V[%d].traitOverrides[Theme] = %s' % (v(), self.pick(THEMES)),
            lambda: 'V[%d].traitOverrides.userInterfaceStyle = %s' % (v(), self.pick(STYLES)),
            lambda: '%s.traitOverrides.FuzzGap = %s' % (self.pick(['scene', 'window', 'C[%d]' % c(), 'V[%d]' % v()]),
                                                      self.pick(GAPS)),
            lambda: 'V[%d].traitOverrides[Obj] = %s' % (v(), self.pick(['V[%d]' % v(), '{}', 'C[%d]' % c(), 'nil'])),
            lambda: 'V[%d].traitOverrides[Rec] = %s' % (v(), self.pick(['{ top = 1, left = 2 }', '{ top = "x" }', '5'])),
            lambda: 'V[%d].traitOverrides:remove(%s)' % (v(), self.pick(['Theme', '"FuzzGap"', 'Obj', '"nope"'])),
            lambda: '_ = V[%d].traitOverrides:contains(Theme)' % v(),
            lambda: 'V[%d].overrideUserInterfaceStyle = %s' % (v(), self.pick(STYLES)),
            lambda: 'for name, value in pairs(V[%d].traitOverrides) do V[%d].traitOverrides[name] = nil end' % (v(), v()),
            # Registrations.
            lambda: 'K[%d] = V[%d]:registerForTraitChanges(%s, %s)' % (k(), v(), self.traits(), self.handler(depth)),
            lambda: 'K[%d] = C[%d]:registerForTraitChanges(%s, %s)' % (k(), c(), self.traits(), self.handler(depth)),
            lambda: 'K[%d] = V[%d]:registerForTraitChanges(%s, X.target, "hit")' % (k(), v(), self.traits()),
            lambda: 'K[%d] = V[%d]:registerForTraitChanges(%s, "setNeedsLayout")' % (k(), v(), self.traits()),
            lambda: 'V[%d]:unregisterForTraitChanges(K[%d])' % (v(), k()),
            lambda: 'V[%d].traitCollectionDidChange = %s' % (v(), self.handler(depth)),
            # Fields of nodes and values of classes (read through the class chain).
            lambda: 'V[%d][%s] = %s' % (v(), self.pick(FIELD_KEYS), self.pick(ARGS)),
            lambda: '_ = V[%d][%s]' % (v(), self.pick(FIELD_KEYS)),
            lambda: 'Card[%s] = %s' % (self.pick(FIELD_KEYS[:4]), self.pick(ARGS)),
            lambda: 'rawset(Card, "__super", %s)' % self.pick(['Card', 'tk.View', '{}', 'nil', '5']),
            # Lifecycle.
            lambda: '%s.layoutSubviews = function(self) %s end' % (self.pick(['Card', 'V[%d]' % v()]), self.body(depth)),
            lambda: 'Card.draw = function(self) _ = self.traitCollection[Theme] %s end' % self.body(depth),
            lambda: 'Ctl.viewIsAppearing = function(self) %s end' % self.body(depth),
            lambda: 'V[%d]:setNeedsLayout(); V[%d]:setNeedsDisplay()' % (v(), v()),
            lambda: 'Card.updateConstraints = function(self) _ = self.traitCollection[Theme] %s end' % self.body(depth),
            lambda: 'V[%d]:setNeedsUpdateConstraints(); V[%d]:updateConstraintsIfNeeded()' % (v(), v()),
            lambda: 'Card.tintColorDidChange = function(self) %s end' % self.body(depth),
            lambda: 'V[%d].tintColor = %s' % (v(), self.pick(['tk.Color.red', 'nil', 'tk.Color.systemOrange', '5',
                                                               'tk.Color(function(tc) return tk.Color.blue end)'])),
            lambda: 'Ctl.%s = function(self, parent) %s end' % (self.pick(['willMoveToParent', 'didMoveToParent']),
                                                                self.body(depth)),
            lambda: 'C[%d]:%s(%s)' % (c(), self.pick(['willMoveToParent', 'didMoveToParent']),
                                      self.pick(['nil', 'C[%d]' % c(), 'V[%d]' % v()])),
            # Updates.
            lambda: 'tk.update()',
            lambda: 'tk.update()',
            lambda: 'V[%d]:updateTraitsIfNeeded()' % v(),
            lambda: 'window:layoutIfNeeded()',
            lambda: 'tk.async(function(...) %s end, V[%d])' % (self.body(depth), v()),
            # Collections.
            lambda: 'TC[%d] = V[%d].traitCollection' % (t(), v()),
            lambda: 'TC[%d] = tk.TraitCollection{ userInterfaceStyle = %s, [Theme] = %s }' % (t(), self.pick(STYLES),
                                                                                            self.pick(THEMES)),
            lambda: 'TC[%d] = tk.TraitCollection(function(b) X.builder = b; b[Obj] = { %d }; %s end)'
                    % (t(), t(), self.body(depth)),
            lambda: 'TC[%d] = TC[%d]:modifying(%s)' % (t(), t(), self.pick(['{ [Gap] = 3 }', '{ FuzzGap = "x" }',
                                                                            'function(b) b.FuzzObj = {} end'])),
            lambda: 'TC[%d]:performAsCurrent(function() _ = tk.TraitCollection.current.FuzzTheme %s end)'
                    % (t(), self.body(depth)),
            lambda: 'for _ = 1, %d do _ = TC[%d].userInterfaceStyle; _ = TC[%d][Theme] end' % (r.randint(1, 10), t(), t()),
            lambda: '_ = TC[%d]:changedTraits(TC[%d])' % (t(), t()),
            lambda: 'TC[%d] = tk.TraitCollection.traitsFrom{ TC[%d], TC[%d] }' % (t(), t(), t()),
            lambda: '_ = TC[%d]:containsTraits(TC[%d])' % (t(), t()),
            lambda: '_ = TC[%d]:hasDifferentColorAppearance(TC[%d])' % (t(), t()),
            lambda: 'TC[%d] = tk.TraitCollection.fromJSON(TC[%d]:toJSON())' % (t(), t()),
            lambda: 'for name, value in pairs(TC[%d]) do _ = tostring(value) end' % t(),
            lambda: '_ = tostring(TC[%d]) .. tostring(V[%d]) .. tostring(C[%d])' % (t(), v(), c()),
            # Appearance.
            lambda: 'V[%d].backgroundColor = tk.Color(function(tc) %s return tk.Color.systemBlue end)'
                    % (v(), self.body(depth)),
            lambda: '_ = tostring(V[%d].backgroundColor:resolvedColor(TC[%d]))' % (v(), t()),
            lambda: 'X.asset = tk.ImageAsset(); X.asset:register("dark", { userInterfaceStyle = "dark" })',
            lambda: '_ = X.asset:image(TC[%d])' % t(),
            lambda: 'tk.Color.register("A%d", %s)' % (r.randint(1, 2), self.pick([
                'tk.Color.red', 'tk.Color(function(tc) %s return tk.Color.green end)' % self.body(depth), '5'])),
            lambda: '_ = tostring(tk.Color.named("A%d"))' % r.randint(1, 2),
            lambda: 'tk.Image.register("I", X.asset); _ = tk.Image.named("I", TC[%d])' % t(),
            lambda: 'tk.app.userInterfaceStyle = %s' % self.pick(STYLES),
            # Declarative layer.
            lambda: 'X.key = tk.EnvironmentKey{ name = "fuzz%d", default = "a", bridge = Theme }' % r.randint(1, 2),
            lambda: ('X.host = tk.HostingController{ root = E.VStack{ E.Text{ text = "a" }, E.Custom{ name = "F", '
                     'body = function(env) X.env = env; %s return E.Text{ text = tostring(env.colorScheme) } end } } }'
                     % self.body(depth)),
            lambda: 'C[%d]:addChild(X.host); C[%d].view:addSubview(X.host.view)' % (c(), c()),
            lambda: 'X.host.root = E.ScrollView{ E.Text{ text = "s" } }:introspect("ScrollView", function(sv) %s end)'
                    % self.body(depth),
            # Introspection and encoding.
            lambda: '_ = tk.dump(window)',
            lambda: '_ = tk.tree({ resolved = true })',
            lambda: '_ = V[%d]:explain(%s)' % (v(), self.pick(['Theme', '"userInterfaceStyle"', '"nope"'])),
            # Coroutines.
            lambda: 'X.co = coroutine.wrap(function() %s coroutine.yield() %s end); X.co()'
                    % (self.body(depth), self.body(depth)),
            lambda: 'X.co()',
            lambda: 'coroutine.wrap(function() K[%d] = V[%d]:registerForTraitChanges({ Theme }, function() '
                    'coroutine.yield() end) end)()' % (k(), v()),
            # Dropped references and the collector.
            lambda: 'V[%d] = nil' % v(),
            lambda: 'C[%d] = nil' % c(),
            lambda: 'TC[%d] = nil; K[%d] = nil' % (t(), k()),
            lambda: 'collectgarbage()',
            # A finalizer that uses the API: the collector runs it at whatever allocation comes
            # next, in the middle of a binding call or an update among them.
            lambda: 'setmetatable({}, { __gc = function() %s end })' % self.body(depth),
            lambda: 'collectgarbage("step", %d)' % r.randint(0, 64),
            lambda: 'collectgarbage(%s)' % self.pick(['"incremental", 10, 1000, 10', '"incremental", 0, 40, 0',
                                                       '"generational"', '"incremental"']),
            # The debug library against the binding: its closures' upvalues (refused), hooks
            # that raise at random instructions (inside handlers, providers, pairs).
            lambda: 'debug.setupvalue(%s, %d, %s)' % (self.pick([
                'tk.update', 'V[%d].addSubview' % v(), 'debug.getmetatable(V[%d]).__index' % v(),
                'debug.getmetatable(V[%d]).__newindex' % v(), 'debug.getmetatable(TC[%d]).__index' % t(),
                'debug.getmetatable(Card).__call']), r.randint(1, 7), self.pick(ARGS)),
            lambda: 'debug.sethook(X.hook(%d, %d), "%s", %d)' % (r.randint(2, 200), r.randint(1, 3),
                                                                 self.pick(['', 'c', 'r', 'l']), r.randint(0, 500)),
            lambda: 'debug.sethook()',
            # Metamethods through the debug library, with random arguments.
            lambda: 'debug.getmetatable(%s).%s(%s)' % (self.obj(), self.pick(METAMETHODS),
                                                       ', '.join(self.pick(ARGS) for _ in range(r.randint(0, 4)))),
            lambda: 'debug.getmetatable(debug.getmetatable(%s).__index).__index(%s, %s)'
                    % (self.obj(), self.pick(ARGS), self.pick(ARGS)),
            lambda: 'local o = %s; local f = o[%s]; f(%s)' % (self.obj(), self.pick(['"addSubview"', '"modifying"',
                     '"registerForTraitChanges"', '"resolvedColor"', '"remove"', '"subclass"', '"explain"']),
                     ', '.join(self.pick(ARGS) for _ in range(r.randint(0, 3)))),
        ]
        # Deep bodies stay small: no nested registrations, hosts or coroutines below depth 1.
        return self.pick(choices)()

    def script(self, statements):
        lines = ['P(function() %s end)' % self.statement() for _ in range(statements)]
        return lines


def render(lines):
    return PRELUDE + '\n'.join(lines) + '\n' + EPILOGUE


def run(command, source, timeout, limited):
    """The signal a script ended by (0 for none, -1 when it hung), its standard error, and
    whether it ran to its end. `command` runs a script file: `traitkit run`, or a Lua
    interpreter. A `limited` script runs with `traitkit run --timeout` (the limits' own paths,
    and a script's debug.sethook refused); the others may set hooks of their own."""
    with tempfile.NamedTemporaryFile('w', suffix='.lua', delete=False) as f:
        f.write(source)
        path = f.name
    try:
        p = subprocess.run(command + (['--timeout', '20'] if limited else []) + [path], stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return ((-p.returncode if p.returncode < 0 else 0), p.stderr.decode('utf-8', 'replace'),
                p.stdout.endswith(b'fuzz script done\n'))
    except subprocess.TimeoutExpired:
        return -1, 'did not end within %d s' % timeout, False
    finally:
        os.unlink(path)


def reduce(command, lines, sig, timeout, limited):
    """The fewest lines that still end by `sig` (delta debugging over lines)."""
    n = 2
    while len(lines) >= 2:
        chunk = max(1, len(lines) // n)
        for start in range(0, len(lines), chunk):
            candidate = lines[:start] + lines[start + chunk:]
            if run(command, render(candidate), timeout, limited)[0] == sig:
                lines, n = candidate, max(n - 1, 2)
                break
        else:
            if chunk == 1:
                break
            n = min(len(lines), n * 2)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--bin', default='.build/release/traitkit')
    parser.add_argument('--lua', metavar='INTERPRETER', help='run the scripts under this Lua with the C module instead')
    parser.add_argument('--scripts', type=int, default=300)
    parser.add_argument('--seed', type=int, default=1, help='the first seed; script i has seed + i')
    parser.add_argument('--statements', type=int, default=120)
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    parser.add_argument('--timeout', type=int, default=120, help='seconds before a script counts as hung')
    parser.add_argument('--print', type=int, metavar='SEED', help='print the script of SEED and exit')
    args = parser.parse_args()
    if args.print is not None:
        sys.stdout.write(render(Generator(args.print).script(args.statements)))
        return 0
    command = [args.lua] if args.lua else [os.path.abspath(args.bin), 'run']

    def limited(seed):
        return seed % 2 == 0 and not args.lua  # a Lua interpreter has no limit options

    def one(seed):
        lines = Generator(seed).script(args.statements)
        sig, stderr, finished = run(command, render(lines), args.timeout, limited(seed))
        return seed, lines, sig, stderr, finished

    failures, unfinished = 0, 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for seed, lines, sig, stderr, finished in pool.map(one, range(args.seed, args.seed + args.scripts)):
            if sig == 0:
                if not finished:
                    # Every statement is protected: a script that stops early is the
                    # generator's bug (a syntax error) or a limit, and tests nothing after it.
                    unfinished += 1
                    print('fuzz: seed %d did not run to its end:\n%s' % (seed, stderr[-1000:]), flush=True)
                continue
            failures += 1
            what = 'hung' if sig == -1 else 'ended by %s' % signal.Signals(sig).name
            print('fuzz: seed %d %s\n%s' % (seed, what, stderr[-2000:]), flush=True)
            if failures == 1 and sig != -1:
                reduced = reduce(command, lines, sig, args.timeout, limited(seed))
                print('fuzz: seed %d reduced to %d lines (replay: Tests/Fuzz/random_scripts.py --print %d '
                      '--statements %d > crash.lua):\n%s' % (seed, len(reduced), seed, args.statements,
                                                               render(reduced)), flush=True)
    print('fuzz: %d scripts (seeds %d-%d), %d ended by a signal or hung, %d did not run to their end' % (
        args.scripts, args.seed, args.seed + args.scripts - 1, failures, unfinished))
    return 1 if failures or unfinished else 0


if __name__ == '__main__':
    sys.exit(main())
