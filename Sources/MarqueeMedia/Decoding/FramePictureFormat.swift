import CFFmpeg
import MarqueeCore

extension PictureFormat {
    /// The format of a decoded video frame, in FFmpeg's own names (`yuv420p`, `bt709`); nil for a
    /// frame without a picture.
    init?(_ frame: UnsafePointer<AVFrame>) {
        guard frame.pointee.width > 0, frame.pointee.height > 0,
              let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: frame.pointee.format)) else { return nil }
        let range: ColorRange = switch frame.pointee.color_range {
        case AVCOL_RANGE_MPEG: .limited
        case AVCOL_RANGE_JPEG: .full
        default: .unspecified
        }
        let matrix = frame.pointee.colorspace == AVCOL_SPC_UNSPECIFIED ? nil : av_color_space_name(frame.pointee.colorspace).map { String(cString: $0) }
        self.init(pixelFormat: String(cString: name), size: PixelSize(width: Int(frame.pointee.width), height: Int(frame.pointee.height)),
                  range: range, matrix: matrix)
    }
}
