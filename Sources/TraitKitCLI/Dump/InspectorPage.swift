import TraitKit

/// `traitkit dump --format html`: one self-contained HTML file (no network, no external
/// scripts) that inspects the hierarchy as Xcode's view debugger and Flutter's inspector do: a
/// collapsible tree with overridden nodes marked, and for the selected node every trait's
/// resolved value with where it comes from (`explain`), values equal to the default dimmed, a
/// filter box for trait names and color swatches.
///
/// The hierarchy is embedded as JSON; the page's script draws it. Elements carry stable ids
/// (`node-n3`, `row-Theme`) so a test in a browser can click and read them.
enum InspectorPage {
    static func render(_ snapshot: HierarchySnapshot, title: String) -> String {
        let json = escapingScriptEnds(data(snapshot).serialized())
        return head.replacing("TITLE", with: DotFormat.escape(title))
            + "<script type=\"application/json\" id=\"data\">" + json + "</script>\n"
            + "<script>" + script + "</script>\n</body>\n</html>\n"
    }

    /// `text` with every `</` written `<\/`, which JSON reads as the same, so the data never
    /// ends its script element early. Byte by byte: a `String` search for `</` took three
    /// quarters of the page's time (2,000 views: 2 billion instructions).
    static func escapingScriptEnds(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if previous == UInt8(ascii: "<"), byte == UInt8(ascii: "/") { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
            previous = byte
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Every node, in pre-order, with its children's ids and every trait of its collection.
    static func data(_ snapshot: HierarchySnapshot) -> JSON {
        var nodes: [JSON] = []
        var next = 0
        func add(_ node: HierarchySnapshot.Node) -> String {
            let id = "n\(next)"
            next += 1
            let index = nodes.count
            nodes.append(.null)
            let children = node.children.map { JSON.string(add($0)) }
            let overridden = Set(node.overrides.map(\.trait.id))
            nodes[index] = .object([
                ("id", .string(id)),
                ("label", .string(printable(node.label))),
                ("path", .string(printable(node.path))),
                ("overrides", .array(node.overrides.map { pair($0.trait, $0.value) })),
                ("system", .array(node.systemTraits.map { pair($0.trait, $0.value) })),
                ("background", node.backgroundColor.map { .string("\($0)") } ?? .null),
                ("traits", .array(TraitRegistry.all.map { trait in
                    let value = node.collection[trait]
                    return .object([
                        ("name", .string(trait.name)),
                        ("value", .string(printable(trait.format(value)))),
                        ("isDefault", .bool(value == trait.defaultValue)),
                        ("isOverride", .bool(overridden.contains(trait.id))),
                        ("source", .string(printable(node.source(of: trait)))),
                    ])
                })),
                ("children", .array(children)),
            ])
            return id
        }
        let roots = snapshot.screens.map { JSON.string(add($0)) }
        return .object([("roots", .array(roots)), ("nodes", .array(nodes))])
    }

    private static func pair(_ trait: Trait, _ value: TraitValue) -> JSON {
        .object([("trait", .string(trait.name)), ("value", .string(printable(trait.format(value))))])
    }

    private static let head = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>TITLE — TraitKit inspector</title>
        <style>
        body { margin: 0; font: 13px/1.4 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #1d1d1f; display: flex; height: 100vh; }
        #tree { width: 42%; overflow: auto; padding: 10px 12px; border-right: 1px solid #ddd; box-sizing: border-box; }
        #panel { flex: 1; overflow: auto; padding: 10px 16px; box-sizing: border-box; }
        h1 { font-size: 14px; margin: 0 0 8px; color: #555; font-weight: 600; }
        ul { list-style: none; margin: 0; padding-left: 16px; }
        #tree > ul { padding-left: 0; }
        .row { display: flex; align-items: center; gap: 4px; padding: 1px 4px; border-radius: 4px; cursor: pointer; white-space: nowrap; }
        .row:hover { background: #f0f0f5; }
        .row.selected { background: #dbe8ff; }
        .toggle { width: 14px; text-align: center; color: #888; user-select: none; }
        .collapsed > ul { display: none; }
        .badge { color: #d9480f; font-size: 11px; }
        .swatch { display: inline-block; width: 11px; height: 11px; border: 1px solid #999; border-radius: 2px; vertical-align: middle; }
        #filter { width: 100%; box-sizing: border-box; padding: 5px 8px; margin: 6px 0 10px; border: 1px solid #ccc; border-radius: 5px; font: inherit; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eee; vertical-align: top; }
        th { color: #666; font-weight: 600; }
        tr.default td { opacity: 0.45; }
        tr.override td:first-child::before { content: "● "; color: #d9480f; }
        .overrides { margin: 4px 0 8px; color: #d9480f; }
        .path { color: #888; font-size: 11px; margin-bottom: 6px; }
        </style>
        </head>
        <body>
        <div id="tree"><h1>Hierarchy</h1><ul id="roots"></ul></div>
        <div id="panel"><h1 id="selected-label">No node selected</h1><div class="path" id="selected-path"></div>
        <div class="overrides" id="selected-overrides"></div>
        <input id="filter" type="search" placeholder="Filter traits by name">
        <table><thead><tr><th>Trait</th><th>Value</th><th>Comes from</th></tr></thead><tbody id="traits"></tbody></table>
        </div>

        """

    private static let script = """
        const data = JSON.parse(document.getElementById("data").textContent);
        const byId = new Map(data.nodes.map(n => [n.id, n]));
        let selected = null;
        function swatch(color) {
          const s = document.createElement("span");
          s.className = "swatch";
          s.style.background = color;
          s.title = color;
          return s;
        }
        function item(node) {
          const li = document.createElement("li");
          li.id = "node-" + node.id;
          const row = document.createElement("div");
          row.className = "row";
          const toggle = document.createElement("span");
          toggle.className = "toggle";
          toggle.textContent = node.children.length ? "▾" : "";
          toggle.addEventListener("click", e => { e.stopPropagation(); li.classList.toggle("collapsed");
            toggle.textContent = li.classList.contains("collapsed") ? "▸" : "▾"; });
          const label = document.createElement("span");
          label.className = "label";
          label.textContent = node.label;
          row.append(toggle, label);
          if (node.overrides.length) {
            const badge = document.createElement("span");
            badge.className = "badge";
            badge.textContent = "● " + node.overrides.map(o => o.trait).join(", ");
            row.append(badge);
          }
          if (node.background) row.append(swatch(node.background));
          row.addEventListener("click", () => select(node.id));
          li.append(row);
          if (node.children.length) {
            const ul = document.createElement("ul");
            node.children.forEach(id => ul.append(item(byId.get(id))));
            li.append(ul);
          }
          return li;
        }
        function select(id) {
          if (selected) document.querySelector("#node-" + selected + " > .row").classList.remove("selected");
          selected = id;
          document.querySelector("#node-" + id + " > .row").classList.add("selected");
          const node = byId.get(id);
          document.getElementById("selected-label").textContent = node.label;
          document.getElementById("selected-path").textContent = node.path;
          const facts = node.system.map(p => "system: " + p.trait + " = " + p.value)
            .concat(node.overrides.map(p => "override: " + p.trait + " = " + p.value));
          const overrides = document.getElementById("selected-overrides");
          overrides.textContent = facts.join(" · ");
          if (node.background) { overrides.append(" background ", swatch(node.background), " " + node.background); }
          const body = document.getElementById("traits");
          body.textContent = "";
          for (const t of node.traits) {
            const tr = document.createElement("tr");
            tr.id = "row-" + t.name;
            tr.dataset.trait = t.name;
            if (t.isDefault) tr.classList.add("default");
            if (t.isOverride) tr.classList.add("override");
            for (const text of [t.name, t.value, t.source]) {
              const td = document.createElement("td");
              td.textContent = text;
              tr.append(td);
            }
            body.append(tr);
          }
          applyFilter();
        }
        function applyFilter() {
          const needle = document.getElementById("filter").value.trim().toLowerCase();
          for (const tr of document.querySelectorAll("#traits tr")) {
            tr.hidden = needle !== "" && !tr.dataset.trait.toLowerCase().includes(needle);
          }
        }
        document.getElementById("filter").addEventListener("input", applyFilter);
        const roots = document.getElementById("roots");
        data.roots.forEach(id => roots.append(item(byId.get(id))));
        if (data.roots.length) select(data.roots[0]);
        """
}
