import TraitKit

/// `traitkit dump --format dot`: the hierarchy for Graphviz (`dot -Tsvg`). One box per node with
/// its class and name; overridden nodes drawn in orange with their overrides listed; a screen's
/// system traits; the resolved values of the traits `--traits` names; a view's resolved
/// background as a swatch.
enum DotFormat {
    static let overrideColor = "#D9480F"

    static func render(_ snapshot: HierarchySnapshot, traits: [Trait]) -> String {
        var lines = [
            "digraph traitkit {",
            "  graph [rankdir=TB, nodesep=0.25, ranksep=0.35, fontname=\"Helvetica\"];",
            "  node [shape=box, style=\"rounded\", fontname=\"Helvetica\", fontsize=10, margin=\"0.12,0.06\"];",
            "  edge [color=\"#888888\", arrowsize=0.6];",
        ]
        var next = 0
        func emit(_ node: HierarchySnapshot.Node) -> String {
            let id = "n\(next)"
            next += 1
            let marked = node.overrides.isEmpty ? "" : ", color=\"\(overrideColor)\", penwidth=2"
            lines.append("  \(id) [label=<\(label(node, traits: traits))>\(marked)];")
            for child in node.children { lines.append("  \(id) -> \(emit(child));") }
            return id
        }
        for screen in snapshot.screens { _ = emit(screen) }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// An HTML-like label: a table of one column.
    private static func label(_ node: HierarchySnapshot.Node, traits: [Trait]) -> String {
        let lines = PictureLabel(node, traits: traits, escape: escape)
        var rows = ["<B>\(lines.className)</B>" + lines.name]
        rows += lines.system.map { "<FONT COLOR=\"#555555\">\($0)</FONT>" }
        rows += lines.overrides.map { "<FONT COLOR=\"\(overrideColor)\">\($0)</FONT>" }
        rows += lines.values
        var table = "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\">"
        table += rows.map { "<TR><TD ALIGN=\"LEFT\" COLSPAN=\"2\">\($0)</TD></TR>" }.joined()
        if let color = node.backgroundColor {
            table += "<TR><TD BGCOLOR=\"\(color)\" BORDER=\"1\" WIDTH=\"12\" HEIGHT=\"12\" FIXEDSIZE=\"TRUE\"></TD>"
                + "<TD ALIGN=\"LEFT\">background \(color)</TD></TR>"
        }
        return table + "</TABLE>"
    }

    /// Text for an HTML-like label: markup characters as entities, control characters escaped.
    static func escape(_ text: String) -> String {
        escaped(text, ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"])
    }
}

/// `text` with control characters escaped (`printable`) and each character of `replacements`
/// replaced: what a picture's label needs so that a script's names cannot break its syntax.
func escaped(_ text: String, _ replacements: [Character: String]) -> String {
    var out = ""
    for c in printable(text) {
        if let replacement = replacements[c] { out += replacement } else { out.append(c) }
    }
    return out
}

/// What a node's box says in both pictures, each line escaped for the picture's syntax: the
/// class and name, the system traits, the overrides and the `--traits` values.
struct PictureLabel {
    let className: String
    /// ` 'name'`, or nothing for a node without one.
    let name: String
    let system: [String]
    let overrides: [String]
    let values: [String]

    init(_ node: HierarchySnapshot.Node, traits: [Trait], escape: (String) -> String) {
        className = escape(node.className)
        name = node.name.map { " '\(escape($0))'" } ?? ""
        system = node.systemTraits.map { "system: \(escape($0.trait.name)) = \(escape($0.trait.format($0.value)))" }
        overrides = node.overrides.map { "● \(escape($0.trait.name)) = \(escape($0.trait.format($0.value)))" }
        values = traits.map { "\(escape($0.name)): \(escape($0.format(node.collection[$0])))" }
    }
}
