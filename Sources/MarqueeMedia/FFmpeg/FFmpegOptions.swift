import CFFmpeg

/// Owns one `AVDictionary` of options handed to an FFmpeg open call. FFmpeg consumes the entries it
/// recognises and leaves the rest in the dictionary, which this owner frees with it.
final class FFmpegOptions {
    /// The dictionary itself; `nil` while empty, as FFmpeg expects. Lent to calls with `withPointer`.
    private var dictionary: OpaquePointer?

    init() {}

    deinit {
        av_dict_free(&dictionary)
    }

    func set(_ key: String, _ value: String) throws(FFmpegError) {
        try checked(av_dict_set(&dictionary, key, value, 0), "av_dict_set(\(key))")
    }

    /// Lends the dictionary to an FFmpeg call that may consume or replace it; the pointer must not
    /// outlive `body`.
    func withPointer<T>(_ body: (UnsafeMutablePointer<OpaquePointer?>) -> T) -> T {
        body(&dictionary)
    }
}
