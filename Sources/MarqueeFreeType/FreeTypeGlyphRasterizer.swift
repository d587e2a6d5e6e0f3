import CFreeType
import MarqueeCore

/// Rasterises glyphs by id with FreeType into 8-bit coverage masks. It opens the font file itself;
/// the ids come from the shaper (HarfBuzz), which opened the same file.
///
/// Owns one FT_Library and the one FT_Face made from it, freed in deinit (face first). Not
/// thread-safe, like FreeType faces: it belongs to the thread that draws the OSD.
public final class FreeTypeGlyphRasterizer: GlyphRasterizing {
    public let fontPath: String
    private let library: OpaquePointer
    private let face: FT_Face
    private var currentPixelSize = 0

    public init(fontPath: String) throws(FontError) {
        self.fontPath = fontPath
        try FontFileCheck.requireReadableNonEmptyFile(at: fontPath)
        var library: OpaquePointer?
        let initStatus = FT_Init_FreeType(&library)
        guard initStatus == 0, let library else {
            throw FontError(path: fontPath, reason: "FreeType could not start (\(Self.describe(initStatus)))")
        }
        var face: FT_Face?
        let openStatus = FT_New_Face(library, fontPath, 0, &face)
        guard openStatus == 0, let face else {
            FT_Done_FreeType(library)
            throw FontError(path: fontPath, reason: Self.describe(openStatus))
        }
        self.library = library
        self.face = face
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    public func rasterize(glyph id: UInt32, pixelSize: Int) throws(FontError) -> GlyphBitmap {
        if pixelSize != currentPixelSize {
            let status = FT_Set_Pixel_Sizes(face, 0, FT_UInt(clamping: max(1, pixelSize)))
            guard status == 0 else {
                throw FontError(path: fontPath, reason: "cannot set a \(pixelSize) px size (\(Self.describe(status)))")
            }
            currentPixelSize = pixelSize
        }
        let status = FT_Load_Glyph(face, id, marquee_ft_load_render() | marquee_ft_load_target_light())
        guard status == 0, let slot = face.pointee.glyph else {
            throw FontError(path: fontPath, reason: "cannot render glyph \(id) at \(pixelSize) px (\(Self.describe(status)))")
        }
        return try coverage(of: slot.pointee, glyph: id)
    }

    /// Copies the slot's bitmap out row by row (its pitch may pad rows) before the next load reuses it.
    private func coverage(of slot: FT_GlyphSlotRec, glyph id: UInt32) throws(FontError) -> GlyphBitmap {
        let bitmap = slot.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, let rows = bitmap.buffer else {
            return GlyphBitmap(width: 0, height: 0, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top), coverage: [])
        }
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else {
            throw FontError(path: fontPath, reason: "glyph \(id) came out in pixel mode \(bitmap.pixel_mode), not 8-bit grey")
        }
        var coverage = [UInt8](repeating: 0, count: width * height)
        coverage.withUnsafeMutableBufferPointer { destination in
            for row in 0..<height {
                // A negative pitch means the rows are stored bottom-up; buffer still points at the top row.
                let source = rows + row * pitch
                (destination.baseAddress! + row * width).update(from: source, count: width)
            }
        }
        return GlyphBitmap(width: width, height: height, left: Int(slot.bitmap_left), top: Int(slot.bitmap_top),
                           coverage: coverage)
    }

    /// FreeType's own words for the errors a font path produces; its error-string table is often
    /// compiled out, so the common ones are spelled here.
    static func describe(_ status: FT_Error) -> String {
        switch status {
        case 0x01: return "cannot open the file"
        case 0x02: return "not a font file (FreeType: unknown file format)"
        case 0x03: return "a broken font file (FreeType: invalid file format)"
        case 0x40: return "FreeType ran out of memory"
        default:
            if let text = FT_Error_String(status) { return "FreeType: \(String(cString: text))" }
            return "FreeType error \(status)"
        }
    }
}
