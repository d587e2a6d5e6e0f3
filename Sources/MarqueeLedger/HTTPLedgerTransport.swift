import Foundation
import MarqueeCore

/// `proofOfPlay.upload`: each batch in one POST through the fleet's HTTP client (libcurl); a 2xx
/// is the receiver's acknowledgement, anything else (no connection, a timeout, another status) a failure.
public struct HTTPLedgerTransport: LedgerTransport {
    public static let contentType = "application/x-ndjson"

    private let url: URL
    private let security: HTTPSecurity
    /// A request that moves nothing for this long is abandoned (a receiver that accepted and hangs).
    private let timeout: Duration
    private let client: any HTTPTransferring

    public init(url: URL, security: HTTPSecurity = HTTPSecurity(), timeout: Duration = .seconds(30), client: any HTTPTransferring) {
        self.url = url
        self.security = security
        self.timeout = timeout
        self.client = client
    }

    public var destination: String { CredentialRedaction.redacted(url.absoluteString) }
    public var cursorFile: String { UploadCursor.fileName }

    public func deliver(_ body: [UInt8]) throws(LedgerDeliveryError) {
        var request = HTTPRequest(url: url, security: security)
        request.body = body
        request.contentType = Self.contentType
        request.stallTimeout = timeout
        request.connectTimeout = timeout
        do throws(HTTPTransferError) {
            _ = try client.fetch(request, maxBytes: 64 << 10)
        } catch {
            throw .failed("\(error)")
        }
    }
}
