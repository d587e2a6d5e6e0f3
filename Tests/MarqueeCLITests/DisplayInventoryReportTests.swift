import Foundation
import MarqueeCore
import Testing
@testable import MarqueeDRM
@testable import marquee

/// The display part of `marquee probe --json` holds what the text listing shows, for a card read
/// and for one that could not be.
@Suite struct DisplayInventoryReportTests {
    static let card = DisplayCardInfo(
        path: "/dev/dri/card0", driver: "bochs-drm",
        connectors: [.init(id: 35, name: "Virtual-1", isConnected: true,
                           modes: [DisplayMode(size: PixelSize(width: 1280, height: 800), refreshRate: 74.99, isPreferred: true),
                                   DisplayMode(size: PixelSize(width: 1024, height: 768), refreshRate: 60)]),
                     .init(id: 36, name: "Virtual-2", isConnected: false, modes: [])],
        crtcIDs: [34, 37], activeCrtcIDs: [34],
        planes: [.init(id: 31, kind: "primary", formats: ["XR24", "XB24"], properties: ["rotation", "type"],
                       rotations: ["rotate-0", "rotate-90"], scalingFilters: ["Default"])])

    @Test func aCardIsListedWithEverythingTheTextShows() throws {
        let json = ProbeCommand.serialised(DisplayInventoryReport.object([.success(Self.card)]))

        #expect(json == #"{"cards":[{"activeCrtcs":[34],"connectors":[{"id":35,"modes":["1280x800@74.99","1024x768@60"],"name":"Virtual-1","#
            + #""preferredMode":"1280x800@74.99","status":"connected"},{"id":36,"modes":[],"name":"Virtual-2","preferredMode":null,"#
            + #""status":"disconnected"}],"crtcs":[34,37],"driver":"bochs-drm","path":"/dev/dri/card0","planes":[{"formats":["XR24","XB24"],"#
            + #""id":31,"properties":["rotation","type"],"rotations":["rotate-0","rotate-90"],"scalingFilters":["Default"],"type":"primary"}]}]}"#)
    }

    /// displayOff leaves the CRTC listed but inactive: the operator sees the screen is off by intent.
    @Test func theTextSaysWhichCRTCsAreActive() {
        let text = DisplayInventoryReport.text([.success(Self.card)])
        #expect(text.contains("\n  crtc 34  active\n  crtc 37  inactive\n"), "\(text)")
    }

    @Test func aCardThatCannotBeOpenedIsListedWithItsError() throws {
        let error = SystemError(code: EACCES, operation: "open", path: "/dev/dri/card1")

        let json = ProbeCommand.serialised(DisplayInventoryReport.object([.failure(error)]))

        #expect(json == #"{"cards":[{"error":"open /dev/dri/card1: Permission denied (errno 13)"}]}"#)
    }

    @Test func noCardsIsAnEmptyList() {
        #expect(ProbeCommand.serialised(DisplayInventoryReport.object([])) == #"{"cards":[]}"#)
    }
}
