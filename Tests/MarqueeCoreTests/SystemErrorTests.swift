import Glibc
import MarqueeCore
import Testing

/// Every backend's errno failures read the same way in logs and `marquee probe`.
@Suite struct SystemErrorTests {
    @Test func aCallOnAPathNamesBothThenStrerrorAndTheNumber() {
        let error = SystemError(code: EACCES, operation: "open", path: "/dev/dri/card0")
        #expect(error.description == "open /dev/dri/card0: Permission denied (errno 13)")
        #expect(error.message == "Permission denied")
    }

    @Test func aCallWithoutAPathNamesTheCallAlone() {
        let error = SystemError(code: EBUSY, operation: "drmModeSetCrtc(crtc 38)")
        #expect(error.description == "drmModeSetCrtc(crtc 38): Device or resource busy (errno 16)")
        #expect(error.path == nil)
    }
}
