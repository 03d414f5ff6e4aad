#!/usr/bin/env python3
"""Lists the public symbols of the given symbol graphs that have no doc comment, and fails
when there are any. Compiler-synthesized members and implementations of a protocol's
requirement (which show the protocol's documentation) need none."""
import json
import sys

missing = []
for path in sys.argv[1:]:
    graph = json.load(open(path))
    inherited = {r["source"] for r in graph["relationships"] if r.get("sourceOrigin")}
    for symbol in graph["symbols"]:
        precise = symbol["identifier"]["precise"]
        if symbol["accessLevel"] not in ("public", "open") or "::SYNTHESIZED::" in precise or precise in inherited:
            continue
        if not symbol.get("docComment"):
            location = symbol.get("location", {})
            file = location.get("uri", "?").split("/Sources/")[-1]
            line = location.get("position", {}).get("line", -1) + 1
            missing.append(f"Sources/{file}:{line}: {symbol['kind']['displayName'].lower()} "
                           f"{'.'.join(symbol['pathComponents'])} has no doc comment")
for line in sorted(missing):
    print(line)
if missing:
    print(f"{len(missing)} public symbols without a doc comment", file=sys.stderr)
    sys.exit(1)
