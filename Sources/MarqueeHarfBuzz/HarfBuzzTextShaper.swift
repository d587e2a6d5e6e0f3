import CHarfBuzz
import MarqueeCore

/// Shapes text with HarfBuzz, which reads the font file itself with its own OpenType functions
/// (no FreeType here: each backend owns one C library).
///
/// Owns one hb_font and one reusable hb_buffer, destroyed in deinit. Not thread-safe (the buffer is
/// reused); it belongs to the thread that draws the OSD.
public final class HarfBuzzTextShaper: TextShaping {
    public let fontPath: String
    private let font: OpaquePointer
    private let buffer: OpaquePointer

    public init(fontPath: String) throws(FontError) {
        self.fontPath = fontPath
        try FontFileCheck.requireReadableNonEmptyFile(at: fontPath)
        guard let blob = hb_blob_create_from_file_or_fail(fontPath) else {
            throw FontError(path: fontPath, reason: "HarfBuzz could not read the file")
        }
        // The face and the font each keep a reference to what they are made from, so the local
        // references are released as soon as the next object holds one.
        defer { hb_blob_destroy(blob) }
        guard hb_face_count(blob) > 0 else {
            throw FontError(path: fontPath, reason: "not a font file (no OpenType or TrueType face in it)")
        }
        let face = hb_face_create(blob, 0)
        defer { hb_face_destroy(face) }
        guard hb_face_get_glyph_count(face) > 0 else {
            throw FontError(path: fontPath, reason: "the font has no glyphs")
        }
        guard let font = hb_font_create(face), let buffer = hb_buffer_create(),
              hb_buffer_allocation_successful(buffer) != 0 else {
            throw FontError(path: fontPath, reason: "HarfBuzz ran out of memory")
        }
        hb_ot_font_set_funcs(font)
        self.font = font
        self.buffer = buffer
    }

    deinit {
        hb_buffer_destroy(buffer)
        hb_font_destroy(font)
    }

    public func shape(_ text: String, pixelSize: Int) -> ShapedText {
        shape(text, item: nil, direction: nil, pixelSize: pixelSize)
    }

    public func shape(_ text: String, run: BidiRun, pixelSize: Int) -> ShapedText {
        shape(text, item: run.utf8Range, direction: run.direction, pixelSize: pixelSize)
    }

    /// `item` nil: all of `text`. `direction` nil: guessed from the text.
    private func shape(_ text: String, item: Range<Int>?, direction wanted: ShapedText.Direction?, pixelSize: Int) -> ShapedText {
        // Positions come back in 1/64 pixel (26.6) at this scale: sub-pixel precision for the layout.
        let scale = Int32(clamping: max(1, pixelSize) * 64)
        hb_font_set_scale(font, scale, scale)
        hb_buffer_clear_contents(buffer)
        var utf8 = text
        utf8.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                let item = item ?? 0..<chars.count
                hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), UInt32(item.lowerBound), Int32(item.count))
            }
        }
        if let wanted { hb_buffer_set_direction(buffer, wanted == .rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR) }
        // Script and language (and direction, unless set) from the text itself: Arabic and Hebrew
        // come out right-to-left.
        hb_buffer_guess_segment_properties(buffer)
        let direction: ShapedText.Direction = hb_buffer_get_direction(buffer) == HB_DIRECTION_RTL ? .rightToLeft : .leftToRight
        hb_shape(font, buffer, nil, 0)

        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, nil)
        var glyphs: [ShapedText.Glyph] = []
        glyphs.reserveCapacity(Int(count))
        if let infos, let positions {
            // hb_shape leaves the glyphs in visual order (reversed for right-to-left runs).
            for index in 0..<Int(count) {
                let info = infos[index], position = positions[index]
                glyphs.append(ShapedText.Glyph(id: info.codepoint, cluster: Int(info.cluster),
                                               xAdvance: Double(position.x_advance) / 64,
                                               xOffset: Double(position.x_offset) / 64,
                                               yOffset: -Double(position.y_offset) / 64))
            }
        }
        return ShapedText(glyphs: glyphs, direction: direction, pixelSize: pixelSize, metrics: metrics())
    }

    /// The font's horizontal-layout extents at the current scale, converted from 26.6 and y-up.
    private func metrics() -> FontMetrics {
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        let ascender = Double(extents.ascender) / 64
        let descender = -Double(extents.descender) / 64
        return FontMetrics(ascender: ascender, descender: descender,
                           lineHeight: ascender + descender + Double(extents.line_gap) / 64)
    }
}
