#ifndef MARQUEE_CFRIBIDI_SHIM_H
#define MARQUEE_CFRIBIDI_SHIM_H

// GNU FriBidi: the Unicode Bidirectional Algorithm (UAX #9) that Pango and libraqm run before
// HarfBuzz. Marquee asks it only for embedding levels; shaping stays HarfBuzz's.
#include <fribidi.h>

// The paragraph-type macros are built from bit masks Swift does not import.
static inline FriBidiParType marquee_fribidi_paragraph_from_text(void) { return FRIBIDI_PAR_ON; }
static inline int marquee_fribidi_paragraph_is_rtl(FriBidiParType type) { return FRIBIDI_IS_RTL(type) ? 1 : 0; }

#endif
