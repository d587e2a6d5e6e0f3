import CCurl

/// `curl_global_init` is not thread-safe and must have run before the first easy handle. A static
/// `let` is initialised exactly once, under the runtime's once-guard, by whichever thread gets here
/// first; every later transfer only reads the result. libcurl is never globally cleaned up: the
/// player uses it until the process ends.
enum CurlGlobal {
    static let isInitialised: Bool = curl_global_init(marquee_curl_global_default()) == CURLE_OK
}
