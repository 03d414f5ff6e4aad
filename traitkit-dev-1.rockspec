-- LuaRocks: `luarocks make` in a clone builds traitkit.so with Scripts/build-lua-module and
-- installs it, so the rocks tree's lua5.4 can `require "traitkit"`. Needs the Swift toolchain
-- (swiftc, clang) on PATH and Debian's liblua5.4-dev.
rockspec_format = "3.0"
package = "traitkit"
version = "dev-1"
source = {
   url = "git+file://.",
}
description = {
   summary = "UIKit's trait system for Lua: traits, overrides and change registrations over view hierarchies",
   detailed = [[
      TraitKit re-creates the trait system of iOS 17/18 (traits, trait collections, overrides,
      registrations, dynamic colors, a declarative layer) as a Swift engine driven from Lua 5.4.
      This rock installs the C module `traitkit`; the `traitkit` command-line tool is built with
      Scripts/setup.
   ]],
   -- The repository has no license file yet; until it does, no license is granted.
   license = "All rights reserved",
}
dependencies = {
   "lua == 5.4",
}
build = {
   type = "command",
   build_command = "Scripts/build-lua-module",
   install = {
      lib = { traitkit = ".build/lua/traitkit.so" },
   },
}
