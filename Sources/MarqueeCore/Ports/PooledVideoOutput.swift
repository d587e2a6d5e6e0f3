/// An output whose picture buffers are lent out (`OutputBufferPool`), so that pictures are
/// converted on the decode thread ahead of their turn and the present thread only flips. An
/// optional capability, asked with `video as? PooledVideoOutput`: an output without it (a mirrored
/// pair) has every picture drawn on the present thread through `prepare(_:)`.
public protocol PooledVideoOutput: VideoOutput {
    /// The buffers pictures may be converted into now; nil while none may (the picture is paused:
    /// unplugged, another VT). A screen made again (after an unplug) has a new pool: leases of
    /// the old one are refused by `prepare(lease:)`.
    var pictureBuffers: OutputBufferPool? { get }

    /// Takes a picture already converted into one of the output's buffers as the next to show,
    /// in place of anything prepared before; `draw` may add to it (the labels, when they have no
    /// plane of their own). False, with nothing prepared, when the lease is not of this output's
    /// current pool: the caller draws the picture itself. Blocks, as `prepare(_:)` does, until
    /// the last flip completed.
    func prepare(lease: OutputBufferLease, then draw: ((PixelBuffer) throws -> Void)?) throws -> Bool
}
