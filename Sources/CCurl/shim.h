#ifndef MARQUEE_CCURL_SHIM_H
#define MARQUEE_CCURL_SHIM_H

#include <errno.h>
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic macros over variadic functions, which Swift
// cannot call: one typed wrapper per argument type the backend passes.

static inline CURLcode marquee_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// libcurl copies strings it is given (since 7.17), so a Swift temporary C string is enough.
static inline CURLcode marquee_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/// Userdata, the error buffer, a header list: these must outlive the transfer.
static inline CURLcode marquee_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode marquee_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature.
typedef size_t (*marquee_curl_data_callback)(char *data, size_t size, size_t count, void *userdata);

static inline CURLcode marquee_curl_setopt_data_callback(CURL *handle, CURLoption option,
                                                         marquee_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

typedef int (*marquee_curl_xferinfo_callback)(void *userdata, curl_off_t downloadTotal, curl_off_t downloadNow,
                                              curl_off_t uploadTotal, curl_off_t uploadNow);

static inline CURLcode marquee_curl_setopt_xferinfo_callback(CURL *handle, marquee_curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode marquee_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode marquee_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// The string stays owned by the handle: copy it before the handle is cleaned up.
static inline CURLcode marquee_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

// Macros with casts and shifts, which Swift does not import.
static inline long marquee_curl_global_default(void) { return CURL_GLOBAL_DEFAULT; }
static inline long marquee_curlauth_basic(void) { return (long)CURLAUTH_BASIC; }
static inline long marquee_curl_error_size(void) { return CURL_ERROR_SIZE; }

// errno is a macro over a thread-local; read it right after the call that set it, on the same thread.
static inline int marquee_curl_errno(void) { return errno; }

#endif
