import TraitKit

/// `traitkit dump --format mermaid`: a Mermaid flowchart, which GitHub, GitLab and most
/// Markdown hosts draw from a fenced `mermaid` block. The same content as the Graphviz form:
/// class and name, overrides (overridden nodes outlined in orange), system traits, the traits
/// `--traits` names, and a view's resolved background as the node's fill.
enum MermaidFormat {
    static func render(_ snapshot: HierarchySnapshot, traits: [Trait]) -> String {
        var lines = ["flowchart TD"]
        var overridden: [String] = []
        var styles: [String] = []
        var next = 0
        func emit(_ node: HierarchySnapshot.Node) -> String {
            let id = "n\(next)"
            next += 1
            lines.append("  \(id)[\"\(label(node, traits: traits))\"]")
            if !node.overrides.isEmpty { overridden.append(id) }
            if let color = node.backgroundColor { styles.append("  style \(id) fill:\(color)") }
            for child in node.children { lines.append("  \(id) --> \(emit(child))") }
            return id
        }
        for screen in snapshot.screens { _ = emit(screen) }
        if !overridden.isEmpty {
            lines.append("  classDef overridden stroke:\(DotFormat.overrideColor),stroke-width:3px")
            lines.append("  class \(overridden.joined(separator: ",")) overridden")
        }
        return (lines + styles).joined(separator: "\n") + "\n"
    }

    private static func label(_ node: HierarchySnapshot.Node, traits: [Trait]) -> String {
        let lines = PictureLabel(node, traits: traits, escape: escape)
        var parts = ["<b>\(lines.className)</b>" + lines.name] + lines.system + lines.overrides + lines.values
        if let color = node.backgroundColor { parts.append("background " + escape("\(color)")) }
        return parts.joined(separator: "<br/>")
    }

    /// Mermaid's entity codes for the characters that would end or change a quoted label.
    static func escape(_ text: String) -> String {
        escaped(text, ["\"": "#quot;", "<": "#lt;", ">": "#gt;", "&": "#amp;", "#": "#35;"])
    }
}
