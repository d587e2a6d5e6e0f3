import CFFmpeg
import MarqueeCore

/// Decides whether an asset is one picture to show for a duration rather than a video to play.
///
/// A still is a single video stream of an image codec, read by an image demuxer (`image2` or one
/// of the `*_pipe` demuxers, which hold exactly one picture per file). GIF has its own demuxer and
/// may be animated, so a GIF is still only when it holds a single frame.
enum StillImageRule {
    static let imageCodecs: Set<String> = ["png", "mjpeg", "bmp", "webp", "gif", "tiff", "jpegls", "jpeg2000", "qoi",
                                           "ppm", "pgm", "pgmyuv", "pbm", "pam", "sgi", "targa", "photocd", "jpegxl"]

    static func isStillImage(_ container: InputContainer, streams: [StreamDescription]) -> Bool {
        guard streams.count == 1, let only = streams.first, only.mediaType == .video,
              imageCodecs.contains(only.codecName) else { return false }
        let format = container.formatName
        if format == "gif" { return hasSingleFrame(container) }
        return isImageDemuxer(format)
    }

    /// Demuxers of image files, whose pictures `maxImagePixels` bounds (an animated GIF's too).
    static func isImageDemuxer(_ format: String) -> Bool {
        format == "image2" || format.hasSuffix("_pipe") || format == "gif"
    }

    /// The `max_pixels` that makes an image decoder read the picture's header and stop: any real
    /// picture is larger (a 1x1 image is simply decoded).
    static let headerOnlyPixels = 1

    /// Gives the video streams whose size FFmpeg left unknown the size their decoder refused, which
    /// FFmpeg says only in its log (`Picture size 16000x16000 exceeds specified max pixel count 1`).
    static func fillPictureSizes(of container: InputContainer, from log: [String]) {
        guard let size = log.lazy.compactMap(refusedSize(in:)).first else { return }
        for stream in container.streams where stream.mediaType == .video && stream.size == nil {
            container.setPictureSize(size, ofStream: stream.index)
        }
    }

    /// `imageTooLarge` when an image's picture is over `limit`; nil when it is within it.
    static func sizeProblem(streams: [StreamDescription], limit: ImagePixelLimit) -> MediaOpenError.Reason? {
        guard let size = streams.first(where: { $0.mediaType == .video })?.size, limit.refuses(size) else { return nil }
        return .imageTooLarge(size: size, limit: limit)
    }

    private static func refusedSize(in line: String) -> PixelSize? {
        guard line.contains("exceeds specified max pixel count"),
              let start = line.range(of: "Picture size ")?.upperBound else { return nil }
        let sides = line[start...].prefix { $0 != " " }.split(separator: "x")
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]), width > 0, height > 0 else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// Reads at most two packets. Any read error counts as "not a single frame", the safe answer:
    /// the item then plays as a video, which also shows one picture.
    private static func hasSingleFrame(_ container: InputContainer) -> Bool {
        guard let packet = try? Packet() else { return false }
        var frames = 0
        while frames < 2 {
            switch try? container.readPacket(into: packet) {
            case .packet?: frames += 1
            case .endOfFile?: return frames == 1
            case nil: return false
            }
        }
        return false
    }
}
