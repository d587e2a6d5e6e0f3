import CFFmpeg
import MarqueeCore

/// One opened media item, decoded with FFmpeg: its Asset facts, keyframe seeks, the pictures of its
/// best video stream in presentation order with their exact times, and, when asked for, the audio
/// of its best audio stream resampled and stamped to the sample, interleaved as the file has them.
///
/// Used from one thread (the item's decode thread); the pictures it returns may be drawn on another.
/// Releasing the reader closes the file and frees the decoders; pictures still held keep only their
/// own frames (and the shared scaler) alive.
final class FFmpegMediaReader: MediaReader {
    let asset: Asset
    /// The media as the caller named it, for error lines.
    let url: String
    private let options: MediaOpenOptions
    private let container: InputContainer
    /// The one read loop, feeding the video decoder (nil without a decodable video stream: no
    /// pictures at all) and the audio decoder (nil without a decodable audio stream).
    private let demuxer: StreamDemuxer
    private var timeline: FrameTimeline
    private let scaler = PictureScaler()
    private var stillImageDelivered = false
    /// The audio stream's facts, for converters of whichever format the caller asks for.
    private let audioStream: (description: StreamDescription, startTime: MediaTime?)?
    private var audioConverter: AudioFrameConverter?
    /// Blocks one decoded frame completed beyond the one already returned.
    private var pendingAudio: [AudioBlock] = []
    /// The frame the next decode fills: audio frames are copied out by the resampler, so one frame
    /// serves them all; a picture keeps its frame, and the next decode gets a fresh one.
    private var spareFrame: Frame?

    /// Opens `url` (a path, `file:`, `http:` or `https:` URL) and the decoders of its best video and
    /// audio streams.
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
        let container = probed.container
        self.container = container
        let streams = probed.streams
        let videoStream = container.bestStreamIndex(of: AVMEDIA_TYPE_VIDEO).map { streams[$0] }
        timeline = FrameTimeline(origin: Self.origin(of: streams, in: container),
                                 defaultFrameDuration: videoStream.map(Self.frameDuration) ?? Self.fallbackFrameDuration)
        let isStillImage = probed.asset.isStillImage
        let audio = container.bestStreamIndex(of: AVMEDIA_TYPE_AUDIO).map { streams[$0] }.flatMap { stream in
            stream.isDecodable && !isStillImage ? stream : nil
        }
        audioStream = audio.map { stream in
            (stream, container.withStream(at: stream.index) { MediaTime(timestamp: $0.pointee.start_time, timeBase: $0.pointee.time_base) })
        }

        // No video, or video this FFmpeg cannot decode beside audio it can (else the probe refused
        // the media): an item to hear, not to see.
        let video: StreamDecoder?
        do throws(FFmpegError) {
            video = try videoStream.flatMap { stream throws(FFmpegError) in
                // 0: FFmpeg picks one thread per core, frame and slice threading as the codec supports.
                stream.isDecodable ? try StreamDecoder(stream: stream.index, of: container, threadCount: 0) : nil
            }
        } catch {
            throw PlaybackError(url: url, reason: "cannot decode the \(videoStream?.codecName ?? "video") video: \(error)")
        }
        let audioDecoder: StreamDecoder?
        do throws(FFmpegError) {
            audioDecoder = try audio.map { stream throws(FFmpegError) in try StreamDecoder(stream: stream.index, of: container, threadCount: 1) }
        } catch where video != nil {
            // The pictures can still be shown; the item plays silent.
            audioDecoder = nil
        } catch {
            throw PlaybackError(url: url, reason: "cannot decode the \(audio?.codecName ?? "audio") audio: \(error)")
        }
        do throws(FFmpegError) {
            demuxer = try StreamDemuxer(container: container, video: video, audio: audioDecoder)
            // Telling a still GIF from an animation reads its packets: start again from the first.
            if video != nil && container.formatName == "gif" {
                try container.seek(toKeyFrameAtOrBefore: timeline.origin)
            }
        } catch {
            throw PlaybackError(url: url, reason: "cannot start decoding: \(error)")
        }
    }

    func seek(to time: MediaTime) throws(PlaybackError) {
        guard demuxer.video != nil || demuxer.audio != nil, !asset.isStillImage else { return }
        do throws(FFmpegError) {
            try container.seek(toKeyFrameAtOrBefore: timeline.origin + max(time, .zero))
        } catch {
            throw PlaybackError(url: url, reason: "seek to \(time) failed: \(error)")
        }
        demuxer.restart()
        timeline.restart()
        audioConverter?.reset()
        pendingAudio = []
    }

    func nextPicture() throws(PlaybackError) -> VideoPicture? {
        // Without an audio format no audio is decoded, so the first media is a picture or the end.
        while let media = try nextMedia(audioFormat: nil) {
            if case .picture(let picture) = media { return picture }
        }
        return nil
    }

    func nextMedia(audioFormat: AudioFormat?) throws(PlaybackError) -> DecodedMedia? {
        guard let audioFormat else {
            pendingAudio = []
            return try decodeNext(audioFormat: nil)
        }
        if !pendingAudio.isEmpty { return .audio(pendingAudio.removeFirst()) }
        return try decodeNext(audioFormat: audioFormat)
    }

    /// How many packets or frames were lost to damage so far (decoding went on past them).
    var damageCount: Int { demuxer.damageCount }

    private func decodeNext(audioFormat: AudioFormat?) throws(PlaybackError) -> DecodedMedia? {
        let wantsAudio = audioFormat != nil && demuxer.audio != nil
        guard demuxer.video != nil || wantsAudio, !(asset.isStillImage && stillImageDelivered) else { return nil }
        do throws(FFmpegError) {
            if let media = try decodeFrame(audioFormat: wantsAudio ? audioFormat : nil) { return media }
            // The end of the input: the resampler's tail comes before the end.
            if wantsAudio, let audioConverter {
                pendingAudio += try audioConverter.finish()
                if !pendingAudio.isEmpty { return .audio(pendingAudio.removeFirst()) }
            }
        } catch {
            throw PlaybackError(url: url, reason: "decoding failed: \(error)")
        }
        if let reason = failureReason(audioWanted: wantsAudio) { throw PlaybackError(url: url, reason: reason) }
        return nil
    }

    /// The next picture or audio block, decoding on until one is complete; nil at the end of the input.
    private func decodeFrame(audioFormat: AudioFormat?) throws(FFmpegError) -> DecodedMedia? {
        while true {
            let frame: Frame
            if let spareFrame {
                frame = spareFrame
            } else {
                frame = try Frame()
                spareFrame = frame
            }
            guard let output = try demuxer.next(into: frame, includingAudio: audioFormat != nil) else { return nil }
            switch output {
            case .video:
                spareFrame = nil
                return .picture(picture(of: frame))
            case .audio:
                guard let audioFormat, let converter = converter(for: audioFormat) else { continue }
                pendingAudio += try converter.convert(frame)
                if !pendingAudio.isEmpty { return .audio(pendingAudio.removeFirst()) }
            }
        }
    }

    private func picture(of frame: Frame) -> DecodedPicture {
        let pts: MediaTime
        if asset.isStillImage {
            pts = .zero
            stillImageDelivered = true
        } else {
            let timeBase = demuxer.video?.timeBase ?? marquee_av_time_base_q()
            pts = timeline.time(ofFrameStamped: frame.presentationTime(timeBase: timeBase),
                                duration: frame.duration(timeBase: timeBase))
        }
        return DecodedPicture(frame: frame, pts: pts, scaler: scaler, layoutSize: asset.codedSize)
    }

    /// The converter for `format`; a new one (stamping afresh) when the caller changed formats.
    private func converter(for format: AudioFormat) -> AudioFrameConverter? {
        guard let audioStream else { return nil }
        if let audioConverter, audioConverter.format == format { return audioConverter }
        let converter = AudioFrameConverter(format: format, stream: audioStream.description,
                                            startTime: audioStream.startTime, origin: timeline.origin)
        audioConverter = converter
        return converter
    }

    /// Why the media ended without one picture (or, heard only, one block of audio) when it failed;
    /// nil when it ended normally.
    private func failureReason(audioWanted: Bool) -> String? {
        // A source that stopped answering mid-stream failed, however much of it played: ending the
        // item as if it were complete would hide a stalled server (the rest never comes).
        if let failure = demuxer.readFailure,
           case .timedOut = MediaOpenError.Reason(classifying: failure, timeout: options.networkTimeout) {
            return MediaOpenError.Reason.timedOut(after: options.networkTimeout).description
        }
        let decoder: StreamDecoder
        let what: String
        if let video = demuxer.video {
            (decoder, what) = (video, "picture")
        } else if audioWanted, let audio = demuxer.audio {
            (decoder, what) = (audio, "audio")
        } else {
            return nil
        }
        guard decoder.framesDecoded == 0 else { return nil }
        if let damage = decoder.lastDamage {
            return "no \(what) could be decoded (\(damage))"
        }
        if let failure = demuxer.readFailure {
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
