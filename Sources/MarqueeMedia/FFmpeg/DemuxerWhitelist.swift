/// The demuxers Marquee lets FFmpeg use, for local files and URLs alike: real audio, video and image
/// containers.
///
/// FFmpeg will read almost anything as *something*: a text file as `tty` (seconds of rendered ANSI
/// "video"), random bytes named `.bin` as a 1280x10000 `bintext` picture, subtitles, raw PCM. A
/// signage screen must show none of that, so `avformat_open_input` gets this list as the context's
/// `format_whitelist`, which nested opens (HLS segments) inherit. A demuxer FFmpeg picks that is not
/// here fails the open with "Format not on whitelist", reported as `not a media file`.
///
/// The README's "Accepted formats" lists the same names; keep them together.
enum DemuxerWhitelist {
    /// FFmpeg's demuxer short names. A demuxer with several names (`mov,mp4,m4a,3gp,3g2,mj2`) is
    /// accepted when any one of them is listed (av_match_list).
    static let names: [String] = videoContainers + audioFormats + imageFormats + streaming

    static let videoContainers = [
        "mov",  // mov,mp4,m4a,3gp,3g2,mj2
        "matroska",  // matroska,webm
        "mpegts", "mpeg", "avi", "flv", "asf", "ogg", "nut", "ivf", "mxf",
    ]

    static let audioFormats = ["wav", "w64", "aiff", "caf", "mp3", "aac", "ac3", "eac3", "flac", "wv"]

    /// `image2` takes image files by their extension; the `_pipe` demuxers take them by content.
    static let imageFormats = [
        "image2", "png_pipe", "apng", "jpeg_pipe", "gif", "gif_pipe", "webp_pipe", "bmp_pipe", "tiff_pipe",
    ]

    static let streaming = ["hls"]

    /// The comma-separated form FFmpeg's `format_whitelist` option takes.
    static var optionValue: String { names.joined(separator: ",") }
}
