#ifndef MARQUEE_CFFMPEG_SHIM_H
#define MARQUEE_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/display.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

// Swift cannot import function-like or cast-bearing macros; these wrappers carry them over.

static inline int marquee_averror(int posixError) { return AVERROR(posixError); }
static inline int marquee_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int marquee_averror_eof(void) { return AVERROR_EOF; }
static inline int marquee_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int marquee_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int marquee_averror_exit(void) { return AVERROR_EXIT; }
static inline int64_t marquee_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational marquee_av_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int marquee_av_error_max_string_size(void) { return AV_ERROR_MAX_STRING_SIZE; }

#endif
