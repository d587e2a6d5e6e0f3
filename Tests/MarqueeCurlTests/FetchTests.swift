import Foundation
import MarqueeCore
import MarqueeCurl
import MarqueeTestSupport
import Testing

/// `fetch` against the real loopback server: bodies, validators, statuses, limits, credentials.
@Suite struct FetchTests {
    static let etag = "\"v1\""
    static let lastModified = "Wed, 21 Oct 2026 07:28:00 GMT"
    let body = CurlFixture.payload(5_000)
    let fixture: CurlFixture
    var server: LoopbackHTTPServer { fixture.server }

    init() throws {
        fixture = try CurlFixture(routes: [
            "/config.json": .taggedFile(body, contentType: "application/json", etag: Self.etag, lastModified: Self.lastModified),
        ])
    }

    private func fetch(_ request: HTTPRequest, maxBytes: Int = 1 << 20) throws(HTTPTransferError) -> HTTPResponse {
        try fixture.client.fetch(request, maxBytes: maxBytes)
    }

    @Test func a200BringsTheBodyAndItsValidators() throws {
        defer { fixture.stop() }
        let response = try fetch(fixture.request("/config.json"))
        #expect(response.head.status == 200)
        #expect(response.body == body)
        #expect(response.head.etag == Self.etag)
        #expect(response.head.lastModified == Self.lastModified)
        #expect(response.head.contentLength == Int64(body.count))
        #expect(response.head.effectiveURL.absoluteString == server.url("/config.json"))
    }

    @Test func aMatchingETagIsA304NotAnError() throws {
        defer { fixture.stop() }
        var request = fixture.request("/config.json")
        request.ifNoneMatch = Self.etag
        let response = try fetch(request)
        #expect(response.head.isNotModified)
        #expect(response.body.isEmpty)
        #expect(response.head.etag == Self.etag)
    }

    @Test func aMatchingLastModifiedIsA304() throws {
        defer { fixture.stop() }
        var request = fixture.request("/config.json")
        request.ifModifiedSince = Self.lastModified
        #expect(try fetch(request).head.status == 304)
    }

    @Test func aChangedETagBringsTheNewBody() throws {
        defer { fixture.stop() }
        let changed = CurlFixture.payload(6_000, seed: 7)
        server.setRoute("/config.json", .taggedFile(changed, contentType: "application/json", etag: "\"v2\"", lastModified: Self.lastModified))
        var request = fixture.request("/config.json")
        request.ifNoneMatch = Self.etag
        let response = try fetch(request)
        #expect(response.head.status == 200)
        #expect(response.head.etag == "\"v2\"")
        #expect(response.body == changed)
    }

    @Test func a500IsAStatusErrorWorthARetry() {
        defer { fixture.stop() }
        server.setRoute("/broken", .status(500))
        let error = CurlFixture.failure { () throws(HTTPTransferError) in try fetch(fixture.request("/broken")) }
        #expect(error == .status(500))
        #expect(error?.isTransient == true)
        #expect(CurlFixture.failure { () throws(HTTPTransferError) in try fetch(fixture.request("/missing")) } == .status(404))
    }

    @Test func aBodyOverMaxBytesIsTooLarge() {
        defer { fixture.stop() }
        let error = CurlFixture.failure { () throws(HTTPTransferError) in
            try fetch(fixture.request("/config.json"), maxBytes: 1_000)
        }
        #expect(error == .tooLarge(1_000))
        // Without a Content-Length to refuse up front, the count of bytes received stops it.
        server.setRoute("/unannounced", .misannouncedFile(body, contentType: "text/plain", announced: nil))
        let unannounced = CurlFixture.failure { () throws(HTTPTransferError) in
            try fetch(fixture.request("/unannounced"), maxBytes: 1_000)
        }
        #expect(unannounced == .tooLarge(1_000))
    }

    @Test func basicCredentialsAreSentAndA401NeverShowsThePassword() throws {
        defer { fixture.stop() }
        let password = "s3cret-Pa55"
        server.setRoute("/private.json", .basicAuth(user: "kiosk", password: password, route: .file(body, contentType: "application/json")))
        var request = fixture.request("/private.json")
        request.security.credentials = HTTPCredentials(user: "kiosk", password: password)
        #expect(try fetch(request).body == body)

        request.security.credentials = HTTPCredentials(user: "kiosk", password: "wrong-\(password)")
        let error = CurlFixture.failure { () throws(HTTPTransferError) in try fetch(request) }
        #expect(error == .status(401))
        #expect(!String(describing: error).contains(password))
        #expect(!"\(request.security)".contains(password))
    }

    @Test func threeRedirectsAreFollowed() throws {
        defer { fixture.stop() }
        Self.chain(on: server, hops: 3, to: "/config.json")
        let response = try fetch(fixture.request("/hop1"))
        #expect(response.body == body)
        #expect(response.head.etag == Self.etag)
        #expect(response.head.effectiveURL.path == "/config.json")
        #expect(server.requestedPaths == ["/hop1", "/hop2", "/hop3", "/config.json"])
    }

    @Test func sixRedirectsAreRefused() {
        defer { fixture.stop() }
        Self.chain(on: server, hops: 6, to: "/config.json")
        let error = CurlFixture.failure { () throws(HTTPTransferError) in try fetch(fixture.request("/hop1")) }
        #expect(error == .refused("more than 5 redirects"))
        #expect(!server.requestedPaths.contains("/config.json"))
    }

    /// file: is outside libcurl's default redirect protocols anyway; ftp: is inside them, so its
    /// refusal shows the http,https whitelist at work (without it this redirect is followed).
    @Test func aRedirectToFileOrFTPIsRefusedAndNotRead() {
        defer { fixture.stop() }
        for (target, scheme) in [("file:///etc/passwd", "file"), ("ftp://127.0.0.1:\(server.port)/config.json", "ftp")] {
            server.setRoute("/evil", .redirect(to: target))
            let error = CurlFixture.failure { () throws(HTTPTransferError) in try fetch(fixture.request("/evil")) }
            #expect(error == .refused("redirect to \(scheme): refused; only http and https are followed"))
        }
        #expect(server.requestedPaths == ["/evil", "/evil"])
    }

    @Test func aURLThatIsNotHTTPIsRefusedBeforeAnythingHappens() {
        defer { fixture.stop() }
        for url in ["file:///etc/passwd", "ftp://127.0.0.1:\(server.port)/config.json"] {
            let error = CurlFixture.failure { () throws(HTTPTransferError) in try fetch(CurlFixture.request(url)) }
            #expect(error?.isRefused == true, "\(url): \(String(describing: error))")
        }
        #expect(server.requestedPaths.isEmpty)
    }

    /// /hop1 → /hop2 → … → /hopN → `target`.
    static func chain(on server: LoopbackHTTPServer, hops: Int, to target: String) {
        for hop in 1...hops {
            server.setRoute("/hop\(hop)", .redirect(to: hop == hops ? server.url(target) : "/hop\(hop + 1)"))
        }
    }
}
