import CFFmpeg

/// How a YUV frame's numbers map to colours: which matrix (BT.601, BT.709, ...) and whether the
/// values span the full 0–255 range or the "limited" 16–235 video range.
///
/// libswscale assumes BT.601 limited unless told, so an HD clip (BT.709) comes out with shifted
/// greens and reds, and a full-range JPEG comes out washed out. Telling it per frame gets both right.
struct FrameColorimetry: Equatable {
    /// An `SWS_CS_*` value for `sws_getCoefficients`.
    let matrix: Int32
    let isFullRange: Bool

    /// `nil` for RGB and palette frames, which have no matrix to choose.
    init?(_ frame: UnsafePointer<AVFrame>) {
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        guard let descriptor = av_pix_fmt_desc_get(format),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) == 0 else { return nil }
        matrix = Self.matrix(for: frame.pointee.colorspace, height: Int(frame.pointee.height))
        isFullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG || Self.jpegFormats.contains(format.rawValue)
    }

    init(matrix: Int32, isFullRange: Bool) {
        self.matrix = matrix
        self.isFullRange = isFullRange
    }

    /// The deprecated `yuvj*` formats mean full range whatever the frame's range field says.
    private static let jpegFormats: Set<Int32> = Set([
        AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P,
    ].map(\.rawValue))

    /// An untagged stream is guessed as players do: HD sizes are BT.709, smaller ones BT.601.
    static func matrix(for space: AVColorSpace, height: Int) -> Int32 {
        switch space {
        case AVCOL_SPC_BT709: SWS_CS_ITU709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: SWS_CS_ITU601
        case AVCOL_SPC_FCC: SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: SWS_CS_SMPTE240M
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
        default: height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }

    /// Sets the source's matrix and range on `context`; the output is always full-range RGB.
    func apply(to context: OpaquePointer) throws(FFmpegError) {
        let coefficients = sws_getCoefficients(matrix)
        let status = sws_setColorspaceDetails(context, coefficients, isFullRange ? 1 : 0,
                                              coefficients, 1,
                                              0, 1 << 16, 1 << 16)  // brightness, contrast, saturation unchanged
        try checked(status, "sws_setColorspaceDetails(matrix \(matrix), \(isFullRange ? "full" : "limited") range)")
    }
}
