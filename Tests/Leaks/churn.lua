-- The measurement the churn leak checks share (node_cycles.lua, object_values.lua), loaded
-- with dofile: buildAndDrop(first, last) builds views first..last and drops them, sampling
-- what must go in `alive` (weak-keyed). The baseline is taken after a warm-up of n/2 views
-- run the same way: garbage from several batches is alive between collection cycles, so the
-- binding's tables grow to a capacity (a few hundred KB, whatever n is) that Lua keeps after
-- the entries go. One of them may still double once after the warm-up, depending on where a
-- collection cycle falls (192 KB was seen): allowed, with 10 bytes per view on top, which
-- any leak of a view's box or tables (hundreds of bytes) exceeds.
return function(n, batch, buildAndDrop, alive)
  local warmup = math.max(batch, n // 2 // batch * batch)
  for first = 1, warmup, batch do buildAndDrop(first, first + batch - 1) end
  collectgarbage(); collectgarbage()
  local baseline = collectgarbage("count")
  for first = warmup + 1, n, batch do buildAndDrop(first, math.min(first + batch - 1, n)) end
  collectgarbage(); collectgarbage()

  local survivors = 0
  for _ in pairs(alive) do survivors = survivors + 1 end
  assert(survivors == 0, survivors .. " nodes survived collectgarbage()")
  local grown = collectgarbage("count") - baseline
  local allowed = 256 + (n - warmup) / 100
  assert(grown < allowed, string.format("the Lua heap grew by %.0f KB over %d views after the warm-up (allowed %.0f)",
    grown, n - warmup, allowed))
end
