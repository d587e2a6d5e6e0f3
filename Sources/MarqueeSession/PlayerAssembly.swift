import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueePlayer

/// Makes the player of a screen from one set of rules, the main screen's and every other one's
/// alike (`displays:` once had its own copy, without the wall's rule for the sound clock): how
/// it follows the sound device's clock, waits for downloads, turns the picture, opens media and
/// stretches sound.
struct PlayerAssembly {
    let plan: PlaybackPlan
    let backends: Backends
    let clock: PlaybackClock

    /// The settings of the player of `screen`, whose sound goes to `audio`.
    func settings(_ base: PlayerSettings, for screen: ScreenOutput, audio: AudioDevice, waitsForContent: Bool, logger: Logger) -> PlayerSettings {
        var settings = base
        // The present thread runs above the decoders (one warning where it may not).
        settings.onPresentThread = PresentThreadPriority.request(on: clock, logger: logger)
        // Remote media are downloaded before the playlist plays: the player waits for it.
        settings.waitsForContent = waitsForContent
        // Locked to the wall, the sound is resampled onto it: only a device that keeps time can be.
        settings.followsAudioClock = audio.isDevice && !(clock is VirtualClock) && (plan.sync == nil || audio.keepsTime)
        // A visitor's stop does not blank the screen for good (input.stopTimeout).
        settings.stopTimeout = plan.input.stopTimeout
        Self.drawUnturned(&settings, rotatesInHardware: screen.display?.rotatesInHardware == true)
        return settings
    }

    /// The plane turns the picture: the player draws it unturned into the turned buffers. The same
    /// rule for a screen's first settings and for every playlist a reload hands it.
    static func drawUnturned(_ settings: inout PlayerSettings, rotatesInHardware: Bool) {
        if rotatesInHardware { settings.displayRotation = .none }
    }

    /// The opener of a screen's media: stills are shrunk to the upright screen the player lays
    /// pictures out on, right after decoding.
    func opener(_ settings: PlayerSettings, for screen: ScreenOutput, warn: @escaping @Sendable (String) -> Void) -> any MediaOpening {
        backends.opener(OpenerRequest(readAhead: settings.readAhead, maxImagePixels: plan.maxImagePixels,
                                      stillScreenSize: screen.output.screenSize.rotated(by: settings.displayRotation)), warn)
    }

    /// The parts a screen's player is given besides its output: the OSD (every screen has its own),
    /// and those only the main screen has: the TV's power, a timetable, the watchdog and reloads.
    struct Extras {
        var display: OnScreenDisplay?
        var displayPower: [any DisplayPowerSwitching] = []
        var schedule: PlaylistSchedule?
        var heartbeat: @Sendable () -> Void = {}
        var reload: (@Sendable (CommandSource) -> Void)?
    }

    func player(items: [QueueItem], settings: PlayerSettings, opener: any MediaOpening, screen: ScreenOutput, audio: AudioDevice,
                extras: Extras = Extras(), clock: PlaybackClock, stampedEvents: @escaping @Sendable (PlayerEvent, MediaTime) -> Void) -> QueuePlayer {
        QueuePlayer(items: items, settings: settings, opener: opener, video: screen.output, audio: audio.output,
                    // Locked to the wall, the sound keeps to it by resampling (±0.5 %), not by atempo.
                    audioStretching: backends.soundStretching(plan.sync != nil),
                    display: extras.display, displayPower: extras.displayPower, schedule: extras.schedule,
                    clock: clock, heartbeat: extras.heartbeat, reload: extras.reload, stampedEvents: stampedEvents)
    }
}
