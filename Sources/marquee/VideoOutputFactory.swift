import Logging
import MarqueeConfig
import MarqueeCore
import MarqueeDRM
import MarqueePlayer
import MarqueeSession

/// Turns `display.output` (or `--output`) into the output the player draws on.
enum VideoOutputFactory {
    struct Made {
        let output: VideoOutput
        /// Set when the output is a screen that must be given back on exit.
        let display: DRMVideoOutput?
    }

    static func make(plan: PlaybackPlan, logger: Logger, events: ControlPlaneLoop) throws -> Made {
        let background = plan.settings.background
        switch plan.output {
        case .headless(let configured):
            let size = configured.map { PixelSize(width: $0.width, height: $0.height) } ?? HeadlessVideoOutput.defaultSize
            return Made(output: HeadlessVideoOutput(size: size, background: background), display: nil)
        case .auto:
            guard DRMVideoOutput.hasConnectedScreen() else {
                logger.warning("no DRM card with a connected screen: playing headless at \(HeadlessVideoOutput.defaultSize)")
                return Made(output: HeadlessVideoOutput(size: HeadlessVideoOutput.defaultSize, background: background), display: nil)
            }
            return try drm(devicePath: nil, plan: plan, logger: logger, events: events)
        case .drm(let device):
            return try drm(devicePath: device, plan: plan, logger: logger, events: events)
        }
    }

    private static func drm(devicePath: String?, plan: PlaybackPlan, logger: Logger, events: ControlPlaneLoop) throws -> Made {
        let options = DRMOutputOptions(devicePath: devicePath, connector: plan.connector, mode: request(plan.mode),
                                       rotation: plan.settings.displayRotation, allowsAtomic: plan.modesetting == .auto)
        do {
            let log = DRMOutputLog(info: { logger.info("\($0)") }, warning: { logger.warning("\($0)") })
            let display = try DRMVideoOutput(options: options, log: log, events: events)
            logger.info("display: \(display.summary)")
            return Made(output: display, display: display)
        } catch {
            throw PlayError(lines: ["error: drm output: \(error)"])
        }
    }

    static func request(_ mode: DisplayConfiguration.Mode) -> DisplayModeRequest {
        switch mode {
        case .preferred: .preferred
        case .size(let size, let rate): .size(PixelSize(width: size.width, height: size.height), refreshRate: rate)
        }
    }
}
