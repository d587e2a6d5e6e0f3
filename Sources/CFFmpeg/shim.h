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
#include <libavutil/sha.h>
#include <libavutil/cpu.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
// libavfilter's headers only: the library is not linked but opened on first use (MarqueeMedia's
// LibAVFilter), as only the time-stretcher at rates other than 1 needs it, and linking it maps
// about 11 MB of libraries it brings (flite's voices, libplacebo, vulkan, lapack...) into every
// player. These are the types of the functions looked up in it, as its headers declare them.
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/version.h>
typedef __typeof__(&avfilter_graph_alloc) marquee_avfilter_graph_alloc_fn;
typedef __typeof__(&avfilter_graph_free) marquee_avfilter_graph_free_fn;
typedef __typeof__(&avfilter_get_by_name) marquee_avfilter_get_by_name_fn;
typedef __typeof__(&avfilter_graph_create_filter) marquee_avfilter_graph_create_filter_fn;
typedef __typeof__(&avfilter_link) marquee_avfilter_link_fn;
typedef __typeof__(&avfilter_graph_config) marquee_avfilter_graph_config_fn;
typedef __typeof__(&av_buffersrc_add_frame_flags) marquee_av_buffersrc_add_frame_flags_fn;
typedef __typeof__(&av_buffersink_get_frame) marquee_av_buffersink_get_frame_fn;

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

// Added with the media backend: error tags the open-failure classifier tells apart.
static inline int marquee_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int marquee_averror_protocol_not_found(void) { return AVERROR_PROTOCOL_NOT_FOUND; }
static inline int marquee_averror_demuxer_not_found(void) { return AVERROR_DEMUXER_NOT_FOUND; }
static inline int marquee_averror_http_bad_request(void) { return AVERROR_HTTP_BAD_REQUEST; }
static inline int marquee_averror_http_unauthorized(void) { return AVERROR_HTTP_UNAUTHORIZED; }
static inline int marquee_averror_http_forbidden(void) { return AVERROR_HTTP_FORBIDDEN; }
static inline int marquee_averror_http_not_found(void) { return AVERROR_HTTP_NOT_FOUND; }
static inline int marquee_averror_http_other_4xx(void) { return AVERROR_HTTP_OTHER_4XX; }
static inline int marquee_averror_http_server_error(void) { return AVERROR_HTTP_SERVER_ERROR; }
static inline int marquee_av_fourcc_max_string_size(void) { return AV_FOURCC_MAX_STRING_SIZE; }

#endif
