import CFFmpeg
import MarqueeCore

/// Shrinks a decoded still to the screen it is shown on, once, right after decoding: a still stays
/// on screen for seconds, and drawing it is a scale of the whole picture on the present thread, so a
/// large still kept as decoded costs its full size in memory for its whole slot and a full-size
/// scale at every draw (the previous item's last frame stayed up a second too long for one).
enum StillDownscale {
    /// The size to keep a still of `codedSize` (shown at `naturalSize`) in for `screen`: the least
    /// that covers the screen in every scaling mode (aspectFill crops the larger side), so nothing
    /// shown loses detail; nil when the still is no larger than that already.
    static func keptSize(codedSize: PixelSize, naturalSize: PixelSize, screen: PixelSize) -> PixelSize? {
        guard !naturalSize.isEmpty, !codedSize.isEmpty, !screen.isEmpty else { return nil }
        let factor = max(Double(screen.width) / Double(naturalSize.width), Double(screen.height) / Double(naturalSize.height))
        guard factor < 1 else { return nil }
        let kept = PixelSize(width: max(1, Int((Double(codedSize.width) * factor).rounded(.up))),
                             height: max(1, Int((Double(codedSize.height) * factor).rounded(.up))))
        return kept.width < codedSize.width || kept.height < codedSize.height ? kept : nil
    }

    /// A new frame of `size`, 32-bit RGB like the screen, holding `frame` scaled with its colours
    /// already converted (so it is drawn as it is); `frame` can be released at once.
    static func shrink(_ frame: Frame, to size: PixelSize) throws(FFmpegError) -> Frame {
        let source = try CroppedPlanes(UnsafePointer(frame.pointer),
                                       crop: PixelRect(size: frame.pictureSize ?? PixelSize(width: 0, height: 0)))
        let shrunk = try Frame()
        let target = shrunk.pointer
        target.pointee.width = Int32(size.width)
        target.pointee.height = Int32(size.height)
        target.pointee.format = AV_PIX_FMT_BGR0.rawValue
        target.pointee.sample_aspect_ratio = frame.sampleAspectRatio
        target.pointee.pts = frame.pointer.pointee.pts
        target.pointee.best_effort_timestamp = frame.pointer.pointee.best_effort_timestamp
        target.pointee.key_frame = frame.pointer.pointee.key_frame
        try checked(av_frame_get_buffer(target, 0), "av_frame_get_buffer(\(size) still)")
        let conversion = ScalerContext.Conversion(
            sourceSize: source.crop.size, sourceFormat: source.format,
            destinationSize: size, destinationFormat: AV_PIX_FMT_BGR0,
            colorimetry: FrameColorimetry(UnsafePointer(frame.pointer)))
        // Area averaging: the best filter for shrinking by a large factor, and a one-off cost.
        try ScalerContext(flags: SWS_AREA).convert(conversion, source: (source.planes, source.strides),
                                                   destination: ([target.pointee.data.0, nil, nil, nil],
                                                                 [target.pointee.linesize.0, 0, 0, 0]))
        return shrunk
    }
}
