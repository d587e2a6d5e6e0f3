/// Turns a string into positioned glyphs for one font: ligatures, kerning, contextual forms,
/// right-to-left order. Implemented by a shaping library (HarfBuzz); Core only lays glyphs out.
public protocol TextShaping: AnyObject {
    /// `text` as one line at an em size of `pixelSize` pixels, direction and script guessed from the text.
    func shape(_ text: String, pixelSize: Int) -> ShapedText
    /// Only `run` of `text`, in the run's direction; the rest of `text` is context (an Arabic letter
    /// joins across a run's edge). Clusters stay offsets into the whole of `text`.
    func shape(_ text: String, run: BidiRun, pixelSize: Int) -> ShapedText
}
