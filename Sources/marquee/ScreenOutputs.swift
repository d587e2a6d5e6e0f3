import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeDRM
import MarqueePlayer
import MarqueeSession

/// The outputs of a `displays:` config: one per screen, all on one DRM card (one master, one fd)
/// or all headless, each mirror folded into the output of the screen it mirrors.
final class ScreenOutputs: ScreenSet, @unchecked Sendable {
    /// A screen that plays its own playlist, with the screens mirroring it: its own output, or a
    /// `MirroredVideoOutput` over it and its mirrors; its DRM screen (for rotation and the summary).
    typealias Playing = ScreenOutput

    /// One line of `status`'s `screens` per screen.
    struct Facts {
        let screen: ScreenConfiguration
        let kind: String
        let size: PixelSize
        let summary: String?
        /// Its screen on DRM: whether the picture is shown now, or why not.
        var display: DRMVideoOutput? = nil
    }

    let main: Playing
    let others: [Playing]
    let facts: [Facts]
    private let card: DRMCardScreens?

    private init(main: Playing, others: [Playing], facts: [Facts], card: DRMCardScreens?) {
        self.main = main
        self.others = others
        self.facts = facts
        self.card = card
    }

    /// Opens every screen of `plan.screens`. The main screen failing ends the run, as a single
    /// screen's would; another screen failing (unplugged, no such connector) is left out with one
    /// error line, and the rest play.
    static func make(plan: PlaybackPlan, logger: Logger, events: ControlPlaneLoop) throws -> ScreenOutputs {
        guard let mainScreen = plan.mainScreen else { throw PlayError(lines: ["error: displays: no screen plays a playlist"]) }
        let card: DRMCardScreens?
        switch plan.output {
        case .headless:
            card = nil
        case .auto where !DRMVideoOutput.hasConnectedScreen():
            logger.warning("no DRM card with a connected screen: playing every screen headless")
            card = nil
        case .auto, .drm:
            let path: String? = if case .drm(let path) = plan.output { path } else { nil }
            do {
                card = try DRMCardScreens(devicePath: path, events: events)
            } catch {
                throw PlayError(lines: ["error: drm output: \(error)"])
            }
        }
        // The main screen first: on DRM it owns the console and closes last.
        let ordered = [mainScreen] + plan.screens.filter { $0.name != mainScreen.name }
        var raw: [String: (output: VideoOutput, display: DRMVideoOutput?)] = [:]
        var facts: [Facts] = []
        for screen in ordered {
            var screenLogger = logger
            screenLogger[metadataKey: "screen"] = "\(screen.name)"
            do {
                let made = try open(screen, plan: plan, card: card, logger: screenLogger)
                raw[screen.name] = made
                facts.append(Facts(screen: screen, kind: made.display == nil ? "headless" : "drm", size: made.output.screenSize,
                                   summary: made.display?.summary, display: made.display))
                if let display = made.display { screenLogger.info("display: \(display.summary)") }
            } catch {
                if screen.name == mainScreen.name {
                    _ = card?.close()
                    throw PlayError(lines: ["error: screen \(screen.name): drm output: \(error)"])
                }
                screenLogger.error("drm output: \(error); this screen is left out, the others play")
                facts.append(Facts(screen: screen, kind: "unavailable", size: PixelSize(width: 0, height: 0), summary: "\(error)"))
            }
        }
        func playing(_ screen: ScreenConfiguration) -> Playing? {
            guard let own = raw[screen.name] else { return nil }
            let mainRotation = own.display?.rotatesInHardware == true ? Rotation.none : screen.rotation
            let mirrors = plan.screens.filter { $0.mirrored == screen.name }.compactMap { mirror -> MirroredVideoOutput.Mirror? in
                guard let made = raw[mirror.name] else { return nil }
                return MirroredVideoOutput.Mirror(output: made.output,
                                                  rotation: made.display?.rotatesInHardware == true ? .none : mirror.rotation,
                                                  scaling: mirror.scaling, background: mirror.background)
            }
            guard !mirrors.isEmpty else { return Playing(screen: screen, output: own.output, display: own.display) }
            var mirrorLogger = logger
            mirrorLogger[metadataKey: "screen"] = "\(screen.name)"
            let output = MirroredVideoOutput(main: own.output, mainRotation: mainRotation, mirrors: mirrors,
                                             report: { mirrorLogger.warning("\($0)") })
            return Playing(screen: screen, output: output, display: own.display)
        }
        guard let main = playing(mainScreen) else { throw PlayError(lines: ["error: screen \(mainScreen.name) could not be opened"]) }
        let others = plan.otherPlayingScreens.compactMap(playing)
        return ScreenOutputs(main: main, others: others, facts: facts, card: card)
    }

    /// One screen's own output: on the shared card, or headless at its mode's size (`WxH`), else
    /// at `--output headless:WxH`'s, else 1280x720.
    private static func open(_ screen: ScreenConfiguration, plan: PlaybackPlan, card: DRMCardScreens?,
                             logger: Logger) throws -> (output: VideoOutput, display: DRMVideoOutput?) {
        guard let card else {
            var size = HeadlessVideoOutput.defaultSize
            if case .headless(let configured?) = plan.output { size = PixelSize(width: configured.width, height: configured.height) }
            if case .size(let modeSize, _) = screen.mode { size = PixelSize(width: modeSize.width, height: modeSize.height) }
            return (HeadlessVideoOutput(size: size, background: screen.background), nil)
        }
        let options = DRMOutputOptions(connector: screen.connector, mode: VideoOutputFactory.request(screen.mode),
                                       rotation: screen.rotation, allowsAtomic: plan.modesetting == .auto)
        let log = DRMOutputLog(info: { logger.info("\($0)") }, warning: { logger.warning("\($0)") })
        // A screen besides the main one may be plugged in later: it waits for it, the others play.
        let display = try card.addScreen(options: options, log: log, waitsForConnector: screen.name != plan.mainScreen?.name)
        return (display, display)
    }

    /// Every screen for `status`: name, connector, kind, size and what it plays or mirrors.
    func status(playing: (String) -> StatusDocument.Screen.Playing?) -> [StatusDocument.Screen]? {
        facts.map { fact in
            var screen = StatusDocument.Screen(name: fact.screen.name, connector: fact.screen.connector, kind: fact.kind, size: fact.size)
            screen.display = fact.summary
            screen.picture = fact.display?.pictureState
            if let mirrored = fact.screen.mirrored {
                screen.mirrors = mirrored
            } else {
                screen.playing = playing(fact.screen.name)
            }
            return screen
        }
    }

    /// Puts every CRTC back (the main screen's last); the problems met.
    func close() -> [String] {
        (card?.close() ?? []).map { "\($0)" }
    }
}
