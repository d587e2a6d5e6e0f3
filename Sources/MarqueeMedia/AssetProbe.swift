import CFFmpeg
import Foundation
import MarqueeCore

/// Reads the facts about one media URL (`Asset`): what a playlist needs before it plays an item,
/// and what `marquee probe` prints.
///
/// Opening reads the container header and a little of each stream; nothing is decoded except what
/// FFmpeg needs to fill in codec parameters, and an image over `maxImagePixels` is refused from its
/// header, before its picture is decoded. Blocking: call it off the control plane.
public enum AssetProbe {
    /// Probes a path, `file:` URL or http(s) URL; other schemes are refused without touching FFmpeg.
    public static func asset(at url: String, options: MediaOpenOptions = MediaOpenOptions()) throws(MediaOpenError) -> Asset {
        try asset(of: MediaSource(parsing: url), options: options)
    }

    /// Throws when the source cannot be opened, holds no audio or video stream, or this FFmpeg
    /// decodes none of its audio and video streams; the error names the source and the cause.
    public static func asset(of source: MediaSource, options: MediaOpenOptions = MediaOpenOptions()) throws(MediaOpenError) -> Asset {
        try open(source, options: options).asset
    }

    /// An opened container with the facts read from it, for a reader that goes on to decode it: the
    /// probe and the player judge a source by one code path, so they never disagree about it.
    struct ProbedMedia {
        let container: InputContainer
        let streams: [StreamDescription]
        let asset: Asset
    }

    /// Opens and probes `source`, leaving the container open; throws as `asset(of:)` does.
    static func open(_ source: MediaSource, options: MediaOpenOptions = MediaOpenOptions()) throws(MediaOpenError) -> ProbedMedia {
        if case .file(let path) = source, let problem = LocalFileCheck.problem(at: path) {
            throw MediaOpenError(url: source.description, reason: problem)
        }
        let container: InputContainer
        let log: [String]
        let isImage: Bool
        do {
            container = try InputContainer(opening: source, options: options)
            isImage = StillImageRule.isImageDemuxer(container.formatName)
            // An image demuxer states no picture size, so FFmpeg would decode the whole picture to
            // learn it (and the reader would then decode it again). A decoder allowed no pixels
            // stops at the picture's header instead, saying the size it refused.
            log = try container.findStreamInfo(maxPixels: isImage ? StillImageRule.headerOnlyPixels : nil)
            if isImage { StillImageRule.fillPictureSizes(of: container, from: log) }
        } catch {
            throw MediaOpenError(url: source.description,
                                 reason: MediaOpenError.Reason(classifying: error, timeout: options.networkTimeout),
                                 underlying: error)
        }
        let streams = container.streams
        if isImage, let problem = StillImageRule.sizeProblem(streams: streams, limit: options.maxImagePixels) {
            throw MediaOpenError(url: source.description, reason: problem)
        }
        if let problem = playabilityProblem(of: streams, duration: container.duration) {
            throw MediaOpenError(url: source.description, reason: problem)
        }
        return ProbedMedia(container: container, streams: streams, asset: asset(of: container, streams: streams))
    }

    static func asset(of container: InputContainer, streams: [StreamDescription]) -> Asset {
        let video = container.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO).map { streams[$0] }
        let codedSize = video?.size
        let sampleAspectRatio = video.map { stream in
            let ratio = container.sampleAspectRatio(ofStream: stream.index)
            return SampleAspectRatio(numerator: Int(ratio.num), denominator: Int(ratio.den))
        } ?? .square
        let rotation = video?.rotation ?? .none
        // One definition of natural size: the one the renderer lays pictures out with.
        let naturalSize = codedSize.map {
            ScalingGeometry(sourceSize: $0, sampleAspectRatio: sampleAspectRatio, sourceRotation: rotation,
                            screenSize: $0).naturalSize
        }
        let duration = Self.duration(container: container.duration, streams: streams)
        return Asset(
            url: container.source.description,
            duration: duration,
            naturalSize: naturalSize,
            codedSize: codedSize,
            sampleAspectRatio: sampleAspectRatio,
            rotation: rotation,
            mediaTypes: Set(streams.map(\.mediaType).filter { $0 == .video || $0 == .audio }),
            tracks: streams.map(\.track),
            isSeekable: isSeekable(container, duration: duration),
            isStillImage: StillImageRule.isStillImage(container, streams: streams),
            containerName: container.formatName,
            isDurationEstimated: container.isDurationEstimatedFromBitrate)
    }

    /// The container's duration, else the longest stream's; `nil` when neither is known (live,
    /// single images) or it is not positive.
    static func duration(container: MediaTime?, streams: [StreamDescription]) -> MediaTime? {
        let known = container ?? streams.compactMap(\.duration).max()
        guard let known, known > .zero else { return nil }
        return known
    }

    /// Local files seek. Remote sources seek when they have an end (not live) and either the server
    /// honours byte ranges or the demuxer seeks by itself (HLS reopens segments).
    private static func isSeekable(_ container: InputContainer, duration: MediaTime?) -> Bool {
        guard container.source.isRemote else { return true }
        guard duration != nil else { return false }
        return container.isByteSeekable || container.formatName == "hls"
    }

    /// Audio and video are what Marquee presents: without any, or with none decodable, the item can
    /// only fail later, so it fails here with the reason.
    /// A container with no stream at all and no length is an empty clip, not one of other streams.
    private static func playabilityProblem(of streams: [StreamDescription], duration: MediaTime?) -> MediaOpenError.Reason? {
        if streams.isEmpty && (duration ?? .zero) <= .zero { return .noFrames }
        let media = streams.filter { $0.mediaType == .video || $0.mediaType == .audio }
        guard !media.isEmpty else { return .noMediaStreams }
        guard !media.contains(where: \.isDecodable) else { return nil }
        return .unsupportedCodecs(media.map {
            MediaOpenError.UnsupportedStream(index: $0.index, mediaType: $0.mediaType, codec: $0.codecLabel)
        })
    }
}
