import CFFmpeg
import MarqueeCore

/// One stream's facts, copied out of its `AVStream` so they can be kept after the stream is gone.
struct StreamDescription {
    let index: Int
    let mediaType: MediaType
    let codecID: AVCodecID
    /// FFmpeg's codec name (`h264`, `aac`), or `unknown` when the demuxer did not recognise the codec.
    let codecName: String
    /// The container's codec tag as text (`avc1`, `a64m`); `nil` when the container has none.
    let codecTag: String?
    /// Whether this FFmpeg build has a decoder for the codec.
    let isDecodable: Bool
    /// The unit of this stream's packet and frame timestamps.
    let timeBase: AVRational
    let duration: MediaTime?
    let averageFrameRate: MediaTime?
    let size: PixelSize?
    let sampleRate: Int?
    let channelCount: Int?
    /// The clockwise turn the display matrix asks for; `.none` without one.
    let rotation: Rotation
    /// Cover art and similar: a video stream holding a single picture that belongs to an audio file.
    let isAttachedPicture: Bool

    init(_ stream: UnsafePointer<AVStream>) {
        let parameters = stream.pointee.codecpar.pointee
        index = Int(stream.pointee.index)
        mediaType = Self.mediaType(parameters.codec_type)
        codecID = parameters.codec_id
        codecName = parameters.codec_id == AV_CODEC_ID_NONE ? "unknown" : String(cString: avcodec_get_name(parameters.codec_id))
        codecTag = Self.fourCC(parameters.codec_tag)
        isDecodable = avcodec_find_decoder(parameters.codec_id) != nil
        timeBase = stream.pointee.time_base
        duration = MediaTime(timestamp: stream.pointee.duration, timeBase: stream.pointee.time_base)
        averageFrameRate = MediaTime(rational: stream.pointee.avg_frame_rate)
        size = parameters.width > 0 && parameters.height > 0
            ? PixelSize(width: Int(parameters.width), height: Int(parameters.height)) : nil
        sampleRate = parameters.sample_rate > 0 ? Int(parameters.sample_rate) : nil
        channelCount = parameters.ch_layout.nb_channels > 0 ? Int(parameters.ch_layout.nb_channels) : nil
        rotation = Self.displayRotation(of: stream)
        isAttachedPicture = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
    }

    /// The name to show for the codec in messages: FFmpeg's name, else the container's tag.
    var codecLabel: String {
        codecID == AV_CODEC_ID_NONE ? (codecTag ?? codecName) : codecName
    }

    var track: Track {
        Track(index: index, mediaType: mediaType, codecName: codecName, duration: duration,
              frameRate: mediaType == .video ? averageFrameRate : nil,
              width: size?.width, height: size?.height,
              sampleRate: sampleRate, channels: channelCount, isDecodable: isDecodable)
    }

    static func mediaType(_ type: AVMediaType) -> MediaType {
        switch type {
        case AVMEDIA_TYPE_VIDEO: .video
        case AVMEDIA_TYPE_AUDIO: .audio
        case AVMEDIA_TYPE_SUBTITLE: .subtitle
        default: .data  // data, attachments (fonts) and unknown streams: nothing to present
        }
    }

    /// FFmpeg's display matrix angle is counter-clockwise (av_display_rotation_get); `Rotation` is
    /// clockwise, so the sign flips. A matrix that is not within a degree of a quarter turn cannot be
    /// shown by turning the picture, and is treated as upright. Mirroring in the matrix is ignored.
    static func displayRotation(of stream: UnsafePointer<AVStream>) -> Rotation {
        var size = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
              size >= 9 * MemoryLayout<Int32>.size else { return .none }
        let counterClockwise = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        return rotation(counterClockwiseDegrees: counterClockwise)
    }

    static func rotation(counterClockwiseDegrees angle: Double) -> Rotation {
        guard angle.isFinite else { return .none }
        let quarters = (-angle / 90).rounded()
        guard abs(-angle - quarters * 90) <= 1 else { return .none }
        return Rotation(degrees: Int(quarters) * 90) ?? .none
    }

    private static func fourCC(_ tag: UInt32) -> String? {
        guard tag != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(marquee_av_fourcc_max_string_size()))
        av_fourcc_make_string(&buffer, tag)
        return String(nulTerminated: buffer)
    }
}
