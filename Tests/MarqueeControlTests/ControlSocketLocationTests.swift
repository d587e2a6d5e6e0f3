import Testing
@testable import MarqueeControl

@Suite struct ControlSocketLocationTests {
    @Test func systemdsRuntimeDirectoryComesFirst() {
        let path = ControlSocketLocation.defaultPath(environment: ["RUNTIME_DIRECTORY": "/run/marquee", "XDG_RUNTIME_DIR": "/run/user/1000"],
                                                     isWritableFolder: { _ in false })
        #expect(path == "/run/marquee/control.sock")
    }

    @Test func runMarqueeWhenWritableElseTheUsersRuntimeFolder() {
        #expect(ControlSocketLocation.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], isWritableFolder: { $0 == "/run/marquee" })
                == "/run/marquee/control.sock")
        #expect(ControlSocketLocation.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], isWritableFolder: { _ in false })
                == "/run/user/1000/marquee.sock")
        #expect(ControlSocketLocation.defaultPath(environment: [:], isWritableFolder: { _ in false }) == nil)
    }

    @Test func ctlFindsASocketInRunMarqueeItCannotWriteTo() {
        #expect(ControlSocketLocation.clientPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], exists: { $0 == "/run/marquee/control.sock" })
                == "/run/marquee/control.sock")
        #expect(ControlSocketLocation.clientPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], exists: { _ in false })
                == "/run/user/1000/marquee.sock")
        #expect(ControlSocketLocation.clientPath(environment: [:], exists: { _ in false }) == "/run/marquee/control.sock")
    }
}
