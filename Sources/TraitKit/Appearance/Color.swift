/// R9: a color, static (rgba) or dynamic (a provider called with a trait collection).
public final class Color: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: immutable after init; a provider is only called on the caller's thread.
    /// Picks a color for a trait collection (`UIColor(dynamicProvider:)`).
    public typealias Provider = (TraitCollection) throws -> Color

    enum Storage {
        case rgba(Double, Double, Double, Double)
        case dynamic(Provider)
    }
    let storage: Storage
    /// For a dynamic color `withAlphaComponent` made: the color whose alpha it replaces. Doing
    /// it again wraps that one, not this, so a chain of them stays one provider deep (a chain
    /// of 100,000 overflowed the stack when resolved or freed).
    private let alphaBase: Color?

    /// A fixed color from components in 0...1 (out-of-range values are clamped).
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        storage = .rgba(clamp(red), clamp(green), clamp(blue), clamp(alpha))
        alphaBase = nil
    }

    /// A dynamic color: `provider` picks the color for a collection.
    public init(dynamicProvider provider: @escaping Provider) {
        storage = .dynamic(provider)
        alphaBase = nil
    }

    private init(_ base: Color, alpha: Double) {
        storage = .dynamic { tc in try base.resolvedColor(with: tc).withAlphaComponent(alpha) }
        alphaBase = base
    }

    /// `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional); nil when malformed.
    /// Read byte by byte: only hexadecimal digits count (a sign is no digit).
    public convenience init?(hex: String) {
        var value: UInt32 = 0, count = 0
        for (i, byte) in hex.utf8.enumerated() {
            if i == 0, byte == UInt8(ascii: "#") { continue }
            guard count < 8, let digit = hexDigit(byte) else { return nil }
            value = value << 4 | digit
            count += 1
        }
        switch count {
        case 3: value = doubledNibbles(value, count: 3) << 8 | 0xFF
        case 4: value = doubledNibbles(value, count: 4)
        case 6: value = value << 8 | 0xFF
        case 8: break
        default: return nil
        }
        func channel(_ shift: UInt32) -> Double { Double((value >> shift) & 0xFF) / 255 }
        self.init(red: channel(24), green: channel(16), blue: channel(8), alpha: channel(0))
    }

    /// Whether the color depends on traits (made with a provider).
    public var isDynamic: Bool {
        if case .dynamic = storage { return true }
        return false
    }

    /// How many dynamic colors in a row `resolvedColor` follows before it gives up.
    static let maxResolutionDepth = 16

    /// The static color for `traitCollection` (default: `TraitCollection.current`). A provider
    /// may answer another dynamic color, resolved in turn; one that never ends in a static
    /// color (it answers itself) is an error, never a dynamic color passed off as resolved.
    public func resolvedColor(with traitCollection: TraitCollection = .current) throws -> Color {
        var color = self
        for _ in 0..<Color.maxResolutionDepth {
            guard case .dynamic(let provider) = color.storage else { return color }
            color = try provider(traitCollection)
        }
        guard !color.isDynamic else { throw TraitError.colorDidNotResolve(depth: Color.maxResolutionDepth) }
        return color
    }

    /// This color with its alpha replaced (UIColor's `withAlphaComponent`); a dynamic color
    /// stays dynamic, its providers' colors taking the alpha.
    public func withAlphaComponent(_ alpha: Double) -> Color {
        switch storage {
        case .rgba(let r, let g, let b, _): Color(red: r, green: g, blue: b, alpha: alpha)
        case .dynamic: Color(alphaBase ?? self, alpha: alpha)
        }
    }

    /// Components of a static color (a dynamic one resolves against `current` first).
    public var components: (red: Double, green: Double, blue: Double, alpha: Double) {
        guard case .rgba(let r, let g, let b, let a) = ((try? resolvedColor())?.storage ?? .rgba(0, 0, 0, 0)) else {
            return (0, 0, 0, 0)
        }
        return (r, g, b, a)
    }

    /// `#RRGGBBAA` for static colors; `<dynamic Color>` for dynamic ones.
    public var description: String {
        guard case .rgba(let r, let g, let b, let a) = storage else { return "<dynamic Color>" }
        return "#" + [r, g, b, a].map { hexByte($0) }.joined()
    }

    /// UIKit's fixed `UIColor.black`.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// UIKit's fixed `UIColor.white`.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// UIKit's fixed `UIColor.clear`.
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
}

/// Static colors are equal when their components are (as `UIColor.isEqual`); a dynamic color
/// is equal only to itself, since two providers cannot be compared.
extension Color: Equatable {
    public static func == (a: Color, b: Color) -> Bool {
        if a === b { return true }
        guard case .rgba(let r1, let g1, let b1, let a1) = a.storage,
              case .rgba(let r2, let g2, let b2, let a2) = b.storage else { return false }
        return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
    }
}

private func clamp(_ x: Double) -> Double { x.isNaN ? 0 : Swift.min(1, Swift.max(0, x)) }

/// The value of a hexadecimal digit, either case; nil for any other byte.
private func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
}

/// The short form's `count` digits, each doubled into a byte (`F0A` -> `FF00AA`).
private func doubledNibbles(_ value: UInt32, count: Int) -> UInt32 {
    var bytes: UInt32 = 0
    for k in (0..<count).reversed() { bytes = bytes << 8 | (value >> UInt32(4 * k) & 0xF) * 0x11 }
    return bytes
}

private func hexByte(_ x: Double) -> String {
    let byte = Int((x * 255).rounded())
    let digits = Array("0123456789ABCDEF")
    return String([digits[byte >> 4], digits[byte & 15]])
}
