import CFFmpeg
import MarqueeCore

/// One opened media item, decoded with FFmpeg: its Asset facts, seeks that reach back as far as an
/// exact trim needs, the pictures of its best video stream in presentation order with their exact
/// times, and, when asked for, the audio of its best audio stream resampled and stamped to the
/// sample, interleaved as the file has them.
///
/// Used from one thread (the item's decode thread); the pictures it returns may be drawn on another.
/// Releasing the reader closes the file and frees the decoders; pictures still held keep only their
/// own frames (and the shared scaler) alive.
final class FFmpegMediaReader: MediaReader, SeekReporting {
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
    /// What a seek decoded to check where it landed, handed out before anything else is decoded.
    private var readAhead: [ReadAheadFrame] = []
    /// How long before a seek's target audio decoding starts (see `AudioPreRoll`).
    private let audioPreRoll: MediaTime
    /// Media times of the video and audio streams' first frames, as the container states them.
    private let videoStart: MediaTime?
    private let audioStart: MediaTime?
    /// The video is cover art: one picture, which FFmpeg hands out again after every seek.
    private let videoIsCoverArt: Bool
    /// The audio stream's timestamps are coarser than its samples (Matroska's milliseconds): its
    /// frame grid is learnt at the first seek (see `AudioFrameGrid`).
    private let audioStampsAreCoarse: Bool
    private var audioGrid: AudioFrameGrid? {
        didSet { audioConverter?.grid = audioGrid }
    }
    private var audioGridLearnt = false
    /// A local file is watched for being copied over, cut or replaced while it is read (nil for
    /// remote sources, whose servers say so themselves).
    private let changeWatch: SourceChangeWatch?
    /// Where the media handed out so far ends, in media time: how far the item got, should the file
    /// change under it.
    private var readTo = MediaTime.zero

    private enum ReadAheadFrame {
        case picture(DecodedPicture)
        /// Kept as decoded: the caller's audio format is not known until it asks.
        case audio(Frame)
    }

    /// A seek that lands too late first goes back this much further (or the audio pre-roll, if
    /// longer), then twice as far each time: a few tries reach back a whole long GOP.
    static let firstStepBack = MediaTime(1, per: 8)
    /// Pictures a seek decodes ahead to check where it landed, at most, before it judges with what
    /// it has: each is a whole decoded picture.
    static let readAheadPictureLimit = 16
    /// Video decoder threads (frame and slice threading, as the codec supports): one per core.
    /// FFmpeg's own choice (thread count 0) is one more than the cores, which hides a frame
    /// thread's wait for its reference pictures, but each frame thread holds a picture in progress,
    /// delays the output by one more and keeps its own copy of the decoder's state: at 1080p H.264
    /// the extra thread cost 8.3 MB (the ffmpeg CLI's peak RSS with -threads 3 against 2 on two
    /// cores: 98.0 against 89.8 MiB) and decoded no faster (2.2 s of CPU and 4.0–5.7 s of wall
    /// time for 300 frames either way, interleaved runs on two loaded cores), since the present
    /// thread and the audio thread keep a core's slack busy anyway. 16 at most, FFmpeg's own cap.
    static let videoThreadCount = max(1, min(Int(av_cpu_count()), 16))
    /// Audio frames, at most: enough to reach a key frame 10 s after where a transport stream seek
    /// landed (about 500 frames of AAC), a few MB.
    static let readAheadAudioLimit = 1024

    /// Opens `url` (a path, `file:`, `http:` or `https:` URL) and the decoders of its best video and
    /// audio streams.
    init(url: String, options: MediaOpenOptions = MediaOpenOptions(),
         warn: @escaping @Sendable (String) -> Void = { _ in }) throws(PlaybackError) {
        self.url = url
        self.options = options
        let probed: AssetProbe.ProbedMedia
        do throws(MediaOpenError) {
            let source = try MediaSource(parsing: url)
            // Taken before the open: a change from here on is one the file was not opened with.
            if case .file(let path) = source { changeWatch = SourceChangeWatch(path: path) } else { changeWatch = nil }
            probed = try AssetProbe.open(source, options: options)
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
        audioStampsAreCoarse = audio.map { stream in
            Int64(stream.timeBase.num) * Int64(stream.sampleRate ?? 0) > Int64(stream.timeBase.den)
        } ?? false
        audioPreRoll = audio.map { stream in container.withStream(at: stream.index) { AudioPreRoll.duration(of: $0) } } ?? .zero
        let origin = timeline.origin
        audioStart = audioStream?.startTime.map { $0 - origin }
        videoIsCoverArt = videoStream?.isAttachedPicture ?? false
        videoStart = videoStream.flatMap { stream in
            container.withStream(at: stream.index) { MediaTime(timestamp: $0.pointee.start_time, timeBase: $0.pointee.time_base) }
        }.map { $0 - origin }

        // No video, or video this FFmpeg cannot decode beside audio it can (else the probe refused
        // the media): an item to hear, not to see.
        let video: StreamDecoder?
        do throws(FFmpegError) {
            video = try videoStream.flatMap { stream throws(FFmpegError) in
                stream.isDecodable ? try StreamDecoder(stream: stream.index, of: container, threadCount: Self.videoThreadCount) : nil
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
            if container.source.isRemote && !isStillImage {
                demuxer.startReadingAhead(target: options.readAhead, warn: warn)
            }
        } catch {
            throw PlaybackError(url: url, reason: "cannot start decoding: \(error)")
        }
    }

    func seek(to time: MediaTime) throws(PlaybackError) {
        try seek(to: time, includingAudio: true)
    }

    /// Positions decoding early enough that what follows, trimmed to `time`, is exactly what a
    /// decode from the start gives from `time` on: the video from a key frame at or before the frame
    /// on screen at `time`, the audio (unless `includingAudio` is false) from its codec's pre-roll
    /// before `time`. The first try is a key frame seek to `time` (to `time` less twice the pre-roll
    /// for audio alone); the frames it decodes say whether it reached back far enough (`SeekCheck`),
    /// and if not, the next try goes further back, up to the file's start. What the tries decoded
    /// last is handed out first; everything before `time` is the caller's to trim.
    func seek(to time: MediaTime, includingAudio: Bool) throws(PlaybackError) {
        guard demuxer.video != nil || demuxer.audio != nil, !asset.isStillImage else { return }
        let target = max(time, .zero)
        let checksAudio = includingAudio && demuxer.audio != nil
        // Audio alone goes straight to its pre-roll, with as much again to spare: demuxers land
        // a little after the time asked for (WAV rounds to its blocks).
        var point = demuxer.video == nil && checksAudio ? target - audioPreRoll * 2 : target
        var step = max(audioPreRoll, Self.firstStepBack)
        var attempts = 0
        do throws(FFmpegError) {
            if checksAudio && audioStampsAreCoarse && !audioGridLearnt { try learnAudioGrid() }
            while true {
                let fromStart = point <= .zero
                try reposition(at: fromStart ? nil : point)
                attempts += 1
                var check = SeekCheck(target: target, checksVideo: demuxer.video != nil && !videoIsCoverArt, checksAudio: checksAudio,
                                      audioPreRoll: audioPreRoll, videoStart: videoStart, audioStart: audioStart)
                try decodeAhead(checking: &check, includingAudio: checksAudio)
                if check.isFarEnough || fromStart { break }
                point = point - step
                step = step * 2
            }
        } catch {
            throw PlaybackError(url: url, reason: "seek to \(time) failed: \(error)")
        }
        lastSeek = SeekReport(target: target, attempts: attempts, decodingFrom: point > .zero ? point : .zero)
    }

    /// Where the last seek started decoding and how many tries that took.
    private(set) var lastSeek: SeekReport?

    /// Decodes the first audio frames from the file's start, where a decode without a seek anchors
    /// its audio, and learns from them where every later frame starts.
    private func learnAudioGrid() throws(FFmpegError) {
        audioGridLearnt = true
        guard let audioStream, let rate = audioStream.description.sampleRate else { return }
        let timeBase = audioStream.description.timeBase
        try reposition(at: nil)
        let frame = try Frame()
        var firstFrames: [(time: MediaTime, sampleCount: Int)] = []
        var pictures = 0
        while firstFrames.count < 3 && pictures < Self.readAheadPictureLimit,
              let output = try demuxer.next(into: frame, includingAudio: true) {
            switch output {
            case .video:
                pictures += 1
            case .audio:
                guard let time = frame.presentationTime(timeBase: timeBase) else { return }
                firstFrames.append((time - timeline.origin, frame.sampleCount))
            }
        }
        audioGrid = AudioFrameGrid(firstFrames: firstFrames, sampleRate: rate,
                                   tolerance: MediaTime(Int64(timeBase.num), per: Int64(timeBase.den)))
    }

    /// Moves reading to the key frame at or before `point` (media time), or to the file's start
    /// when `point` is nil or the container cannot seek there; every decoder starts afresh.
    private func reposition(at point: MediaTime?) throws(FFmpegError) {
        let (container, origin) = (container, timeline.origin)
        try demuxer.repositioning { () throws(FFmpegError) in
            if let point {
                do throws(FFmpegError) {
                    try container.seek(toKeyFrameAtOrBefore: origin + point)
                } catch {
                    // No key frame that early (a transport stream's video starting after its audio).
                    do throws(FFmpegError) { try container.seekToStart(origin) } catch _ { throw error }
                }
            } else {
                try container.seekToStart(origin)
            }
        }
        timeline.restart()
        audioConverter?.reset()
        pendingAudio = []
        readAhead = []
    }

    /// Decodes from the new position until `check` can judge it (or the input ends, or the
    /// read-ahead limits are reached), keeping every frame to hand out later.
    /// Audio is decoded (when `includingAudio`) all along, also once it has passed, or the audio
    /// between its first frame and the video's verdict would be lost.
    private func decodeAhead(checking check: inout SeekCheck, includingAudio: Bool) throws(FFmpegError) {
        let audioTimeBase = demuxer.audio?.timeBase
        var pictures = 0, audioFrames = 0
        while !check.isDecided && pictures < Self.readAheadPictureLimit && audioFrames < Self.readAheadAudioLimit {
            let frame = try Frame()
            guard let output = try demuxer.next(into: frame, includingAudio: includingAudio) else { break }
            switch output {
            case .video:
                let picture = try picture(of: frame)
                check.notePicture(at: picture.pts, isKeyFrame: frame.isKeyFrame)
                readAhead.append(.picture(picture))
                pictures += 1
            case .audio:
                check.noteAudio(at: audioTimeBase.flatMap { frame.presentationTime(timeBase: $0) }.map { $0 - timeline.origin })
                readAhead.append(.audio(frame))
                audioFrames += 1
            }
        }
        if !check.isDecided { check.settle() }
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

    /// How far a remote source is fetched ahead of decoding; a local one never runs dry. Safe from any thread.
    var readAheadStatus: ReadAheadStatus { demuxer.readAhead?.status ?? .local }

    var skippedMediaTime: MediaTime { demuxer.readAhead?.skipped ?? .zero }

    var bytesRead: Int64 { container.bytesRead.value.load(ordering: .relaxed) }

    /// The read-ahead thread is stopped (its read in flight interrupted) and lets go of the
    /// container when it returns; nothing here waits for it.
    deinit {
        demuxer.readAhead?.stop()
    }

    /// How many packets or frames were lost to damage so far (decoding went on past them).
    var damageCount: Int { demuxer.damageCount }

    /// The next media, unless the local file changed under the reader: then the item fails, saying
    /// how far it got. Damage, read errors and the end of the data are what reading a changed file
    /// looks like, so they are checked at once; otherwise the file is checked every so often.
    private func decodeNext(audioFormat: AudioFormat?) throws(PlaybackError) -> DecodedMedia? {
        guard let changeWatch else { return try decodeFromSource(audioFormat: audioFormat) }
        let damage = demuxer.damageCount
        let media: DecodedMedia?
        do {
            media = try decodeFromSource(audioFormat: audioFormat)
        } catch {
            if changeWatch.hasChanged(at: readTo, now: true) { throw changedWhilePlaying() }
            throw error
        }
        switch media {
        case .picture(let picture)?: readTo = max(readTo, picture.pts + timeline.defaultFrameDuration)
        case .audio(let block)?: readTo = max(readTo, block.end)
        case nil: break
        }
        let suspicious = media == nil || demuxer.damageCount != damage || demuxer.readFailure != nil
        if changeWatch.hasChanged(at: readTo, now: suspicious) { throw changedWhilePlaying() }
        return media
    }

    var hasSourceChanged: Bool { changeWatch?.hasChanged(at: readTo, now: true) ?? false }

    private func changedWhilePlaying() -> PlaybackError {
        PlaybackError(url: url, reason: TruncationRule.changedWhilePlaying(decodedTo: readTo, declaredDuration: asset.duration))
    }

    private func decodeFromSource(audioFormat: AudioFormat?) throws(PlaybackError) -> DecodedMedia? {
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
        while !readAhead.isEmpty {
            switch readAhead.removeFirst() {
            case .picture(let picture):
                return .picture(picture)
            case .audio(let frame):
                guard let audioFormat, let converter = converter(for: audioFormat) else { continue }
                pendingAudio += try converter.convert(frame)
                if !pendingAudio.isEmpty { return .audio(pendingAudio.removeFirst()) }
            }
        }
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
                return .picture(try picture(of: frame))
            case .audio:
                guard let audioFormat, let converter = converter(for: audioFormat) else { continue }
                pendingAudio += try converter.convert(frame)
                if !pendingAudio.isEmpty { return .audio(pendingAudio.removeFirst()) }
            }
        }
    }

    private func picture(of frame: Frame) throws(FFmpegError) -> DecodedPicture {
        let pts: MediaTime
        var frame = frame
        if asset.isStillImage {
            pts = .zero
            stillImageDelivered = true
            if let screen = options.stillScreenSize, let coded = frame.pictureSize,
               let kept = StillDownscale.keptSize(codedSize: coded, naturalSize: asset.naturalSize ?? coded, screen: screen) {
                frame = try StillDownscale.shrink(frame, to: kept)
            }
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
        converter.grid = audioGrid
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
