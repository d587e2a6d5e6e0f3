import Foundation

/// Everything a config file says: what to play, where to show it, where to play its sound and
/// which keys drive it. Missing sections take their defaults.
public struct MarqueeConfiguration: Sendable, Equatable, Codable {
    public var playlist: PlaylistConfiguration
    public var display: DisplayConfiguration
    public var audio: AudioConfiguration
    public var input: InputConfiguration
    public var network: NetworkConfiguration
    public var control: ControlConfiguration
    public var osd: OSDConfiguration
    public var log: LogConfiguration
    /// The config file this came from; relative media paths were resolved against its folder.
    public var source: URL

    public init(playlist: PlaylistConfiguration,
                display: DisplayConfiguration = DisplayConfiguration(),
                audio: AudioConfiguration = AudioConfiguration(),
                input: InputConfiguration = InputConfiguration(),
                network: NetworkConfiguration = NetworkConfiguration(),
                control: ControlConfiguration = ControlConfiguration(),
                osd: OSDConfiguration = OSDConfiguration(),
                log: LogConfiguration = LogConfiguration(),
                source: URL) {
        self.playlist = playlist
        self.display = display
        self.audio = audio
        self.input = input
        self.network = network
        self.control = control
        self.osd = osd
        self.log = log
        self.source = source
    }
}
