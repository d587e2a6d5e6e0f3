import MarqueeCore

/// What the decode thread of the item on screen converts its pictures into: the output's buffers,
/// placed by the item's layout. Made by the player when an item becomes current (and again when
/// the layout or the output's buffers change); a pipeline prepared ahead has none, so it never
/// holds buffers the item on screen needs.
final class PictureConversion: Sendable {
    let pool: OutputBufferPool
    let layout: PictureLayout
    let background: RGBColor

    init(pool: OutputBufferPool, layout: PictureLayout, background: RGBColor) {
        self.pool = pool
        self.layout = layout
        self.background = background
    }

    /// Converts the pictures `nextWaiting` gives, oldest first, for as long as the pool lends
    /// buffers. Returns how many were converted.
    @discardableResult
    func convert(_ nextWaiting: () -> StagedPicture?) -> Int {
        var converted = 0
        while let picture = nextWaiting() {
            guard let placement = layout.placement(for: picture) else {
                picture.leave()
                continue
            }
            guard let lease = pool.lendForConversion() else { break }
            if picture.convert(into: lease, placement: placement, background: background) { converted += 1 }
        }
        return converted
    }
}
