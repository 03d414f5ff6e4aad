/// A name as a dictionary key that is equal only to the same UTF-8 bytes, as Lua compares
/// strings and UIKit compares trait identifiers. A `String` key compares by canonical
/// equivalence, which would take "é" and "e\u{301}" for one trait name.
struct ExactName: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (a: ExactName, b: ExactName) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    func hash(into hasher: inout Hasher) {
        let hashed: Bool? = text.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
            return true
        }
        if hashed == nil { for byte in text.utf8 { hasher.combine(byte) } }
    }
}
