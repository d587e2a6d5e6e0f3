import CFriBidi
import MarqueeCore

/// Embedding levels from GNU FriBidi. FriBidi's functions keep no state, so there is no handle to
/// own; the arrays are Swift's.
public final class FriBidiLeveling: BidiLeveling {
    public init() {}

    public func levels(of scalars: [UInt32]) -> BidiLevels? {
        guard !scalars.isEmpty, scalars.count <= Int(Int32.max) else { return nil }
        let count = FriBidiStrIndex(scalars.count)
        var types = [FriBidiCharType](repeating: FriBidiCharType(0), count: scalars.count)
        var brackets = [FriBidiBracketType](repeating: 0, count: scalars.count)
        var levels = [FriBidiLevel](repeating: 0, count: scalars.count)
        var paragraph = marquee_fribidi_paragraph_from_text()
        fribidi_get_bidi_types(scalars, count, &types)
        fribidi_get_bracket_types(scalars, count, types, &brackets)
        // The returned value is the highest level plus one; 0 means FriBidi failed (out of memory).
        guard fribidi_get_par_embedding_levels_ex(types, brackets, count, &paragraph, &levels) > 0 else { return nil }
        // Reordering a line applies rule L1 to the levels (trailing spaces take the paragraph's
        // level); the visual order itself is left to Core, which reorders runs, not characters.
        guard fribidi_reorder_line(0, types, count, 0, paragraph, &levels, nil, nil) > 0 else { return nil }
        return BidiLevels(levels: levels.map { UInt8(bitPattern: $0) },
                          paragraph: marquee_fribidi_paragraph_is_rtl(paragraph) != 0 ? .rightToLeft : .leftToRight)
    }
}
