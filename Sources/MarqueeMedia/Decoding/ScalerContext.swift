import CFFmpeg
import MarqueeCore

/// Owns one libswscale context (`SwsContext`), re-made only when the conversion it is asked for
/// changes (sizes, formats, colour details): building one costs far more than converting a frame.
///
/// Not thread-safe: its user serialises access (`PictureScaler` holds it in a Mutex).
final class ScalerContext {
    /// What a context is built for; asking for the same again reuses it.
    struct Conversion: Equatable {
        var sourceSize: PixelSize
        var sourceFormat: AVPixelFormat
        var destinationSize: PixelSize
        var destinationFormat: AVPixelFormat
        var colorimetry: FrameColorimetry?
    }

    /// Bicubic, as the ffmpeg CLI's scale filter uses by default: the same picture quality, and
    /// a fair comparison in `marquee bench`.
    static let defaultFlags = SWS_BICUBIC

    private let flags: Int32
    /// Owned; nil until the first conversion (and after a failed rebuild, which frees the old one).
    private var context: OpaquePointer?
    private var current: Conversion?

    init(flags: Int32 = ScalerContext.defaultFlags) {
        self.flags = flags
    }

    deinit {
        sws_freeContext(context)
    }

    /// Converts `source` planes into `destination` planes as `conversion` describes.
    func convert(_ conversion: Conversion,
                 source: (planes: [UnsafePointer<UInt8>?], strides: [Int32]),
                 destination: (planes: [UnsafeMutablePointer<UInt8>?], strides: [Int32])) throws(FFmpegError) {
        let context = try prepare(for: conversion)
        let written = source.planes.withUnsafeBufferPointer { sourcePlanes in
            source.strides.withUnsafeBufferPointer { sourceStrides in
                destination.planes.withUnsafeBufferPointer { destinationPlanes in
                    destination.strides.withUnsafeBufferPointer { destinationStrides in
                        sws_scale(context, sourcePlanes.baseAddress, sourceStrides.baseAddress, 0,
                                  Int32(conversion.sourceSize.height),
                                  destinationPlanes.baseAddress, destinationStrides.baseAddress)
                    }
                }
            }
        }
        // sws_scale answers the number of rows written; anything short of the full height is a failure.
        guard written == Int32(conversion.destinationSize.height) else {
            throw FFmpegError(code: written < 0 ? written : marquee_averror(EIO),
                              operation: "sws_scale(\(conversion.sourceSize)→\(conversion.destinationSize), wrote \(written) rows)")
        }
    }

    private func prepare(for conversion: Conversion) throws(FFmpegError) -> OpaquePointer {
        if let context, current == conversion { return context }
        current = nil
        // sws_getCachedContext frees the context it is given whenever it cannot reuse it, including on failure.
        context = sws_getCachedContext(context,
                                       Int32(conversion.sourceSize.width), Int32(conversion.sourceSize.height),
                                       conversion.sourceFormat,
                                       Int32(conversion.destinationSize.width), Int32(conversion.destinationSize.height),
                                       conversion.destinationFormat, flags, nil, nil, nil)
        guard let context else {
            throw FFmpegError(code: marquee_averror(EINVAL),
                              operation: "sws_getCachedContext(\(Self.name(of: conversion.sourceFormat)) \(conversion.sourceSize)"
                                  + " → \(Self.name(of: conversion.destinationFormat)) \(conversion.destinationSize))")
        }
        if let colorimetry = conversion.colorimetry {
            try colorimetry.apply(to: context)
        }
        current = conversion
        return context
    }

    static func name(of format: AVPixelFormat) -> String {
        av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "pixel format \(format.rawValue)"
    }
}
