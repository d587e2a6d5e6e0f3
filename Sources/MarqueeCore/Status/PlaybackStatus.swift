/// What the player shows and plays now, folded from its events in order: the control socket's
/// `status`. The events come from the presented timeline, so this says what is on screen and
/// heard, not what was decoded (AVPlayer's and AVPlayerItem's properties, Cast's labels).
public struct PlaybackStatus: Sendable, Equatable {
    public var state: PlaybackState = .stopped
    public var loadState: LoadState = .unknown
    public var repeatMode: RepeatMode
    public var scaling: ScalingMode
    public var volume: Double
    public var isMuted = false
    public var itemCount: Int
    /// The item on screen (0-based, as in itemStarted), its url, title and config `id:`.
    public var itemIndex: Int?
    public var itemURL = ""
    public var itemTitle: String?
    public var itemID: String?
    /// The source timestamp of the frame on screen: the media time a seek names.
    public var position: MediaTime?
    /// The first frame's timestamp: positions before it (a trimmed start) count from it.
    public var firstFramePTS: MediaTime?
    /// The item's length as it plays (its trims applied), once known.
    public var duration: MediaTime?
    public var naturalSize: PixelSize?
    public var framesPresented = 0
    public var framesDropped = 0
    public var lastError: String?
    /// The newest errors, oldest first (AVPlayerItem's errorLog), at most `errorLogLimit`.
    public var errorLog: [ErrorLogEntry] = []
    /// One entry per item that started, newest last (AVPlayerItem's accessLog), at most `accessLogLimit`.
    public var accessLog: [AccessLogEntry] = []

    public static let errorLogLimit = 100
    public static let accessLogLimit = 100

    public init(itemCount: Int, repeatMode: RepeatMode, scaling: ScalingMode, volume: Double) {
        self.itemCount = itemCount
        self.repeatMode = repeatMode
        self.scaling = scaling
        self.volume = volume
    }

    /// Time into the item as presented, from its first frame: what the labels show.
    public var elapsed: MediaTime? {
        guard let position else { return nil }
        return Swift.max(.zero, position - (firstFramePTS ?? position))
    }

    public var remaining: MediaTime? {
        guard let elapsed, let duration else { return nil }
        return Swift.max(.zero, duration - elapsed)
    }

    /// Folds one event in; `t` is seconds since the player started, as the events log has it.
    public mutating func apply(_ event: PlayerEvent, at t: Double) {
        switch event {
        case .itemStarted(let index, let url, let title, let id):
            itemIndex = index
            itemURL = url
            itemTitle = title
            itemID = id
            position = nil
            firstFramePTS = nil
            duration = nil
            naturalSize = nil
            accessLog.append(AccessLogEntry(index: index, url: url, startedAt: t))
            if accessLog.count > Self.accessLogLimit { accessLog.removeFirst(accessLog.count - Self.accessLogLimit) }
        case .itemEnded(let index, _, let reason, _):
            if var entry = accessLog.last, entry.index == index, entry.endedAt == nil {
                entry.endedAt = t
                entry.finishReason = reason
                accessLog[accessLog.count - 1] = entry
            }
        case .playbackStateChanged(_, let to):
            state = to
        case .loadStateChanged(let load):
            loadState = load
        case .timeJumped(_, let to):
            position = to
        case .playbackStalled:
            updateCurrentEntry { $0.stalls += 1 }
        case .durationAvailable(let length):
            duration = length
        case .naturalSizeAvailable(let width, let height):
            naturalSize = PixelSize(width: width, height: height)
        case .scalingModeChanged(let mode):
            scaling = mode
        case .repeatModeChanged(let mode):
            repeatMode = mode
        case .error(let message):
            lastError = message
            errorLog.append(ErrorLogEntry(t: t, message: message))
            if errorLog.count > Self.errorLogLimit { errorLog.removeFirst(errorLog.count - Self.errorLogLimit) }
        case .volumeChanged(let level, let muted):
            volume = level
            isMuted = muted
        case .frame(_, let pts, _, let dropped, _):
            if dropped {
                framesDropped += 1
                updateCurrentEntry { $0.framesDropped += 1 }
            } else {
                framesPresented += 1
                if firstFramePTS == nil { firstFramePTS = pts }
                position = pts
            }
        case .queueReplaced(let count, _):
            itemCount = count
        case .command, .boundary, .rateChanged, .displayPowerChanged, .daypartChanged, .downloadProgress, .wallSyncJoined:
            break
        }
    }

    private mutating func updateCurrentEntry(_ change: (inout AccessLogEntry) -> Void) {
        guard var entry = accessLog.last, entry.endedAt == nil else { return }
        change(&entry)
        accessLog[accessLog.count - 1] = entry
    }
}

/// One error as the errorLog keeps it: when (seconds since start) and the one-line message.
public struct ErrorLogEntry: Sendable, Equatable {
    public let t: Double
    public let message: String
}

/// One item played, as the accessLog keeps it (AVPlayerItemAccessLogEvent): when it started and
/// ended (seconds since start), how it ended, its stalls and dropped frames, and what was read.
public struct AccessLogEntry: Sendable, Equatable {
    public let index: Int
    public let url: String
    public let startedAt: Double
    public var endedAt: Double?
    public var finishReason: FinishReason?
    public var stalls = 0
    public var framesDropped = 0
    /// Bytes the reader took from the source (the player fills it in; 0 until it does).
    public var bytesRead: Int64 = 0

    public init(index: Int, url: String, startedAt: Double) {
        self.index = index
        self.url = url
        self.startedAt = startedAt
    }

    /// Bits per second of the source as read while the item played; nil before a second passed.
    public func observedBitrate(now: Double) -> Double? {
        let seconds = (endedAt ?? now) - startedAt
        guard seconds >= 1, bytesRead > 0 else { return nil }
        return Double(bytesRead) * 8 / seconds
    }
}
