import MarqueeCore

/// What the control service needs from the program around the player: the parts that read
/// configs, encode pictures or know the devices, which live in modules the service does not
/// import. Every call is made off the present thread.
public protocol ControlHost: Sendable {
    /// Reads and checks what `load` names, with the same loader as `marquee check`, and hands the
    /// playlist to the player: at once, or once its remote items are downloaded and verified.
    /// With `load.waits`, `handedOver` hears once whether the player took the playlist or a newer
    /// plan replaced it while its downloads ran; it is never called for a refused load.
    func load(_ load: ControlLoad, handedOver: @escaping @Sendable (LoadHandOver) -> Void) -> Result<LoadOutcome, LoadRejection>
    /// A screenshot scaled down to at most `width` pixels across (nil: as it is) and encoded as
    /// `format`: a reply's picture, a file in the screenshots folder, MQTT's `TOPIC/screenshot`.
    func image(_ canvas: Canvas, width: Int?, format: ImageFileFormat) throws -> EncodedImage
    /// Writes a screenshot as `name` into the player's screenshots folder (never anywhere else);
    /// the file's path.
    func saveScreenshot(_ png: [UInt8], named name: String) throws -> String
    /// The output, audio device, input devices, cache, wall clock and screens, for `status`.
    func deviceStatus() -> DeviceStatus
}

/// A `load` read, found valid and handed over (or staged).
public struct LoadOutcome: Sendable, Equatable {
    public var itemCount: Int
    /// Warnings the loader found (`FILE:LINE:COLUMN: warning: ...`).
    public var warnings: [String]
    /// Remote items downloaded and verified before the playlist goes to the player (a
    /// `queueReplaced` event says when it does); 0: it went at once.
    public var staged: Int

    public init(itemCount: Int, warnings: [String] = [], staged: Int = 0) {
        self.itemCount = itemCount
        self.warnings = warnings
        self.staged = staged
    }
}

/// What became of a load the reply waits for.
public enum LoadHandOver: Sendable, Equatable {
    /// The player has it (its downloads done; any item that failed for good left out).
    case taken
    /// Another plan (a reload, a fetched config, another load) came before its downloads ended.
    case superseded
}

/// Why `load` refused: a summary and the loader's lines, `FILE:LINE:COLUMN: error: message`.
public struct LoadRejection: Error, Sendable {
    public var summary: String
    public var diagnostics: [String]

    public init(summary: String, diagnostics: [String]) {
        self.summary = summary
        self.diagnostics = diagnostics
    }
}
