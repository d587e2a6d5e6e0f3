/// SplitMix64: a tiny generator whose sequence is fixed by its seed.
///
/// Shuffle order must be reproducible for a given seed across Swift releases, and the standard
/// library promises neither its shuffle algorithm nor its bounded-random algorithm, so both
/// live here.
public struct SeededRandom: RandomNumberGenerator, Sendable, Equatable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `0..<bound`, by rejection so no value is favoured.
    public mutating func nextIndex(below bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let range = UInt64(bound)
        let limit = UInt64.max - UInt64.max % range
        while true {
            let value = next()
            if value < limit { return Int(value % range) }
        }
    }

    /// Fisher–Yates.
    public mutating func shuffled<T>(_ elements: [T]) -> [T] {
        var result = elements
        var index = result.count - 1
        while index > 0 {
            result.swapAt(index, nextIndex(below: index + 1))
            index -= 1
        }
        return result
    }
}
