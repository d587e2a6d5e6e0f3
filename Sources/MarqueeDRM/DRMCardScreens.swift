import Foundation
import MarqueeCore

/// Several screens on one card, driven from one process: one open fd (one DRM master), each
/// screen a `DRMVideoOutput` with its own connector, CRTC, buffers and present thread. Flip
/// completions on the shared fd go to their own CRTC's thread (`DRMFlipEventDemultiplexer`), and
/// no two screens take the same CRTC (`DRMCrtcClaims`).
///
/// The first screen added owns the console (graphics mode, VT switches, master on close): while its
/// VT is switched away the others do not take master back (their flips fail and they pause until
/// it is back). Closing puts every CRTC back as it was, the others first, while master is still held.
public final class DRMCardScreens: @unchecked Sendable {
    private let card: DRMCard
    private let lock = NSLock()
    private var outputs: [DRMVideoOutput] = []

    /// Opens `devicePath`, or the first card with a connected connector, and becomes its master.
    private let events: ControlPlaneLoop?

    /// Hotplug and VT switches are heard on `events` (an output starts a loop of its own without one).
    public init(devicePath: String?, events: ControlPlaneLoop? = nil) throws {
        self.events = events
        card = if let devicePath { try DRMCard(path: devicePath) } else { try DRMCard.firstConnected().get() }
        try card.device.becomeMaster()
    }

    /// `/dev/dri/card0`.
    public var devicePath: String { card.device.path }

    /// Sets `options.connector` up in its mode on the shared card (`options.devicePath` is ignored).
    /// With `waitsForConnector`, a connector with nothing plugged in gives an output paused as
    /// unplugged, whose picture comes up once a screen is plugged in.
    public func addScreen(options: DRMOutputOptions, log: DRMOutputLog = .silent,
                          waitsForConnector: Bool = false) throws -> DRMVideoOutput {
        let ownsConsole = lock.withLock { outputs.isEmpty }
        let output = try DRMVideoOutput(card: card, options: options, log: log, ownsConsole: ownsConsole,
                                        waitsForConnector: waitsForConnector, events: events)
        lock.withLock {
            output.follow(consoleOwner: outputs.first)
            outputs.append(output)
        }
        return output
    }

    /// Restores every CRTC (the last screen added first) and drops master; the problems met.
    @discardableResult
    public func close() -> [any Error] {
        let closing = lock.withLock { outputs.reversed() }
        return closing.flatMap { $0.close() }
    }
}
