-- Introspect: reaching the UIKit view or view controller behind a declarative element. A
-- hidden marker view is injected next to the element; on the next run-loop turn after it
-- enters a window, the engine searches the previous siblings for the requested class and
-- calls customize with what it found.
local tk = require "traitkit"
local E = tk.elements

local window = tk.Window{ scene = tk.WindowScene{ screen = tk.Screen{} } }
window.rootViewController = tk.ViewController{ name = "root" }

-- A ScrollView that must not bounce
local list = E.VStack{
  E.Text{ text = "Header" },
  E.ScrollView{ E.Text{ text = "row 1" }, E.Text{ text = "row 2" } }
    :introspect(tk.ScrollView, function(scrollView)
      print("customize: found " .. scrollView.className .. " under " .. scrollView.superview.className)
      scrollView.bounces = false
    end),
}
local host = tk.HostingController{ name = "list", root = list }
window.rootViewController = host
tk.update()
local scrollView = host.view:findChild("ScrollView")
print("bounces = " .. tostring(scrollView.bounces))
print(tk.tree(host.view))

-- A sheet made modal: introspect the hosting controller presented as the sheet
local sheetContent = E.Text{ text = "Unsaved changes" }:introspect("HostingController", function(controller)
  print("customize: " .. controller.name .. " becomes modal")
  controller.isModalInPresentation = true
end)
local sheet = tk.HostingController{ name = "sheet", root = sheetContent }
host:present(sheet)
print("before the update: isModalInPresentation = " .. tostring(sheet.isModalInPresentation))
tk.update()
print("after the update:  isModalInPresentation = " .. tostring(sheet.isModalInPresentation))

-- An element that leaves before the next turn is never customized
local gone = tk.HostingController{ name = "gone", root = E.ScrollView{}:introspect("ScrollView", function()
  print("never printed")
end) }
host:addChild(gone)
host.view:addSubview(gone.view)
gone.view:layoutIfNeeded()
gone.view:removeFromSuperview()
tk.update()
print("removed element: customize not called")
