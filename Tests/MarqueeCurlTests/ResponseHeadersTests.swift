import Testing
@testable import MarqueeCurl

/// The head reported is the final response's, whatever blocks came before it.
@Suite struct ResponseHeadersTests {
    @Test func aNewStatusLineForgetsTheBlockBefore() {
        var headers = ResponseHeaders()
        for line in ["HTTP/1.1 302 Found\r\n", "ETag: \"hop\"\r\n", "Content-Length: 0\r\n", "Location: /b\r\n", "\r\n",
                     "HTTP/1.1 100 Continue\r\n", "\r\n",
                     "HTTP/1.1 206 Partial Content\r\n", "content-range: bytes 100-199/200\r\n", "Content-Length: 100\r\n",
                     "Last-Modified: Mon, 02 Nov 2026 10:00:00 GMT\r\n", "\r\n"] {
            headers.take(line: line)
        }
        #expect(headers.status == 206)
        #expect(headers.etag == nil)
        #expect(headers.location == nil)
        #expect(headers.contentLength == 100)
        #expect(headers.rangeStart == 100)
        #expect(headers.lastModified == "Mon, 02 Nov 2026 10:00:00 GMT")
    }

    @Test func anHTTP2StatusLineIsRead() {
        var headers = ResponseHeaders()
        headers.take(line: "HTTP/2 304\r\n")
        #expect(headers.status == 304)
    }
}
