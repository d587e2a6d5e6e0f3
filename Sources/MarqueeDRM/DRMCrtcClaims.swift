import Foundation

/// Which screen drives which CRTC of one card. A CRTC feeds one connector: two screens choosing
/// alone would both take the first CRTC their encoders allow. A screen made again for the same
/// connector (after an unplug) may take over its predecessor's CRTC.
final class DRMCrtcClaims: @unchecked Sendable {
    private struct Claim {
        let connectorID: UInt32
        let owner: ObjectIdentifier
    }

    private let lock = NSLock()
    private var claims: [UInt32: Claim] = [:]

    /// Free, or held for the same connector.
    func isAvailable(_ crtcID: UInt32, for connectorID: UInt32) -> Bool {
        lock.withLock { claims[crtcID].map { $0.connectorID == connectorID } ?? true }
    }

    func claim(_ crtcID: UInt32, for connectorID: UInt32, by owner: AnyObject) {
        lock.withLock { claims[crtcID] = Claim(connectorID: connectorID, owner: ObjectIdentifier(owner)) }
    }

    /// Only the claim `owner` holds: a successor's claim on the same CRTC stays.
    func release(by owner: AnyObject) {
        lock.withLock { claims = claims.filter { $0.value.owner != ObjectIdentifier(owner) } }
    }
}
