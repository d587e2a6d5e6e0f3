/// `sync: {epoch: "2026-01-01T00:00:00Z"}`: frame-locked playback. The playlist's gapless timeline
/// is anchored to the epoch, so every player with this config and a synchronized clock shows the
/// same frame at the same moment (a video wall, a row of menu boards).
public struct SyncConfiguration: Sendable, Equatable {
    /// The epoch in milliseconds since 1970-01-01T00:00:00Z, as written (never rounded: players
    /// that rounded differently would be a fraction of a second apart).
    public var epochUnixMilliseconds: Int64
    /// The epoch as the config wrote it, for messages and the status.
    public var epochText: String
    /// Where each item of the playlist is written (line, column), in order: `marquee check` names an
    /// item whose length is not known at its place.
    public var itemPlaces: [Place]

    public struct Place: Sendable, Equatable {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    public init(epochUnixMilliseconds: Int64, epochText: String, itemPlaces: [Place] = []) {
        self.epochUnixMilliseconds = epochUnixMilliseconds
        self.epochText = epochText
        self.itemPlaces = itemPlaces
    }
}
