import Foundation
import MarqueeCore
import MarqueeCurl
import MarqueeTestSupport
import Testing

/// HTTPS against `openssl s_server` with a CA made for the test: trusted through `caFile`, refused
/// without it (verification is never off).
@Suite struct TLSTests {
    @Test func theCAFileMakesThePrivateServerTrusted() throws {
        let body = CurlFixture.payload(3_000)
        let server = try TLSFileServer(files: ["config.json": body])
        defer { server.stop() }
        var request = CurlFixture.request(server.url("/config.json"))
        request.security.caFile = server.caFile
        let response = try CurlHTTPClient().fetch(request, maxBytes: 10_000)
        #expect(response.head.status == 200)
        #expect(response.body == body)
    }

    @Test func withoutTheCAFileTheCertificateIsRefused() throws {
        let server = try TLSFileServer(files: ["config.json": Data("{}".utf8)])
        defer { server.stop() }
        let error = CurlFixture.failure { () throws(HTTPTransferError) in
            try CurlHTTPClient().fetch(CurlFixture.request(server.url("/config.json")), maxBytes: 10_000)
        }
        guard case .network(let reason) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(reason.lowercased().contains("certificate"), "\(reason)")
    }
}
