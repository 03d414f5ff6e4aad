/// The tables of `docs/lua-api.md`: the document is written by hand, and between its markers
/// `<!-- reference: TOPIC -->` and `<!-- /reference -->` `traitkit stubs --markdown` puts the
/// table of that topic's names, so the prose stays a person's and the tables stay the binding's.
extension LuaReference {
    /// A document whose markers are broken or miss a topic.
    public struct MarkdownError: Error, CustomStringConvertible {
        public let description: String
    }

    /// `document` with every topic's table written between its markers.
    public func markdown(updating document: String) throws(MarkdownError) -> String {
        var out = "", rest = Substring(document)
        var seen: Set<Topic> = []
        while let open = rest.firstRange(of: "<!-- reference: ") {
            guard let openEnd = rest[open.upperBound...].firstRange(of: " -->"),
                  let close = rest[openEnd.upperBound...].firstRange(of: "<!-- /reference -->") else {
                throw MarkdownError(description: "a '<!-- reference: TOPIC -->' marker without its '<!-- /reference -->'")
            }
            let name = String(rest[open.upperBound..<openEnd.lowerBound])
            guard let topic = Topic(rawValue: name) else {
                throw MarkdownError(description: "unknown topic '\(name)' in a reference marker (topics: "
                    + Topic.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            seen.insert(topic)
            out += rest[..<openEnd.upperBound] + "\n" + table(topic)
            out += "<!-- /reference -->"
            rest = rest[close.upperBound...]
        }
        let missing = Topic.allCases.filter { !seen.contains($0) }
        guard missing.isEmpty else {
            throw MarkdownError(description: "no table for topics: " + missing.map(\.rawValue).joined(separator: ", ")
                + " (add '<!-- reference: TOPIC --><!-- /reference -->' where each belongs)")
        }
        return out + rest
    }

    /// The topic's names, by owner, each with its type and meaning.
    func table(_ topic: Topic) -> String {
        var out = "| Name | Type | Meaning |\n|---|---|---|\n"
        for item in items where item.topic == topic {
            out += "| `\(item.display)` | `\(item.type.replacing("|", with: "\\|"))` | \(item.summary) |\n"
        }
        return out
    }
}

extension LuaReference.Item {
    /// How a script writes it: `View:addSubview(view)`, `tk.update()`, `View.superview`.
    var display: String {
        guard isCalled else { return path }
        let names = Signature.forms(type)[0].parameters.map { $0.optional ? $0.name + "?" : $0.name }
        return path + "(" + names.joined(separator: ", ") + ")"
    }
}
