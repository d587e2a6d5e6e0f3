/// What a decoded picture is made of, as the backend decoded it: the question an output is asked
/// before a picture is drawn ("can you take this as it is, or into what must it be converted?"),
/// in the manner of mpv's `query_format` and `reconfig`.
public struct PictureFormat: Hashable, Sendable, CustomStringConvertible {
    /// The backend's name for the pixel layout: `yuv420p`, `nv12`, `yuvj420p`, `rgb24`, ...
    public var pixelFormat: String
    public var size: PixelSize
    public var range: ColorRange
    /// The YUV→RGB matrix the stream says (`bt709`, `bt470bg`, `smpte170m`, `bt2020nc`); nil when it
    /// says none (the converter then follows the picture size: BT.709 from 720 lines up).
    public var matrix: String?

    public init(pixelFormat: String, size: PixelSize, range: ColorRange, matrix: String?) {
        self.pixelFormat = pixelFormat
        self.size = size
        self.range = range
        self.matrix = matrix
    }

    /// "1920x1080 yuv420p (bt709, limited range)": the log's words for it.
    public var description: String {
        var details = [String]()
        if let matrix { details.append(matrix) }
        if range != .unspecified { details.append("\(range.rawValue) range") }
        return "\(size) \(pixelFormat)" + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }

    /// The range a picture's samples use.
    public enum ColorRange: String, Sendable, Hashable {
        /// 16–235 luma ("tv", MPEG range): what broadcast and most files use.
        case limited
        /// 0–255 ("pc", JPEG range).
        case full
        case unspecified
    }
}
