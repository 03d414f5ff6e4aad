/// The nearest of `candidates` to a misspelled `name`, for "did you mean" hints: the one at
/// the smallest edit distance (insertions, deletions, substitutions; case differences cost
/// nothing extra), if that distance is small for the name's length. Nil when nothing is close.
///
/// A name is never more than its difference in length away, so a candidate much longer or
/// shorter is passed over without comparing: a script's megabyte string costs a count, not a
/// copy or a distance table per candidate.
public func nearestName(to name: String, in candidates: some Sequence<String>) -> String? {
    let length = name.count
    let limit = max(1, min(3, length / 3))
    var lowered: String?  // made for the first candidate of a near length only
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != name && abs(candidate.count - length) <= limit {
        let folded = lowered ?? name.lowercased()
        lowered = folded
        let d = editDistance(folded, candidate.lowercased())
        if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best?.name
}

/// " (did you mean 'x'?)", or "" when nothing is close.
public func didYouMean(_ name: String, in candidates: some Sequence<String>) -> String {
    nearestName(to: name, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
}

/// Edit distance over characters where swapping two neighbours is one edit (`nmae` is one
/// from `name`): the optimal string alignment distance.
private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
        }
    }
    return d[a.count][b.count]
}
