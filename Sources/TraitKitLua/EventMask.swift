import TraitKit

/// A set of `NodeEvent`s as bits: checked for every changed node, so no hashing.
struct EventMask {
    private var bits: UInt32 = 0
    private static let index: [NodeEvent: Int] = Dictionary(
        uniqueKeysWithValues: NodeEvent.allCases.enumerated().map { ($1, $0) })
    func contains(_ event: NodeEvent) -> Bool {
        bits != 0 && bits & (1 << UInt32(Self.index[event]!)) != 0
    }

    mutating func insert(_ event: NodeEvent) { bits |= 1 << UInt32(Self.index[event]!) }
}
