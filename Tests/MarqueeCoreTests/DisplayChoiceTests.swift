import MarqueeCore
import Testing

@Suite struct DisplayModeChoiceTests {
    // A typical TV: 1080p at 60 (preferred) and 59.94 and 50, 720p at 60, 1024x768 at 75.
    static let tv = [
        DisplayMode(size: PixelSize(width: 1920, height: 1080), refreshRate: 60, isPreferred: true),
        DisplayMode(size: PixelSize(width: 1920, height: 1080), refreshRate: 59.94),
        DisplayMode(size: PixelSize(width: 1920, height: 1080), refreshRate: 50),
        DisplayMode(size: PixelSize(width: 1280, height: 720), refreshRate: 60),
        DisplayMode(size: PixelSize(width: 1024, height: 768), refreshRate: 75.03),
    ]

    private func index(_ request: DisplayModeRequest, _ modes: [DisplayMode] = tv) -> Int? {
        try? DisplayModeChoice.choose(request, from: modes).get().index
    }

    @Test func preferredTakesTheFlaggedMode() {
        var modes = Self.tv
        modes.swapAt(0, 3)
        #expect(index(.preferred, modes) == 3)
    }

    @Test func preferredWithoutAFlagTakesTheFirstListed() {
        let modes = Self.tv.map { DisplayMode(size: $0.size, refreshRate: $0.refreshRate) }
        let choice = try? DisplayModeChoice.choose(.preferred, from: modes).get()
        #expect(choice?.index == 0)
        #expect(choice?.reason.contains("first") == true)
    }

    @Test func sizeWithoutRateTakesTheHighestRate() {
        #expect(index(.size(PixelSize(width: 1920, height: 1080), refreshRate: nil)) == 0)
        #expect(index(.size(PixelSize(width: 1280, height: 720), refreshRate: nil)) == 3)
    }

    @Test func equalRatesPreferTheFlaggedThenTheEarlierMode() {
        let a = DisplayMode(size: PixelSize(width: 800, height: 600), refreshRate: 60)
        let b = DisplayMode(size: PixelSize(width: 800, height: 600), refreshRate: 60, isPreferred: true)
        #expect(index(.size(PixelSize(width: 800, height: 600), refreshRate: nil), [a, b]) == 1)
        #expect(index(.size(PixelSize(width: 800, height: 600), refreshRate: nil), [a, a]) == 0)
        #expect(index(.size(PixelSize(width: 800, height: 600), refreshRate: 60), [a, b]) == 1)
    }

    @Test func rateMatchesTheNearestOfferedRate() {
        let size = PixelSize(width: 1920, height: 1080)
        #expect(index(.size(size, refreshRate: 59.94)) == 1)
        #expect(index(.size(size, refreshRate: 60)) == 0)
        #expect(index(.size(size, refreshRate: 50)) == 2)
        #expect(index(.size(size, refreshRate: 50.4)) == 2)
        #expect(index(.size(PixelSize(width: 1024, height: 768), refreshRate: 75)) == 4)
    }

    @Test func aRateFarFromEveryOfferedOneFails() {
        let result = DisplayModeChoice.choose(.size(PixelSize(width: 1920, height: 1080), refreshRate: 30), from: Self.tv)
        guard case .failure(.noSuchRate) = result else {
            Issue.record("expected noSuchRate, got \(result)")
            return
        }
    }

    @Test func anUnofferedSizeFailsAndListsTheOfferedModes() {
        let result = DisplayModeChoice.choose(.size(PixelSize(width: 3840, height: 2160), refreshRate: nil), from: Self.tv)
        guard case .failure(let failure) = result, case .noSuchSize = failure else {
            Issue.record("expected noSuchSize, got \(result)")
            return
        }
        #expect(failure.description.contains("1920x1080@59.94"))
        #expect(failure.description.contains("1024x768@75.03"))
    }

    @Test func noModesFails() {
        #expect(DisplayModeChoice.choose(.preferred, from: []) == .failure(.noModes))
    }
}

@Suite struct ConnectorChoiceTests {
    static let connectors = [
        ConnectorChoice.Candidate(name: "HDMI-A-1", isConnected: false, modeCount: 0),
        ConnectorChoice.Candidate(name: "DP-1", isConnected: true, modeCount: 0),   // connected, no EDID modes
        ConnectorChoice.Candidate(name: "HDMI-A-2", isConnected: true, modeCount: 12),
    ]

    @Test func autoTakesTheFirstConnectedConnectorWithModes() throws {
        #expect(try ConnectorChoice.choose("auto", from: Self.connectors).get().index == 2)
        #expect(try ConnectorChoice.choose("AUTO", from: Self.connectors).get().index == 2)
    }

    @Test func aNameIsMatchedCaseInsensitively() throws {
        #expect(try ConnectorChoice.choose("hdmi-a-2", from: Self.connectors).get().index == 2)
    }

    @Test func failuresSayWhy() {
        #expect(ConnectorChoice.choose("HDMI-A-1", from: Self.connectors) == .failure(.disconnected("HDMI-A-1")))
        #expect(ConnectorChoice.choose("VGA-1", from: Self.connectors)
                == .failure(.unknown("VGA-1", names: ["HDMI-A-1", "DP-1", "HDMI-A-2"])))
        #expect(ConnectorChoice.choose("auto", from: Array(Self.connectors.prefix(2)))
                == .failure(.noneConnected(names: ["HDMI-A-1", "DP-1"])))
    }
}

@Suite struct DisplayModeDescriptionTests {
    @Test func ratesAreShownToTwoDecimalsAndWholeRatesWithout() {
        #expect(DisplayMode(size: PixelSize(width: 1280, height: 800), refreshRate: 74.99).description == "1280x800@74.99")
        #expect(DisplayMode(size: PixelSize(width: 1920, height: 1080), refreshRate: 60.0001).description == "1920x1080@60")
    }
}

@Suite struct PlaneRotationChoiceTests {
    @Test(arguments: [
        // (clockwise rotation, what the plane offers, choice)
        (Rotation.none, ["rotate-0", "rotate-90", "rotate-180", "rotate-270"], PlaneRotationChoice.software),
        (.clockwise90, ["rotate-0", "rotate-90", "rotate-180", "rotate-270"], .hardware(propertyValue: "rotate-270")),
        (.upsideDown, ["rotate-0", "rotate-180", "reflect-x", "reflect-y"], .hardware(propertyValue: "rotate-180")),
        (.clockwise270, ["rotate-0", "rotate-90", "rotate-180", "rotate-270"], .hardware(propertyValue: "rotate-90")),
        // Many primary planes only offer 0 and 180 (e.g. vc4 without a tiled buffer): quarter turns stay in software.
        (.clockwise90, ["rotate-0", "rotate-180"], .software),
        (.clockwise270, ["rotate-0", "rotate-180"], .software),
        // No rotation property at all (bochs-drm, virtio-gpu).
        (.upsideDown, [], .software),
    ])
    func choosesThePlaneOnlyWhenItOffersTheTurn(rotation: Rotation, supported: [String], expected: PlaneRotationChoice) {
        #expect(PlaneRotationChoice.choose(rotation, supported: supported) == expected)
    }
}
