@testable import MarqueeDRM
import Testing

/// Two screens on one card must never drive the same CRTC; a screen made again for its connector
/// (after an unplug) takes over its predecessor's.
@Suite struct CrtcClaimsTests {
    final class Screen {}

    @Test func aClaimedCrtcIsTakenForAnotherConnectorOnly() {
        let claims = DRMCrtcClaims()
        let left = Screen()
        claims.claim(40, for: 1, by: left)
        #expect(!claims.isAvailable(40, for: 2), "the other screen must choose another CRTC")
        #expect(claims.isAvailable(40, for: 1), "the same connector's next screen may take it over")
        #expect(claims.isAvailable(41, for: 2))
    }

    @Test func releasingLeavesASuccessorsClaim() {
        let claims = DRMCrtcClaims()
        let first = Screen(), replacement = Screen()
        claims.claim(40, for: 1, by: first)
        claims.claim(40, for: 1, by: replacement)
        // The first screen goes away after its replacement took the CRTC over.
        claims.release(by: first)
        #expect(!claims.isAvailable(40, for: 2))
        claims.release(by: replacement)
        #expect(claims.isAvailable(40, for: 2))
    }
}
