import CFFmpeg
import MarqueeCore

/// One opened media item, decoded with FFmpeg: its Asset facts, keyframe seeks, and the pictures of
/// its best video stream in presentation order with their exact times.
///
/// Used from one thread (the item's decode thread); the pictures it returns may be drawn on another.
/// Releasing the reader closes the file and frees the decoder; pictures still held keep only their
/// own frames (and the shared scaler) alive.
final class FFmpegMediaReader: MediaReader {
    let asset: Asset
    /// The media as the caller named it, for error lines.
    let url: String
    private let options: MediaOpenOptions
    private let container: InputContainer
    /// nil without a decodable video stream (audio-only media): no pictures at all.
    private let video: VideoFrameDecoder?
    private var timeline: FrameTimeline
    private let scaler = PictureScaler()
    private var stillImageDelivered = false

    /// Opens `url` (a path, `file:`, `http:` or `https:` URL) and the decoder of its best video stream.
    init(url: String, options: MediaOpenOptions = MediaOpenOptions()) throws(PlaybackError) {
        self.url = url
        self.options = options
        let probed: AssetProbe.ProbedMedia
        do throws(MediaOpenError) {
            probed = try AssetProbe.open(MediaSource(parsing: url), options: options)
        } catch {
            throw PlaybackError(url: url, reason: error.reason.description)
        }
        asset = probed.asset
        container = probed.container
        let streams = probed.streams
        let videoStream = container.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO).map { streams[$0] }
        timeline = FrameTimeline(origin: Self.origin(of: streams, in: container),
                                 defaultFrameDuration: videoStream.map(Self.frameDuration) ?? Self.fallbackFrameDuration)
        guard let videoStream, videoStream.isDecodable else {
            // No video, or video this FFmpeg cannot decode beside audio it can (else the probe refused
            // the media): an item to hear, not to see.
            video = nil
            return
        }
        do throws(FFmpegError) {
            video = try VideoFrameDecoder(stream: videoStream.index, of: container)
            // Telling a still GIF from an animation reads its packets: start again from the first.
            if container.formatName == "gif" {
                try container.seek(toKeyFrameAtOrBefore: timeline.origin)
            }
        } catch {
            throw PlaybackError(url: url, reason: "cannot decode the \(videoStream.codecName) video: \(error)")
        }
    }

    func seek(to time: MediaTime) throws(PlaybackError) {
        guard let video, !asset.isStillImage else { return }
        do throws(FFmpegError) {
            try container.seek(toKeyFrameAtOrBefore: timeline.origin + max(time, .zero))
        } catch {
            throw PlaybackError(url: url, reason: "seek to \(time) failed: \(error)")
        }
        video.restart()
        timeline.restart()
    }

    func nextPicture() throws(PlaybackError) -> VideoPicture? {
        guard let video, !(asset.isStillImage && stillImageDelivered) else { return nil }
        let frame: Frame
        let decoded: Bool
        do throws(FFmpegError) {
            frame = try Frame()
            decoded = try video.decode(into: frame)
        } catch {
            throw PlaybackError(url: url, reason: "decoding failed: \(error)")
        }
        guard decoded else {
            if video.framesDecoded == 0, let reason = failureReason(of: video) {
                throw PlaybackError(url: url, reason: reason)
            }
            return nil
        }
        let pts: MediaTime
        if asset.isStillImage {
            pts = .zero
            stillImageDelivered = true
        } else {
            pts = timeline.time(ofFrameStamped: frame.presentationTime(timeBase: video.timeBase),
                                duration: frame.duration(timeBase: video.timeBase))
        }
        return DecodedPicture(frame: frame, pts: pts, scaler: scaler, layoutSize: asset.codedSize)
    }

    /// How many packets or frames were lost to damage so far (decoding went on past them).
    var damageCount: Int { video?.damageCount ?? 0 }

    /// Why a stream that ended without one picture failed; nil when it was simply empty.
    private func failureReason(of video: VideoFrameDecoder) -> String? {
        if let damage = video.lastDamage {
            return "no picture could be decoded (\(damage))"
        }
        if let failure = video.readFailure {
            return MediaOpenError.Reason(classifying: failure, timeout: options.networkTimeout).description
        }
        return nil
    }

    /// Media time 0: where the earliest audio or video stream starts, as FFmpeg reckons a container's
    /// start time. Zero when no stream says.
    private static func origin(of streams: [StreamDescription], in container: InputContainer) -> MediaTime {
        let starts = streams.filter { ($0.mediaType == .video || $0.mediaType == .audio) && !$0.isAttachedPicture }
            .compactMap { stream in
                container.withStream(at: stream.index) { MediaTime(timestamp: $0.pointee.start_time, timeBase: $0.pointee.time_base) }
            }
        return starts.min() ?? .zero
    }

    /// One frame at the stream's average rate, for frames that do not say how long they last.
    private static func frameDuration(of stream: StreamDescription) -> MediaTime {
        guard let rate = stream.averageFrameRate, rate.numerator > 0 else { return fallbackFrameDuration }
        return MediaTime(rate.denominator, per: rate.numerator)
    }

    /// PAL's frame duration, when a stream gives no rate at all.
    static let fallbackFrameDuration = MediaTime(1, per: 25)
}
