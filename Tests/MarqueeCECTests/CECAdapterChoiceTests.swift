import Testing
@testable import MarqueeCEC

/// `display.cec: auto`: the adapter whose connector info names the DRM card and connector the
/// picture is on; otherwise one line naming what was found.
@Suite struct CECAdapterChoiceTests {
    static let hdmi = CECDRMConnector(cardNumber: 0, connectorID: 35)

    static func adapter(_ number: Int, _ connector: CECConnector, driver: String = "vc4_hdmi", canTransmit: Bool = true) -> CECAdapterFacts {
        CECAdapterFacts(path: "/dev/cec\(number)", driver: driver, name: driver, canTransmit: canTransmit,
                        physicalAddress: CECPhysicalAddress(rawValue: 0x1000), connector: connector)
    }

    @Test func theAdapterBoundToTheShownConnectorIsChosen() {
        let adapters = [Self.adapter(0, .drm(CECDRMConnector(cardNumber: 0, connectorID: 32))), Self.adapter(1, .drm(Self.hdmi))]
        #expect(CECAdapterChoice.choose(among: adapters, showing: Self.hdmi) == .adapter(path: "/dev/cec1"))
    }

    @Test func theSameConnectorIdOnAnotherCardIsNotIt() {
        let adapters = [Self.adapter(0, .drm(CECDRMConnector(cardNumber: 1, connectorID: 35)))]
        guard case .noneBound = CECAdapterChoice.choose(among: adapters, showing: Self.hdmi) else {
            Issue.record("card1's connector 35 was taken for card0's")
            return
        }
    }

    @Test func noAdaptersIsNothingToSay() {
        #expect(CECAdapterChoice.choose(among: [], showing: Self.hdmi) == .noAdapters)
    }

    /// vivid (and USB adapters) report no connector: one line lists them and says what to set.
    @Test func adaptersWithoutConnectorInfoGiveOneLineNamingThem() {
        let adapters = [
            CECAdapterFacts(path: "/dev/cec0", driver: "vivid", name: "vivid-000-vid-cap0"),
            CECAdapterFacts(path: "/dev/cec1", driver: "vivid", name: "vivid-000-vid-out0"),
        ]
        let choice = CECAdapterChoice.choose(among: adapters, showing: Self.hdmi, connectorName: "Virtual-1")
        #expect(choice == .noneBound(message: "cec: found /dev/cec0 (vivid-000-vid-cap0, connector not reported by the driver), "
            + "/dev/cec1 (vivid-000-vid-out0, connector not reported by the driver); none is bound to card0 connector 35 "
            + "(Virtual-1), the connector the picture is on: set display.cec: /dev/cecN to use one; no HDMI-CEC"))
    }

    @Test func oneAdapterElsewhereIsNamedInTheSingular() {
        let choice = CECAdapterChoice.choose(among: [Self.adapter(0, .none)], showing: Self.hdmi)
        guard case .noneBound(let message) = choice else {
            Issue.record("\(choice)")
            return
        }
        #expect(message.contains("found /dev/cec0 (vc4_hdmi, connector none); it is not bound to card0 connector 35,"), "\(message)")
    }

    /// A monitor-only adapter on the connector cannot send: it is not chosen.
    @Test func anAdapterThatCannotTransmitIsNotChosen() {
        let choice = CECAdapterChoice.choose(among: [Self.adapter(0, .drm(Self.hdmi), canTransmit: false)], showing: Self.hdmi)
        #expect(choice != .adapter(path: "/dev/cec0"))
    }

    @Test func theCardNumberIsReadFromTheNodeName() {
        #expect(CECDRMConnector.cardNumber(ofDevicePath: "/dev/dri/card0") == 0)
        #expect(CECDRMConnector.cardNumber(ofDevicePath: "/dev/dri/card12") == 12)
        #expect(CECDRMConnector.cardNumber(ofDevicePath: "/dev/dri/renderD128") == nil)
        #expect(CECDRMConnector.cardNumber(ofDevicePath: "/dev/dri/by-path/pci-0000:00:02.0-card") == nil)
        #expect(CECDRMConnector.cardNumber(ofDevicePath: "/dev/dri/card") == nil)
        #expect(CECDRMConnector.cardNumber(ofDevicePath: "/dev/dri/card1x") == nil)
    }

    @Test func adapterNodesAreFoundByNameInNumberOrder() {
        #expect(CECInventory.adapterNumber(ofNodeName: "cec0") == 0)
        #expect(CECInventory.adapterNumber(ofNodeName: "cec10") == 10)
        #expect(CECInventory.adapterNumber(ofNodeName: "cec") == nil)
        #expect(CECInventory.adapterNumber(ofNodeName: "cecx") == nil)
        #expect(CECInventory.adapterNumber(ofNodeName: "card0") == nil)
    }
}
