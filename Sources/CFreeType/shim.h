#ifndef MARQUEE_CFREETYPE_SHIM_H
#define MARQUEE_CFREETYPE_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H

// FT_LOAD_TARGET_* are function-like macros Swift cannot import, and FT_LOAD_* come in as `long`;
// these hand them over as the FT_Int32 that FT_Load_Glyph takes.
static inline FT_Int32 marquee_ft_load_render(void) { return FT_LOAD_RENDER; }
// Light hinting snaps only vertically, so rasterised glyphs keep the unhinted advances that
// HarfBuzz lays the line out with.
static inline FT_Int32 marquee_ft_load_target_light(void) { return FT_LOAD_TARGET_LIGHT; }

#endif
