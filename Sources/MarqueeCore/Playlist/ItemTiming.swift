/// The span of its media that one playlist item presents.
public struct ItemTiming: Sendable, Equatable {
    /// The first instant presented (AVPlayerItem's initial playback time).
    public let start: MediaTime
    /// Presentation stops before this instant; nil plays to the media's natural end (live or unknown).
    public let end: MediaTime?

    /// How long a still image stays up when its item gives no duration.
    public static let defaultImageDuration = MediaTime(seconds: 10)

    public init(start: MediaTime, end: MediaTime?) {
        self.start = start
        self.end = end
    }

    /// How long the item lasts, when that is known.
    public var length: MediaTime? { end.map { $0 - start } }

    /// Resolves an item's configured `start`, `end` and `duration` against what the media turned out to be.
    ///
    /// - Timed media: start defaults to 0; `duration` means end = start + duration; an end past the media's
    ///   duration is clamped to it; a start at or past the media's end is an error (nothing would play).
    /// - Still images: they have no timeline, so they last `duration`, else end − start, else
    ///   `defaultImageDuration`, and always present from 0.
    public static func resolve(
        start: MediaTime?, end: MediaTime?, duration: MediaTime?,
        mediaDuration: MediaTime?, isStillImage: Bool
    ) -> Result<ItemTiming, ItemTimingError> {
        if end != nil && duration != nil { return .failure(.endAndDuration) }
        if let duration, duration <= .zero { return .failure(.nonPositiveDuration(duration)) }
        if let start, start < .zero { return .failure(.negativeStart(start)) }
        let first = start ?? .zero
        if let end, end <= first { return .failure(.endNotAfterStart(start: first, end: end)) }

        if isStillImage {
            let shown = duration ?? end.map { $0 - first } ?? defaultImageDuration
            return .success(ItemTiming(start: .zero, end: shown))
        }

        var last = duration.map { first + $0 } ?? end
        if let mediaDuration {
            if first >= mediaDuration { return .failure(.startBeyondMedia(start: first, mediaDuration: mediaDuration)) }
            last = min(last ?? mediaDuration, mediaDuration)
        }
        return .success(ItemTiming(start: first, end: last))
    }
}

/// Why an item's timing cannot be played; `description` is a config- or log-ready phrase.
public enum ItemTimingError: Error, Equatable, Sendable, CustomStringConvertible {
    case endNotAfterStart(start: MediaTime, end: MediaTime)
    case endAndDuration
    case nonPositiveDuration(MediaTime)
    case negativeStart(MediaTime)
    case startBeyondMedia(start: MediaTime, mediaDuration: MediaTime)

    public var description: String {
        switch self {
        case .endNotAfterStart(let start, let end): "end (\(end)) must be after start (\(start))"
        case .endAndDuration: "give either 'end' or 'duration', not both"
        case .nonPositiveDuration(let duration): "duration (\(duration)) must be greater than zero"
        case .negativeStart(let start): "start (\(start)) cannot be negative"
        case .startBeyondMedia(let start, let mediaDuration): "start (\(start)) is at or past the end of the media (\(mediaDuration))"
        }
    }
}
