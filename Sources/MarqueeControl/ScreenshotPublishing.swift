import MarqueeCore

/// What `mqtt.screenshots` asks of the MQTT node: how often, how large, in which format, of which
/// screens, and the encoder (FFmpeg's, in a module this one does not import).
public struct ScreenshotPublishing: Sendable {
    /// One screen whose picture is published: on `TOPIC/screenshot`, or with a name (a screen of
    /// `displays:`) on `TOPIC/screenshot/NAME`.
    public struct Screen: Sendable {
        public var name: String?
        public var player: any ControlledPlayer

        public init(name: String?, player: any ControlledPlayer) {
            self.name = name
            self.player = player
        }
    }

    public var every: Double
    public var width: Int
    public var format: ImageFileFormat
    public var screens: [Screen]
    /// Scales and encodes one picture; called off the present thread.
    public var encode: @Sendable (_ canvas: Canvas, _ width: Int, _ format: ImageFileFormat) throws -> EncodedImage
    /// How long after (re)connecting the first picture is taken: long enough for the first frame
    /// to be on screen at start, and an outage's stale picture replaced soon after it ends.
    public var settle = 2.0

    public init(every: Double, width: Int, format: ImageFileFormat, screens: [Screen],
                encode: @escaping @Sendable (Canvas, Int, ImageFileFormat) throws -> EncodedImage) {
        self.every = every
        self.width = width
        self.format = format
        self.screens = screens
        self.encode = encode
    }
}
