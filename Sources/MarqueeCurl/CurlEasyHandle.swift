import CCurl
import Foundation
import MarqueeCore

/// The one owner of a libcurl easy handle (`CURL *`), of the header list it was given and of its
/// error buffer: all three live exactly as long as this object and are freed in `deinit`, whether
/// the transfer succeeded, failed or was never started. One per transfer, used on one thread, so
/// it is not Sendable. The typed `set` overloads stand in for variadic `curl_easy_setopt`.
final class CurlEasyHandle {
    private let handle: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    /// Where libcurl writes the detail of a failure (CURLOPT_ERRORBUFFER); must outlive `perform`.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let errorBufferSize = Int(marquee_curl_error_size())

    init() throws(HTTPTransferError) {
        guard CurlGlobal.isInitialised else { throw .network("libcurl could not be initialised") }
        guard let handle = curl_easy_init() else { throw .network("libcurl could not create a transfer") }
        self.handle = handle
        errorBuffer = .allocate(capacity: errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: errorBufferSize)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    deinit {
        curl_easy_cleanup(handle)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    // An option libcurl refuses (an old libcurl without CURLOPT_PROTOCOLS_STR, say) stops the
    // transfer before it starts: going on without the scheme whitelist or TLS checks is not an option.

    func set(_ option: CURLoption, _ value: Int) throws(HTTPTransferError) {
        try check(marquee_curl_setopt_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, _ value: String) throws(HTTPTransferError) {
        try check(value.withCString { marquee_curl_setopt_string(handle, option, $0) }, option)
    }

    func set(_ option: CURLoption, offset: Int64) throws(HTTPTransferError) {
        try check(marquee_curl_setopt_off_t(handle, option, curl_off_t(offset)), option)
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws(HTTPTransferError) {
        try check(marquee_curl_setopt_pointer(handle, option, pointer), option)
    }

    func set(_ option: CURLoption, callback: marquee_curl_data_callback) throws(HTTPTransferError) {
        try check(marquee_curl_setopt_data_callback(handle, option, callback), option)
    }

    func setProgress(_ callback: marquee_curl_xferinfo_callback) throws(HTTPTransferError) {
        try check(marquee_curl_setopt_xferinfo_callback(handle, callback), CURLOPT_XFERINFOFUNCTION)
    }

    /// Extra request headers (`Name: value`), sent as one list set once all are added.
    func setHeaders(_ lines: [String]) throws(HTTPTransferError) {
        guard !lines.isEmpty else { return }
        for line in lines {
            guard let appended = curl_slist_append(headerList, line) else { throw .network("out of memory for request headers") }
            headerList = appended
        }
        try set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(headerList))
    }

    /// Runs the transfer to its end on the calling thread.
    func perform() -> CURLcode {
        curl_easy_perform(handle)
    }

    func long(_ info: CURLINFO) -> Int? {
        var value = 0
        return marquee_curl_getinfo_long(handle, info, &value) == CURLE_OK ? value : nil
    }

    func offset(_ info: CURLINFO) -> Int64? {
        var value: curl_off_t = 0
        return marquee_curl_getinfo_off_t(handle, info, &value) == CURLE_OK ? Int64(value) : nil
    }

    /// Copied out: the handle owns the C string.
    func string(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard marquee_curl_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// The first line of the error buffer, or libcurl's generic text for `code` when it is empty.
    func failureText(_ code: CURLcode) -> String {
        let detail = String(cString: errorBuffer)
            .split(whereSeparator: \.isNewline).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces) ?? ""
        return detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPTransferError) {
        guard code == CURLE_OK else {
            throw .refused("libcurl refused option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))")
        }
    }
}
