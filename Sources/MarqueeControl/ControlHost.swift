import MarqueeCore
import MarqueePlayer

/// What the control service needs from the program around the player: the parts that read
/// configs, encode pictures or know the devices, which live in modules the service does not
/// import. Every call is made off the present thread.
public protocol ControlHost: Sendable {
    /// Reads and checks what `load` names, with the same loader as `marquee check`.
    func loadPlaylist(_ load: ControlLoad) -> Result<LoadedPlaylist, LoadRejection>
    /// The PNG file's bytes for a screenshot.
    func pngData(_ canvas: Canvas) throws -> [UInt8]
    /// Writes a screenshot as `name` into the player's screenshots folder (never anywhere else);
    /// the file's path.
    func saveScreenshot(_ png: [UInt8], named name: String) throws -> String
    /// The output, audio device and input devices, for `status`: JSON-ready values.
    func deviceStatus() -> [String: any Sendable]
}

/// A playlist `load` read and found valid.
public struct LoadedPlaylist: Sendable {
    public var items: [QueueItem]
    /// The config's settings, for a replace; an append keeps the player's.
    public var settings: PlayerSettings
    /// Warnings the loader found (`FILE:LINE:COLUMN: warning: ...`).
    public var warnings: [String]
    /// Remote items the host downloads and verifies first: with any, the host hands the playlist
    /// to the player itself once they are in place (a `queueReplaced` event says when); the
    /// service only replies.
    public var staged: Int

    public init(items: [QueueItem], settings: PlayerSettings, warnings: [String] = [], staged: Int = 0) {
        self.items = items
        self.settings = settings
        self.warnings = warnings
        self.staged = staged
    }
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
