#ifndef MARQUEE_CHARFBUZZ_SHIM_H
#define MARQUEE_CHARFBUZZ_SHIM_H

// HarfBuzz's own OpenType font functions only: the text backend reads the font file through
// HarfBuzz and never through FreeType (hb-ft.h would tie the two C libraries together).
#include <hb.h>
#include <hb-ot.h>

#endif
