/// Resolves the Unicode Bidirectional Algorithm's embedding levels for one line of text, so a title
/// that mixes scripts ("Menu قائمة 2026") can be shaped run by run and laid out in visual order.
/// Implemented by a bidi library (FriBidi); Core only splits and orders the runs.
public protocol BidiLeveling: AnyObject {
    /// One level per Unicode scalar of `scalars` (even: left-to-right, odd: right-to-left), with
    /// the line's trailing white space already reset to the paragraph's level (rule L1), and the
    /// paragraph's direction found from its first strong character; nil if the library failed.
    func levels(of scalars: [UInt32]) -> BidiLevels?
}

/// What `BidiLeveling` resolves for one line.
public struct BidiLevels: Hashable, Sendable {
    public var levels: [UInt8]
    public var paragraph: ShapedText.Direction

    public init(levels: [UInt8], paragraph: ShapedText.Direction) {
        self.levels = levels
        self.paragraph = paragraph
    }
}
