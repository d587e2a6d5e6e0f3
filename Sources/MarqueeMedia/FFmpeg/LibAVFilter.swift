import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// libavfilter, opened the first time a filter graph is built rather than linked.
///
/// Only `AudioTempoFilter` uses it (a rate other than 1), and a player that never changes rate
/// should not carry it: linked, it and the libraries it alone brings in (Debian's build pulls in
/// flite's voices, libplacebo, vulkan, lapack, rubberband...) took 11 MB of a 1080p player's
/// resident memory (issue 27: 9 MB of their pages, 1.9 MB of its own), about a twelfth of it.
/// Opening it later costs the first rate change a few milliseconds, once per process.
///
/// The functions are looked up by name and called through pointers of the types the headers
/// declare (`shim.h`), so a call is checked as a linked one would be.
struct LibAVFilter: @unchecked Sendable {
    // @unchecked: C function pointers into a library never closed, set once.
    let graphAlloc: marquee_avfilter_graph_alloc_fn
    let graphFree: marquee_avfilter_graph_free_fn
    let getByName: marquee_avfilter_get_by_name_fn
    let graphCreateFilter: marquee_avfilter_graph_create_filter_fn
    let link: marquee_avfilter_link_fn
    let graphConfig: marquee_avfilter_graph_config_fn
    let buffersrcAddFrameFlags: marquee_av_buffersrc_add_frame_flags_fn
    let buffersinkGetFrame: marquee_av_buffersink_get_frame_fn

    /// The soname of the libavfilter these headers are of: the one linking would have recorded.
    static let fileName = "libavfilter.so.\(LIBAVFILTER_VERSION_MAJOR)"

    /// The library, or why it could not be opened; opened once, by whoever asks first (a `static
    /// let` initialises exactly once, thread-safely), and never closed.
    static let shared: Result<LibAVFilter, FFmpegError> = load()

    /// Whether the library has been opened in this process: it is only opened when asked for.
    static var isLoaded: Bool {
        dlopen(fileName, RTLD_NOW | RTLD_NOLOAD).map { handle in
            dlclose(handle)  // RTLD_NOLOAD took a reference of its own
            return true
        } ?? false
    }

    static func get() throws(FFmpegError) -> LibAVFilter {
        try shared.get()
    }

    private static func load() -> Result<LibAVFilter, FFmpegError> {
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(failure("dlopen(\(fileName))"))
        }
        func symbol<Function>(_ name: String, _ type: Function.Type) throws(FFmpegError) -> Function {
            guard let address = dlsym(handle, name) else { throw failure("dlsym(\(fileName), \(name))") }
            return unsafeBitCast(address, to: type)
        }
        do throws(FFmpegError) {
            return .success(LibAVFilter(
                graphAlloc: try symbol("avfilter_graph_alloc", marquee_avfilter_graph_alloc_fn.self),
                graphFree: try symbol("avfilter_graph_free", marquee_avfilter_graph_free_fn.self),
                getByName: try symbol("avfilter_get_by_name", marquee_avfilter_get_by_name_fn.self),
                graphCreateFilter: try symbol("avfilter_graph_create_filter", marquee_avfilter_graph_create_filter_fn.self),
                link: try symbol("avfilter_link", marquee_avfilter_link_fn.self),
                graphConfig: try symbol("avfilter_graph_config", marquee_avfilter_graph_config_fn.self),
                buffersrcAddFrameFlags: try symbol("av_buffersrc_add_frame_flags", marquee_av_buffersrc_add_frame_flags_fn.self),
                buffersinkGetFrame: try symbol("av_buffersink_get_frame", marquee_av_buffersink_get_frame_fn.self)))
        } catch {
            return .failure(error)
        }
    }

    /// dlerror's reason, as an error no FFmpeg call returned: ENOSYS, "function not implemented".
    private static func failure(_ operation: String) -> FFmpegError {
        let reason = dlerror().map { String(cString: $0) } ?? "unknown reason"
        return FFmpegError(code: marquee_averror(ENOSYS), operation: "\(operation): \(reason)")
    }
}
