import MarqueeCore

/// How pictures reach the output, kept across items: the format route last negotiated, and where
/// pictures were converted (the decode thread ahead of their turn, or the present thread).
struct PictureDelivery {
    /// The route negotiated for the last picture format drawn; asked again when the format changes.
    private(set) var route: PictureRoute?
    /// The last picture format negotiated, whatever the answer.
    private var negotiatedFormat: PictureFormat?
    /// Pictures shown from a buffer the decode thread converted them into: the present thread flipped.
    private(set) var convertedAhead = 0
    /// Pictures the present thread converted itself (nothing converted ahead: the first of an
    /// item, a redraw, an output without lent buffers, a layout changed meanwhile).
    private(set) var convertedOnPresentThread = 0

    /// The route for `format`, negotiated with what the output takes when it differs from the
    /// last one; the refusal when the output takes nothing pictures can be converted into (once
    /// per format). Nothing when the picture says no format.
    mutating func negotiate(_ format: PictureFormat?, outputTakes offered: [ScanoutFormat]) -> PictureRoute.Refusal? {
        guard let format, negotiatedFormat != format else { return nil }
        negotiatedFormat = format
        switch PictureRoute.negotiate(format, outputTakes: offered) {
        case .success(let chosen):
            route = chosen
            return nil
        case .failure(let refusal):
            route = nil
            return refusal
        }
    }

    mutating func shownConvertedAhead() { convertedAhead += 1 }
    mutating func convertedOnPresent() { convertedOnPresentThread += 1 }
}
