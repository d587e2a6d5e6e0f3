import MarqueeConfig
import MarqueeCore
import MarqueePlayer

/// Works out a frame-locked plan (`sync:`): each item's length as the player will resolve it (its
/// trims or duration against the media's own duration), read by opening each item once, off the
/// present thread. Every item needs one: a cycle with an unknown length cannot be counted.
package struct WallSyncPlanner: Sendable {
    package let opener: MediaOpening
    /// The wall time at the player's clock zero (`WallClockTime.zeroUnixNanoseconds`).
    package let clockZeroUnixNanoseconds: Int64

    /// An item whose length cannot be known, and why.
    package struct Problem: Equatable {
        package var index: Int
        package var url: String
        package var reason: String

        package var line: String { "sync: item \(index + 1) (\(url)) \(reason)" }
    }

    /// A value, or every problem that kept it from being worked out.
    package enum Either<Value> {
        case success(Value)
        case failure([Problem])
    }

    /// The lengths of `items`, in order, or every item that has none.
    package static func lengths(of items: [QueueItem], opener: MediaOpening) -> Either<[MediaTime]> {
        var lengths: [MediaTime] = []
        var problems: [Problem] = []
        for (index, item) in items.enumerated() {
            let asset: Asset
            do {
                asset = try opener.open(item.source).asset
            } catch {
                problems.append(Problem(index: index, url: item.url, reason: "cannot be opened to learn its length (\(error))"))
                continue
            }
            switch ItemTiming.resolve(start: item.start, end: item.end, duration: item.duration,
                                      mediaDuration: asset.duration, isStillImage: asset.isStillImage) {
            case .success(let timing):
                if let length = timing.length, length > .zero {
                    lengths.append(length)
                } else {
                    problems.append(Problem(index: index, url: item.url,
                                            reason: "has no known length (a live stream, or media that does not say how long it is): give it a duration or an end"))
                }
            case .failure(let error):
                problems.append(Problem(index: index, url: item.url, reason: "cannot be timed: \(error)"))
            }
        }
        return problems.isEmpty ? .success(lengths) : .failure(problems)
    }

    /// The plan for `items` from `sync`, on this player's clock.
    package func wallSync(for items: [QueueItem], sync: SyncConfiguration) -> Either<WallSync> {
        switch Self.lengths(of: items, opener: opener) {
        case .failure(let problems): return .failure(problems)
        case .success(let lengths):
            guard let plan = WallSyncPlan(epochUnixMilliseconds: sync.epochUnixMilliseconds, lengths: lengths) else {
                return .failure([Problem(index: 0, url: items.first?.url ?? "-", reason: "the playlist is empty: nothing to lock")])
            }
            return .success(WallSync(plan: plan, clockZeroUnixNanoseconds: clockZeroUnixNanoseconds))
        }
    }
}
