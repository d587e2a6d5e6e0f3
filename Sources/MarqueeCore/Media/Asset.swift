/// Immutable facts about one media URL (AVAsset; MPMoviePlayerController's duration, naturalSize
/// and movieMediaTypes).
public struct Asset: Sendable, Equatable {
    public var url: String
    /// Container or stream duration; nil for live streams and when the container does not say.
    public var duration: MediaTime?
    /// `duration` is FFmpeg's guess from the file size and bitrate, not declared by the container:
    /// a file that ends before it is not necessarily damaged.
    public var isDurationEstimated: Bool
    /// The video as displayed: after sample aspect ratio and rotation metadata. nil without video.
    public var naturalSize: PixelSize?
    /// The decoded picture's own size, before sample aspect ratio and rotation.
    public var codedSize: PixelSize?
    public var sampleAspectRatio: SampleAspectRatio
    /// Clockwise turn the rotation metadata asks for.
    public var rotation: Rotation
    public var mediaTypes: Set<MediaType>
    public var tracks: [Track]
    /// Whether the source allows seeking (files do; live streams and some pipes do not).
    public var isSeekable: Bool
    /// A single picture (PNG, JPEG) shown for a duration rather than played.
    public var isStillImage: Bool
    /// The container format's short name (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `png_pipe`).
    public var containerName: String

    public init(url: String, duration: MediaTime?, naturalSize: PixelSize?, codedSize: PixelSize?,
                sampleAspectRatio: SampleAspectRatio, rotation: Rotation, mediaTypes: Set<MediaType>,
                tracks: [Track], isSeekable: Bool, isStillImage: Bool, containerName: String,
                isDurationEstimated: Bool = false) {
        self.url = url
        self.duration = duration
        self.isDurationEstimated = isDurationEstimated
        self.naturalSize = naturalSize
        self.codedSize = codedSize
        self.sampleAspectRatio = sampleAspectRatio
        self.rotation = rotation
        self.mediaTypes = mediaTypes
        self.tracks = tracks
        self.isSeekable = isSeekable
        self.isStillImage = isStillImage
        self.containerName = containerName
    }
}

public enum MediaType: String, Sendable, Codable, CaseIterable, Comparable {
    case video, audio, subtitle, data

    public static func < (lhs: MediaType, rhs: MediaType) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One elementary stream of an asset.
public struct Track: Sendable, Equatable {
    public var index: Int
    public var mediaType: MediaType
    /// FFmpeg's codec name (`h264`, `vp9`, `aac`, `png`), or `unknown`.
    public var codecName: String
    public var duration: MediaTime?
    /// Video: the average frame rate when known.
    public var frameRate: MediaTime?
    public var width: Int?
    public var height: Int?
    /// Audio: samples per second and channel count.
    public var sampleRate: Int?
    public var channels: Int?
    /// Whether Marquee can decode it (the codec exists in this FFmpeg build).
    public var isDecodable: Bool

    public init(index: Int, mediaType: MediaType, codecName: String, duration: MediaTime? = nil,
                frameRate: MediaTime? = nil, width: Int? = nil, height: Int? = nil,
                sampleRate: Int? = nil, channels: Int? = nil, isDecodable: Bool) {
        self.index = index
        self.mediaType = mediaType
        self.codecName = codecName
        self.duration = duration
        self.frameRate = frameRate
        self.width = width
        self.height = height
        self.sampleRate = sampleRate
        self.channels = channels
        self.isDecodable = isDecodable
    }
}
