/// "Did you mean" hints for misspelt keys, values, commands and key names.
enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo.
    static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let target = Array(candidate.lowercased())
            let distance = editDistance(typed, target)
            let isPrefix = min(typed.count, target.count) >= 3 && (target.starts(with: typed) || typed.starts(with: target))
            let tolerance = max(1, target.count / 3)
            guard distance <= tolerance || isPrefix else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Levenshtein distance where swapping two neighbouring letters counts as one edit
    /// (optimal string alignment), since transpositions are the most common typo.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }

    /// `a, b or c`, for "expected one of" messages.
    static func list(_ words: [String], conjunction: String = "or") -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " \(conjunction) " + words[words.count - 1]
    }
}
