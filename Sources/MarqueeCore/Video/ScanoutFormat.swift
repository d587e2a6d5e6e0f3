/// A pixel format a video output scans out from its picture plane, by its DRM fourcc name.
///
/// Today's outputs take 32-bit RGB only: pictures are converted into it in software. A plane that
/// takes YUV (NV12 on most display controllers) would let a picture go out as decoded; the
/// negotiation (`PictureRoute.negotiate`) is where that choice is made.
public enum ScanoutFormat: String, Sendable, Hashable, CaseIterable {
    /// 32 bits a pixel, B G R X in memory: what every KMS primary plane takes.
    case xrgb8888 = "XRGB8888"
    /// The same with alpha: overlay planes.
    case argb8888 = "ARGB8888"

    /// Whether the software converter can write it for the picture plane (opaque, 32 bits).
    var isConvertedInSoftware: Bool { self == .xrgb8888 }
}
