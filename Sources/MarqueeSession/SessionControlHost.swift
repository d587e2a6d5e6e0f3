import Foundation
import MarqueeConfig
import MarqueeControl
import MarqueeCore
import MarqueePlayer

/// The control service's view of this run: `load` reads configs with the same loader as `marquee
/// check` and hands it to the one road new plans take (PlanIntake), screenshots are scaled and encoded with FFmpeg
/// (libswscale, its PNG and JPEG encoders), and `status` learns the output, the sound device and the keypads from here.
package final class SessionControlHost: ControlHost, @unchecked Sendable {
    /// The settings playing from the start; an inline playlist changes only its playlist's part.
    private let baseSettings: PlayerSettings
    private let output: StatusDocument.Output
    private let audioDevice: String
    private let encode: @Sendable (Canvas, Int?, ImageFileFormat) throws -> EncodedImage
    private let lock = NSLock()
    private var input: (any InputSource)?
    private var cacheStatus: (@Sendable () -> StatusDocument.CacheStatus?)?
    private var syncStatus: (@Sendable () -> StatusDocument.SyncStatus?)?
    private var screens: (@Sendable () -> [StatusDocument.Screen])?
    /// The folders `load` may read configs and local media from.
    private let roots: LoadRoots
    private let screenshots: ScreenshotFolder
    /// The one road new plans take to the player.
    private var intake: PlanIntake?

    package init(settings: PlayerSettings, output: StatusDocument.Output, audioDevice: String,
         roots: LoadRoots, screenshots: ScreenshotFolder, image: @escaping @Sendable (Canvas, Int?, ImageFileFormat) throws -> EncodedImage) {
        self.encode = image
        self.screenshots = screenshots
        self.baseSettings = settings
        self.output = output
        self.audioDevice = audioDevice
        self.roots = roots
    }

    package func attach(intake: PlanIntake) {
        lock.withLock { self.intake = intake }
    }

    package func attach(_ input: (any InputSource)?) {
        lock.withLock { self.input = input }
    }

    /// The media cache's downloads and size, for `status`.
    package func attach(cacheStatus: @escaping @Sendable () -> StatusDocument.CacheStatus?) {
        lock.withLock { self.cacheStatus = cacheStatus }
    }

    /// Frame-locked playback's epoch and the kernel clock's state, for `status`.
    package func attach(syncStatus: @escaping @Sendable () -> StatusDocument.SyncStatus?) {
        lock.withLock { self.syncStatus = syncStatus }
    }

    /// Every screen of `displays:`, for `status`.
    package func attach(screens: @escaping @Sendable () -> [StatusDocument.Screen]) {
        lock.withLock { self.screens = screens }
    }

    package func load(_ load: ControlLoad, handedOver: @escaping @Sendable (LoadHandOver) -> Void) -> Result<LoadOutcome, LoadRejection> {
        // Every player of a wall plays the config's cycle; one changed over its socket would leave it.
        if lock.withLock({ intake })?.lockedWall != nil {
            return .failure(LoadRejection(summary: "\(labelFor(load)): not loaded: playback is locked to the wall clock (sync); change the config file and reload it instead",
                                          diagnostics: []))
        }
        var plan: PlaybackPlan
        do {
            switch load.source {
            case .path(let path):
                if let refusal = roots.refusal(ofConfig: path) {
                    return .failure(LoadRejection(summary: "\(path): not loaded: \(refusal)", diagnostics: []))
                }
                let result = ConfigurationLoader.load(path: path)
                // Diagnostics quote the file: shown only for a file that reads as a config at all.
                guard result.isConfig else {
                    return .failure(LoadRejection(summary: "\(path): not loaded: not a config file (no playlist or other config section in it)",
                                                  diagnostics: []))
                }
                plan = try PlaybackPlan.fromConfig(result, path: path)
            case .playlist(let json):
                // Relative media paths resolve against the player's working folder.
                let result = ConfigurationLoader.load(text: json, format: .json, path: Self.requestLabel)
                plan = try PlaybackPlan.fromConfig(result, path: Self.requestLabel)
                var settings = baseSettings
                settings.repeatMode = plan.settings.repeatMode
                settings.shuffleSeed = plan.settings.shuffleSeed
                settings.actionAtItemEnd = plan.settings.actionAtItemEnd
                plan.settings = settings
            }
        } catch let error as PlayError {
            let count = error.lines.count
            return .failure(LoadRejection(summary: "\(labelFor(load)) rejected (\(count) error\(count == 1 ? "" : "s")); the playlist playing goes on",
                                          diagnostics: error.lines))
        } catch {
            return .failure(LoadRejection(summary: "\(labelFor(load)): \(error)", diagnostics: []))
        }
        let media = plan.items + (plan.schedule?.playlists.flatMap(\.items) ?? [])
        if let outside = media.lazy.compactMap({ self.roots.refusal(ofMedia: $0.url) }).first {
            return .failure(LoadRejection(summary: "\(labelFor(load)): not loaded: \(outside)", diagnostics: []))
        }
        // The same road as a reloaded or fetched config: overrides, the restart-only filter, the
        // wall, the cache (remote media downloaded and verified first), the hand-over.
        guard let intake = lock.withLock({ self.intake }) else {
            return .failure(LoadRejection(summary: "\(labelFor(load)): not loaded: the player is not ready for it yet", diagnostics: []))
        }
        return intake.load(plan, named: labelFor(load), mode: load.mode, handedOver: handedOver).map {
            LoadOutcome(itemCount: plan.items.count, warnings: plan.warnings, staged: $0)
        }
    }

    /// What an inline playlist's diagnostics name as their file: `request:3:12: error: ...`.
    package static let requestLabel = "request"

    private func labelFor(_ load: ControlLoad) -> String {
        if case .path(let path) = load.source { return path }
        return Self.requestLabel
    }

    package func image(_ canvas: Canvas, width: Int?, format: ImageFileFormat) throws -> EncodedImage {
        try encode(canvas, width, format)
    }

    package func saveScreenshot(_ png: [UInt8], named name: String) throws -> String {
        try screenshots.write(png, named: name)
    }

    package func deviceStatus() -> DeviceStatus {
        let devices = lock.withLock { input }?.openDevices ?? []
        var status = DeviceStatus(output: output, audio: StatusDocument.Audio(device: audioDevice),
                                  input: StatusDocument.Input(devices: devices))
        status.cache = lock.withLock({ cacheStatus })?()
        status.sync = lock.withLock({ syncStatus })?() ?? nil
        status.screens = lock.withLock({ screens })?()
        return status
    }
}
