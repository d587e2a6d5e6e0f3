extension StatusDocument {
    /// The item on screen: AVPlayerItem's properties, times in seconds of its media.
    public struct Item: Codable, Sendable, Equatable {
        public var index: Int
        public var url: String
        public var title: String?
        public var positionLabel: String
        public var durationLabel: String
        public var remainingLabel: String
        public var seekable: Bool
        public var stillImage: Bool
        public var position: Double?
        public var elapsed: Double?
        public var duration: Double?
        public var remaining: Double?
        public var start: Double?
        public var end: Double?
        public var naturalSize: PixelSize?
        public var presentationSize: PixelSize?
        public var playbackLikelyToKeepUp: Bool
        public var playbackBufferEmpty: Bool
        public var playbackBufferFull: Bool
        public var loadedTimeRanges: [TimeRange]
        public var seekableTimeRanges: [TimeRange]

        public init(index: Int, url: String, positionLabel: String, durationLabel: String, remainingLabel: String,
                    seekable: Bool, stillImage: Bool, playbackLikelyToKeepUp: Bool, playbackBufferEmpty: Bool,
                    playbackBufferFull: Bool, loadedTimeRanges: [TimeRange], seekableTimeRanges: [TimeRange]) {
            self.index = index
            self.url = url
            self.positionLabel = positionLabel
            self.durationLabel = durationLabel
            self.remainingLabel = remainingLabel
            self.seekable = seekable
            self.stillImage = stillImage
            self.playbackLikelyToKeepUp = playbackLikelyToKeepUp
            self.playbackBufferEmpty = playbackBufferEmpty
            self.playbackBufferFull = playbackBufferFull
            self.loadedTimeRanges = loadedTimeRanges
            self.seekableTimeRanges = seekableTimeRanges
        }
    }

    /// CMTimeRange as `{"start": 0, "duration": 12.5}`.
    public struct TimeRange: Codable, Sendable, Equatable {
        public var start: Double
        public var duration: Double

        public init(from start: MediaTime, to end: MediaTime) {
            self.start = start.seconds
            self.duration = max(0, (end - start).seconds)
        }
    }
}
