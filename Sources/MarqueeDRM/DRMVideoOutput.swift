import CDRM
import Foundation
import Glibc
import MarqueeCore

/// `--output drm[:PATH]`: shows pictures on a KMS/DRM screen through four XRGB8888 dumb buffers,
/// lent to the decode thread to convert pictures into ahead of their turn (`PooledVideoOutput`) or
/// drawn into on the present thread, and flipped to.
///
/// Pacing stays with the player's clock: `present` is called when a frame is due, and flip events
/// mean only "that buffer is free again" (VM drivers send them at once, with no vblank).
///
/// The picture pauses, while the player plays on, when the screen is unplugged, when the console
/// switches to another VT, or when another program takes DRM master; it comes back by itself.
/// The text console is kept in graphics mode meanwhile, so its text and cursor never show through.
///
/// Where the CRTC has an ARGB8888 overlay plane (atomic modesetting, no hardware rotation), the OSD
/// goes on it (`OverlayPlaneOutput`), changed in the same commit as the picture's flip.
public final class DRMVideoOutput: OverlayPlaneOutput, PooledVideoOutput, DisplayPowerSwitching, @unchecked Sendable {
    /// "Virtual-1 1280x800@75 (auto: the first connected connector; the connector's preferred
    /// mode) on /dev/dri/card0, atomic": what an installer needs to know, in one line.
    public let summary: String
    /// The primary plane turns the picture by `options.rotation`: pictures are drawn unturned into
    /// buffers of the turned size (`screenSize`).
    public let rotatesInHardware: Bool
    /// The OSD's overlay plane on the screen opened, or why there is none.
    public let overlayPlane: OverlayPlaneAvailability

    /// Why the picture is paused; it shows again once none is left.
    enum PauseReason: Hashable {
        case disconnected, switchedAway, masterLost
        /// displayOff: the CRTC is inactive; nothing is drawn or flipped until displayOn.
        case poweredOff
    }

    private let options: DRMOutputOptions
    private let log: DRMOutputLog
    /// Guards everything below: the present thread draws, the control-plane loop (hotplug, VT signal
    /// queue pause and resume.
    private let lock = NSLock()
    private var card: DRMCard?
    private var screen: DRMScreen?
    private var savedCrtc: DRMSavedCrtc?
    private var pauses: Set<PauseReason> = []
    /// The size the player last asked for: a frame drawn for another size is skipped, not squeezed.
    private var sizeGivenToPlayer: PixelSize
    private var terminal: VirtualTerminal?
    private var hotplug: DRMHotplugMonitor?
    /// The loop this output started because it was given none; stopped on close.
    private var ownLoop: ControlPlaneLoop?
    /// The driver refused the overlay plane: the OSD is blended from then on.
    private var overlayRefused = false
    /// The OSD picture the player last staged, and whether the screen's plane has yet to get it
    /// (staged while the picture was paused, or a screen made again after an unplug).
    private var wantedOverlay: OverlayPicture?
    private var overlayOutOfDate = false
    /// Screenshots' writeback connector for the screen opened at start; nil: the front buffer is
    /// copied (none, or a capture failed). Guarded by the lock.
    var writeback: DRMWritebackCapture?
    /// The first capture is logged with its cost, the others not.
    var writebackHasCaptured = false

    /// True when some card has a connected screen: what `--output auto` asks.
    public static func hasConnectedScreen() -> Bool {
        if case .success = DRMCard.firstConnected() { return true }
        return false
    }

    /// Whether this output switches the console to graphics mode, follows VT switches and drops
    /// master on close: the one output of a single screen, or the first of several on one card
    /// (`DRMCardScreens`), which closes last.
    private let ownsConsole: Bool
    /// For a screen beside the console's owner on one card: while the owner's VT is switched away,
    /// master (one per fd) is given up for every screen, and this one must not take it back.
    /// Guarded by the lock: the hotplug thread reads it.
    private weak var consoleOwner: DRMVideoOutput?

    func follow(consoleOwner owner: DRMVideoOutput?) {
        lock.withLock { consoleOwner = owner }
    }

    /// `shown`, or why the picture is paused (`unplugged`, `another VT`, `master lost`, `display
    /// off`), or `closed`: for `status`.
    public var pictureState: String {
        lock.withLock {
            guard card != nil else { return "closed" }
            guard !pauses.isEmpty else { return "shown" }
            return pauses.map { reason in
                switch reason {
                case .disconnected: "unplugged"
                case .switchedAway: "another VT"
                case .masterLost: "master lost"
                case .poweredOff: "display off"
                }
            }.sorted().joined(separator: ", ")
        }
    }

    /// The console is on another VT: the card's master is someone else's.
    var isSwitchedAway: Bool { lock.withLock { pauses.contains(.switchedAway) } }

    /// The signals VT switches arrive as: a process that hears them through its loop blocks them
    /// from its start.
    public static var consoleSwitchSignals: [Int32] { VirtualTerminal.signals }

    public convenience init(options: DRMOutputOptions, log: DRMOutputLog = .silent, events: ControlPlaneLoop? = nil) throws {
        let card: DRMCard
        if let path = options.devicePath {
            card = try DRMCard(path: path)
        } else {
            card = try DRMCard.firstConnected().get()
        }
        try self.init(card: card, options: options, log: log, ownsConsole: true, events: events)
    }

    /// A screen on a card already open, whose fd other screens may share. With `waitsForConnector`,
    /// a named connector with nothing plugged in is not an error: the output starts paused as
    /// unplugged, the player draws for the mode's size (1920x1080 for `preferred`) meanwhile, and
    /// the picture comes up once a screen is plugged in (the hotplug check), in software rotation.
    ///
    /// Hotplug and VT switches are heard on `events`, the session's control-plane loop; an output
    /// made without one (a benchmark, a test) starts a loop of its own and stops it on close.
    init(card: DRMCard, options: DRMOutputOptions, log: DRMOutputLog, ownsConsole: Bool,
         waitsForConnector: Bool = false, events: ControlPlaneLoop? = nil) throws {
        self.ownsConsole = ownsConsole
        self.options = options
        self.log = log
        try card.device.becomeMaster()
        self.card = card
        if waitsForConnector, let absent = card.connectors.first(where: { $0.name.lowercased() == options.connector.lowercased() }),
           !absent.isConnected || absent.modeInfos.isEmpty {
            pauses = [.disconnected]
            sizeGivenToPlayer = if case .size(let size, _) = options.mode { size } else { PixelSize(width: 1920, height: 1080) }
            summary = "\(absent.name) on \(card.device.path): nothing plugged in; the picture comes up once a screen is"
            rotatesInHardware = false
            overlayPlane = .unavailable("no screen on \(absent.name) yet")
        } else {
            let screen = try DRMScreen(card: card, options: options)
            savedCrtc = try DRMSavedCrtc(device: card.device, id: screen.crtcID)
            try screen.show(copying: nil, background: .black)
            self.screen = screen
            sizeGivenToPlayer = screen.size
            summary = screen.summary
            rotatesInHardware = screen.rotatesInHardware
            overlayPlane = screen.overlayPlane
            writeback = Self.openWriteback(card: card, screen: screen, options: options, log: log)
        }

        let loop: ControlPlaneLoop
        if let events {
            loop = events
        } else {
            loop = try ControlPlaneLoop(name: "marquee.drm-events")
            loop.start()
            ownLoop = loop
        }
        // Each screen watches its own connector: an unplug pauses this one only.
        hotplug = DRMHotplugMonitor(events: loop) { [weak self] in self?.checkScreen() }
        guard ownsConsole else { return }
        switch VirtualTerminal.active() {
        case .success(let terminal):
            self.terminal = terminal
            if let problem = terminal.handleSwitches(events: loop, onRelease: { [weak self] in self?.pause(.switchedAway) },
                                                     onAcquire: { [weak self] in self?.resume(.switchedAway) }) {
                log.warning("console: \(problem); switching VTs will not pause the picture")
            }
        case .failure(let problem):
            log.warning("console: cannot hide the text console: \(problem)")
        }
    }

    deinit {
        close()
    }

    /// The card and connector the picture is on now (another one after a hotplug can be chosen);
    /// nil once closed. HDMI-CEC's `auto` looks for the adapter bound to it.
    public var shownConnector: DRMShownConnector? {
        lock.withLock {
            guard let card, let screen else { return nil }
            return DRMShownConnector(devicePath: card.device.path, connectorID: screen.connectorID, name: screen.connectorName)
        }
    }

    public var screenSize: PixelSize {
        lock.withLock {
            if let screen { sizeGivenToPlayer = screen.size }
            return sizeGivenToPlayer
        }
    }

    public func prepare(_ draw: (PixelBuffer) throws -> Void) throws {
        try whileShowing { screen in try screen.prepare(draw) }
    }

    /// The screen's buffers while the picture shows; none while it is paused (nothing is drawn then).
    public var pictureBuffers: OutputBufferPool? {
        lock.withLock {
            guard card != nil, pauses.isEmpty, let screen, screen.size == sizeGivenToPlayer else { return nil }
            return screen.pool
        }
    }

    /// While the picture is paused the converted picture is let go, as a drawn one would be
    /// skipped (true: the caller has nothing to draw).
    public func prepare(lease: OutputBufferLease, then draw: ((PixelBuffer) throws -> Void)?) throws -> Bool {
        var taken = true
        try whileShowing { screen in taken = try screen.prepare(lease: lease, then: draw) }
        return taken
    }

    public func showPrepared() throws {
        try whileShowing { screen in
            if overlayOutOfDate { stageWantedOverlay(on: screen) }
            defer { if let refusal = screen.takeOverlayRefusal() { refuseOverlay(refusal, on: screen) } }
            try screen.showPrepared()
        }
    }

    /// Writes the OSD picture for the overlay plane; it goes on screen with the next flip. False
    /// once the driver has refused the plane (one warning, then the player blends). While the
    /// picture is paused it is kept, and staged once the picture is back.
    public func stageOverlay(_ picture: OverlayPicture?) -> Bool {
        lock.withLock {
            guard case .available = overlayPlane, !overlayRefused, card != nil else { return false }
            wantedOverlay = picture
            overlayOutOfDate = true
            guard pauses.isEmpty, let screen, screen.size == sizeGivenToPlayer else { return true }
            return stageWantedOverlay(on: screen)
        }
    }

    /// Under the lock: hands `screen` the picture last staged. False when the driver refused it.
    @discardableResult
    private func stageWantedOverlay(on screen: DRMScreen) -> Bool {
        do {
            try screen.stageOverlay(wantedOverlay)
            overlayOutOfDate = false
            return true
        } catch where drmLostMaster(error) {
            // Not the plane's fault: someone else is master; staged again once the picture is back.
            pauses.insert(.masterLost)
            log.warning("display: lost DRM master (\(error)); the picture pauses until it is back")
            return true
        } catch {
            refuseOverlay(error, on: screen)
            return false
        }
    }

    /// The one warning when the driver will not show the OSD's plane; the plane is hidden with the
    /// next flip and never staged again.
    private func refuseOverlay(_ error: any Error, on screen: DRMScreen) {
        guard !overlayRefused else { return }
        overlayRefused = true
        overlayOutOfDate = false
        wantedOverlay = nil
        try? screen.stageOverlay(nil)
        log.warning("osd: the driver refused the \(Self.planeName(overlayPlane)) (\(error)); blending the OSD into the picture instead")
    }

    private static func planeName(_ availability: OverlayPlaneAvailability) -> String {
        if case .available(let name) = availability { return name }
        return "overlay plane"
    }

    /// The front buffer, turned as the plane turns it; nil while the picture is paused (another VT,
    /// an unplugged screen, master lost: the screen does not show our buffer) or after `close`.
    ///
    /// The OSD on the overlay plane is laid over the copy, as the plane lays it over the picture.
    public func screenshot() throws -> Canvas? {
        lock.withLock {
            guard card != nil, pauses.isEmpty, let screen else { return nil }
            if let composed = captureThroughWriteback(screen, rotation: options.rotation, log: log) { return composed }
            return screen.screenshot(rotation: options.rotation)
        }
    }

    /// Runs `body` on the screen unless the picture is paused; a lost master pauses it.
    private func whileShowing(_ body: (DRMScreen) throws -> Void) throws {
        try lock.withLock {
            guard card != nil else { throw DRMRefusal(operation: "present", reason: "the DRM output is closed") }
            guard pauses.isEmpty, let screen, screen.size == sizeGivenToPlayer else { return }
            do {
                try body(screen)
            } catch where drmLostMaster(error) {
                // Someone else is master now (a VT switch without VT_PROCESS, a compositor);
                // the hotplug thread asks for master back every few seconds.
                pauses.insert(.masterLost)
                log.warning("display: lost DRM master (\(error)); the picture pauses until it is back")
            }
        }
    }

    /// displayOff and displayOn. Off while the picture is paused for another reason (unplugged,
    /// another VT) only records it: that screen is not ours to switch now, and it stays dark when
    /// the reason ends. On shows the last picture again at once.
    public func setDisplayPower(on: Bool) throws {
        try lock.withLock {
            guard card != nil else { throw DRMRefusal(operation: "display power", reason: "the DRM output is closed") }
            guard let screen else {
                // Nothing plugged in yet: the wish is kept for when a screen is.
                if on { pauses.remove(.poweredOff) } else { pauses.insert(.poweredOff) }
                return
            }
            if on {
                guard pauses.remove(.poweredOff) != nil, pauses.isEmpty else { return }
                // Active again, then the last picture put back by a modeset: another VT may have
                // drawn on the CRTC meanwhile.
                try screen.setActive(true)
                try screen.reshow()
                log.info("display: on (CRTC active)")
            } else {
                let wasShowing = pauses.isEmpty
                guard pauses.insert(.poweredOff).inserted, wasShowing else { return }
                try screen.setActive(false)
                log.info("display: off (CRTC inactive; mode and picture kept)")
            }
        }
    }

    /// Runs on the VT signal queue before the kernel switches away: the last flip completes and
    /// master goes to whoever owns the next VT.
    private func pause(_ reason: PauseReason) {
        lock.withLock {
            guard let card, pauses.insert(reason).inserted else { return }
            try? screen?.flips.waitForPendingFlip()
            try? card.device.dropMaster()
            log.info("display: the console switched to another VT; the picture pauses")
        }
    }

    private func resume(_ reason: PauseReason) {
        lock.withLock {
            guard card != nil, pauses.remove(reason) != nil else { return }
            log.info("display: the console switched back; the picture resumes")
            reshowIfUnpaused()
        }
    }

    /// Master back and the last picture on screen, unless something else still pauses it.
    private func reshowIfUnpaused() {
        guard let card, let screen, pauses.isEmpty else { return }
        do {
            try card.device.becomeMaster()
            try screen.reshow()
        } catch {
            pauses.insert(.masterLost)
            log.warning("display: cannot show the picture again: \(error); retrying")
        }
    }

    /// Runs on the hotplug thread after a drm uevent, and every few seconds.
    private func checkScreen() {
        // Outside the lock: the owner's lock is never taken under this one's.
        if lock.withLock({ consoleOwner })?.isSwitchedAway == true { return }
        lock.withLock {
            guard let card, !pauses.contains(.switchedAway), !pauses.contains(.poweredOff) else { return }
            if pauses.contains(.disconnected) {
                reconnect(card: card, previous: screen)
            } else if let screen, let connector = try? DRMConnector(device: card.device, id: screen.connectorID, probing: false),
                      !connector.isConnected {
                pauses.insert(.disconnected)
                log.warning("display: \(connector.name) was unplugged; playing on without a picture until a screen is back")
            } else if pauses.contains(.masterLost) {
                pauses.remove(.masterLost)
                reshowIfUnpaused()
                if pauses.isEmpty { log.info("display: DRM master is back; the picture resumes") }
            }
        }
    }

    /// Chooses the connector and mode again among what is connected now; the picture resumes on
    /// it, with the last frame when the size is unchanged.
    /// With no `previous` (nothing was plugged in at start), the CRTC's state is saved first, to be
    /// put back on close.
    private func reconnect(card: DRMCard, previous: DRMScreen?) {
        guard let fresh = try? DRMCard(device: card.device), fresh.hasConnectedScreen,
              let replacement = try? DRMScreen(card: fresh, options: options) else { return }
        guard replacement.rotatesInHardware == rotatesInHardware else {
            // The player turns pictures as the output said at start; a plane turning them too would show them turned twice.
            log.warning("display: \(replacement.connectorName) would turn the picture \(rotatesInHardware ? "in software" : "on its plane"), unlike at start; not shown")
            return
        }
        do {
            try card.device.becomeMaster()
            if savedCrtc == nil { savedCrtc = try DRMSavedCrtc(device: card.device, id: replacement.crtcID) }
            try previous?.flips.waitForPendingFlip()
            try replacement.show(copying: previous, background: .black)
        } catch {
            log.warning("display: a screen is connected again but cannot be shown: \(error); retrying")
            return
        }
        self.card = fresh
        screen = replacement
        // The new screen's plane starts hidden: the OSD goes on it with the next flip.
        overlayOutOfDate = !overlayRefused && wantedOverlay != nil
        pauses.remove(.disconnected)
        pauses.remove(.masterLost)
        log.info("display: \(previous == nil ? "now" : "back") on \(replacement.summary)")
    }

    /// Puts back what the screen showed before (the console), frees the buffers and drops master.
    /// Idempotent; the deinit calls it too. Errors are returned, not thrown: closing goes on.
    @discardableResult
    public func close() -> [any Error] {
        // Outside the lock: the hotplug thread's last check takes it.
        hotplug?.stop()
        hotplug = nil
        terminal?.stopHandlingSwitches()
        ownLoop?.stop()
        ownLoop = nil
        var problems: [any Error] = []
        lock.withLock {
            guard let card else { return }
            if let screen {
                do { try screen.flips.waitForPendingFlip() } catch { problems.append(error) }
                // The console's SetCrtc knows no planes: the OSD's would stay over it.
                if !pauses.contains(.switchedAway) {
                    do { try screen.hideOverlay() } catch { problems.append(error) }
                }
                // Restore before freeing the buffers: removing the framebuffer on screen would
                // switch the CRTC off instead. Not while another VT owns the screen.
                if !pauses.contains(.switchedAway) {
                    do { try savedCrtc?.restore(connectorID: screen.connectorID) } catch { problems.append(error) }
                }
            }
            savedCrtc = nil
            screen = nil
            writeback = nil
            // The other screens on this card close first, while master is still ours.
            if ownsConsole && !pauses.contains(.switchedAway) {
                do { try card.device.dropMaster() } catch { problems.append(error) }
            }
            self.card = nil
        }
        // Text mode last, so the console redraws over its own framebuffer, not ours.
        terminal?.close()
        terminal = nil
        return problems
    }
}

/// A connector of a card, as the kernel's other subsystems name it (HDMI-CEC's connector info:
/// card number and connector object id).
public struct DRMShownConnector: Sendable, Hashable {
    /// `/dev/dri/card0`, as opened.
    public let devicePath: String
    public let connectorID: UInt32
    /// `HDMI-A-1`.
    public let name: String
}

/// Where the DRM output reports what happens to the screen after it opened (unplugged, back,
/// VT switches): one line each, for the journal.
public struct DRMOutputLog: Sendable {
    public var info: @Sendable (String) -> Void
    public var warning: @Sendable (String) -> Void

    public init(info: @escaping @Sendable (String) -> Void, warning: @escaping @Sendable (String) -> Void) {
        self.info = info
        self.warning = warning
    }

    public static let silent = DRMOutputLog(info: { _ in }, warning: { _ in })
}
