import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueePlayer

/// Every device and service a session talks to, as factories: the screens, the sound device, the
/// TV's power, the media opener and sound stretchers, the OSD, keypads, HTTP, the broker, image
/// encoding, the clocks and the metrics server. `marquee` fills it with the real backends (FFmpeg, DRM, ALSA, evdev,
/// CEC, curl, mosquitto); a test fills it with stand-ins and drives a `PlaybackSession` in process.
package struct Backends: Sendable {
    /// Opens the screens of a plan: a single output, or every screen of `displays:`.
    /// Hotplug and VT switches are heard on `events`, the session's control-plane loop.
    package var screens: @Sendable (_ plan: PlaybackPlan, _ logger: Logger, _ events: ControlPlaneLoop) throws -> any ScreenSet
    package var audio: @Sendable (_ request: AudioRequest, _ logger: Logger) -> AudioDevice
    /// The TV over HDMI-CEC, switched with the display; nil without one.
    package var displayPower: @Sendable (_ setting: DisplayConfiguration.CEC, _ screen: (any ScreenDisplay)?, _ logger: Logger) -> (any DisplayPowerDevice)?
    package var opener: @Sendable (_ request: OpenerRequest, _ warn: @escaping @Sendable (String) -> Void) -> any MediaOpening
    /// The sound at another rate: time-stretched, or (locked to a wall) resampled onto it.
    package var soundStretching: @Sendable (_ lockedToWall: Bool) -> any AudioTimeStretching
    package var osd: @Sendable (_ settings: OSDSettings, _ logger: Logger) -> OnScreenDisplay?
    /// Keypads and remotes; nil with `input: none`.
    package var input: @Sendable (_ configuration: InputConfiguration, _ logger: Logger, _ route: InputRoute, _ events: ControlPlaneLoop) -> (any InputSource)?
    package var http: @Sendable () -> any HTTPTransferring
    package var digests: @Sendable () -> any FileDigesting
    package var broker: @Sendable (_ request: BrokerRequest) throws -> any BrokerConnection
    /// A picture of the screen scaled down to at most `width` pixels across (nil: as it is) and
    /// encoded as a JPEG or PNG file: screenshots for the control socket and MQTT.
    package var image: @Sendable (_ canvas: Canvas, _ width: Int?, _ format: ImageFileFormat) throws -> EncodedImage
    /// Hears the wall clock being set; nil when it cannot (the reason in `ClockJumpWatching`'s error).
    package var clockJumps: @Sendable (_ events: ControlPlaneLoop, _ jumped: @escaping @Sendable () -> Void) -> Result<any ClockJumpWatching, ClockWatchError>
    /// The kernel clock's discipline (adjtimex); nil when it cannot be read.
    package var kernelClock: @Sendable () -> KernelClockReading?
    /// Hears the config file being written or renamed into place (inotify on its folder).
    package var configWatch: @Sendable (_ path: String, _ logger: Logger, _ events: ControlPlaneLoop, _ changed: @escaping @Sendable () -> Void) -> any ConfigWatching
    /// Serves `page()` as `GET /metrics` at `listen`, on a thread of the server's own; throws the
    /// one-line reason when the address cannot be listened on.
    package var metricsServer: @Sendable (_ listen: MetricsListenAddress, _ page: @escaping @Sendable () -> String) throws -> any MetricsServing

    package init(screens: @escaping @Sendable (PlaybackPlan, Logger, ControlPlaneLoop) throws -> any ScreenSet,
                audio: @escaping @Sendable (AudioRequest, Logger) -> AudioDevice,
                displayPower: @escaping @Sendable (DisplayConfiguration.CEC, (any ScreenDisplay)?, Logger) -> (any DisplayPowerDevice)?,
                opener: @escaping @Sendable (OpenerRequest, @escaping @Sendable (String) -> Void) -> any MediaOpening,
                soundStretching: @escaping @Sendable (Bool) -> any AudioTimeStretching,
                osd: @escaping @Sendable (OSDSettings, Logger) -> OnScreenDisplay?,
                input: @escaping @Sendable (InputConfiguration, Logger, InputRoute, ControlPlaneLoop) -> (any InputSource)?,
                http: @escaping @Sendable () -> any HTTPTransferring,
                digests: @escaping @Sendable () -> any FileDigesting,
                broker: @escaping @Sendable (BrokerRequest) throws -> any BrokerConnection,
                image: @escaping @Sendable (Canvas, Int?, ImageFileFormat) throws -> EncodedImage,
                clockJumps: @escaping @Sendable (ControlPlaneLoop, @escaping @Sendable () -> Void) -> Result<any ClockJumpWatching, ClockWatchError>,
                kernelClock: @escaping @Sendable () -> KernelClockReading?,
                configWatch: @escaping @Sendable (String, Logger, ControlPlaneLoop, @escaping @Sendable () -> Void) -> any ConfigWatching,
                metricsServer: @escaping @Sendable (MetricsListenAddress, @escaping @Sendable () -> String) throws -> any MetricsServing) {
        self.screens = screens
        self.audio = audio
        self.displayPower = displayPower
        self.opener = opener
        self.soundStretching = soundStretching
        self.osd = osd
        self.input = input
        self.http = http
        self.digests = digests
        self.broker = broker
        self.image = image
        self.clockJumps = clockJumps
        self.kernelClock = kernelClock
        self.configWatch = configWatch
        self.metricsServer = metricsServer
    }
}

/// What the sound device is asked for: `--audio`, the config's `audio:` (its device replaced for a
/// screen with one of its own) and whether the clock is the virtual one (no card keeps its pace).
package struct AudioRequest: Sendable {
    package var choice: AudioChoice
    package var configuration: AudioConfiguration
    package var virtualClock: Bool

    package init(choice: AudioChoice, configuration: AudioConfiguration, virtualClock: Bool) {
        self.choice = choice
        self.configuration = configuration
        self.virtualClock = virtualClock
    }
}

/// The sound device made: its output and what it is.
package struct AudioDevice: Sendable {
    package let output: AudioOutput
    /// A real device (not the null one): the player follows its clock.
    package let isDevice: Bool
    package var deviceName: String
    /// It plays at a sound card's pace (a `file` or `null` PCM consumes at once): only such a
    /// device can be resampled onto a wall.
    package var keepsTime: Bool

    package init(output: AudioOutput, isDevice: Bool, deviceName: String = "null", keepsTime: Bool = false) {
        self.output = output
        self.isDevice = isDevice
        self.deviceName = deviceName
        self.keepsTime = keepsTime
    }
}

/// How media are opened: the read-ahead, the largest still taken, and the screen stills are shrunk to.
package struct OpenerRequest: Sendable {
    package var readAhead: Duration
    package var maxImagePixels: ImagePixelLimit
    package var stillScreenSize: PixelSize

    package init(readAhead: Duration, maxImagePixels: ImagePixelLimit, stillScreenSize: PixelSize) {
        self.readAhead = readAhead
        self.maxImagePixels = maxImagePixels
        self.stillScreenSize = stillScreenSize
    }
}

/// Where keys go: the command path, and the numeric entry shown on the OSD.
package struct InputRoute: Sendable {
    package var deliver: @Sendable (ControlAction, CommandSource) -> Void
    package var entryChanged: @Sendable (String?) -> Void

    package init(deliver: @escaping @Sendable (ControlAction, CommandSource) -> Void, entryChanged: @escaping @Sendable (String?) -> Void) {
        self.deliver = deliver
        self.entryChanged = entryChanged
    }
}

/// The broker connection `mqtt:` asks for: the config, the credentials read from its file, and
/// the topic of the last will.
package struct BrokerRequest: Sendable {
    package var configuration: MQTTConfiguration
    package var username: String?
    package var password: String?
    package var willTopic: String

    package init(configuration: MQTTConfiguration, username: String?, password: String?, willTopic: String) {
        self.configuration = configuration
        self.username = username
        self.password = password
        self.willTopic = willTopic
    }
}

/// A screen on a display device (DRM): what `status` and the journal say of it, whether its plane
/// turns the picture, and its release (the console back).
package protocol ScreenDisplay: AnyObject, Sendable {
    /// `card0 HDMI-A-1 1920x1080@60`
    var summary: String { get }
    var rotatesInHardware: Bool { get }
    /// `shown`, or why the picture is not (`unplugged`).
    var pictureState: String { get }
}

/// One screen's output: its own video output (a mirror folds into it) and its display, if any.
package struct ScreenOutput: @unchecked Sendable {
    package let screen: ScreenConfiguration?
    package let output: VideoOutput
    package let display: (any ScreenDisplay)?

    package init(screen: ScreenConfiguration?, output: VideoOutput, display: (any ScreenDisplay)?) {
        self.screen = screen
        self.output = output
        self.display = display
    }
}

/// The screens a session plays on: the main one, the others that play playlists of their own,
/// what `status` says of each, and their release (the main one, which owns the console, last).
package protocol ScreenSet: AnyObject, Sendable {
    var main: ScreenOutput { get }
    var others: [ScreenOutput] { get }
    /// Every screen of `displays:`; nil for a single screen.
    func status(playing: (String) -> StatusDocument.Screen.Playing?) -> [StatusDocument.Screen]?
    /// Puts every CRTC back; the problems met.
    func close() -> [String]
}

/// The TV's power over HDMI-CEC.
package protocol DisplayPowerDevice: DisplayPowerSwitching {
    /// Sends what is still queued and ends the worker, waiting at most `seconds`.
    func finish(waitingAtMost seconds: Double)
}

/// Keypads and remotes.
package protocol InputSource: AnyObject, Sendable {
    func start()
    /// Ungrabs the devices: keys reach the console again.
    func stop()
    /// `status`'s input devices.
    var openDevices: [StatusDocument.Input.Device] { get }
}

/// Watches a config file for changes; a watch that cannot be set up says so once (SIGHUP still
/// reloads). `start` adds its source to the session's loop.
package protocol ConfigWatching: AnyObject, Sendable {
    func start()
}

/// Hears the wall clock being set (timerfd's cancel-on-set); `start` adds its source to the loop.
package protocol ClockJumpWatching: AnyObject, Sendable {
    func start()
}

package struct ClockWatchError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// The kernel clock's discipline as adjtimex reports it.
package struct KernelClockReading: Sendable {
    package var isSynchronized: Bool
    package var estimatedErrorMicroseconds: Int
    package var maximumErrorMicroseconds: Int
    /// `synchronized (estimated error 12 µs, maximum 250 µs)`, as the journal says it.
    package var description: String

    package init(isSynchronized: Bool, estimatedErrorMicroseconds: Int, maximumErrorMicroseconds: Int, description: String) {
        self.isSynchronized = isSynchronized
        self.estimatedErrorMicroseconds = estimatedErrorMicroseconds
        self.maximumErrorMicroseconds = maximumErrorMicroseconds
        self.description = description
    }
}
