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
        if format == "image2" || format.hasSuffix("_pipe") { return true }
        if format == "gif" { return hasSingleFrame(container) }
        return false
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
