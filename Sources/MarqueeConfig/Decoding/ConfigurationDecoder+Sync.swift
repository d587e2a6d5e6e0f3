import Foundation
import MarqueeCore
import Yams

extension ConfigurationDecoder {
    static let syncKeys = ["epoch"]

    /// `sync: {epoch: "2026-01-01T00:00:00Z"}`. The epoch must name its zone (`Z` or an offset):
    /// devices set to other zones would otherwise disagree about it by hours. Unix seconds
    /// (`1767225600.25`) name none and need none. Either is kept to the millisecond (SyncEpochReader).
    mutating func decodeSync(_ field: MappingField) -> SyncConfiguration? {
        guard let fields = fields(of: field.value, in: "sync", allowed: Self.syncKeys, allowsNothing: false) else { return nil }
        guard let epochField = fields["epoch"] else {
            log.error(at: field.keyPosition, "sync is missing 'epoch' (the instant every player counts the playlist's cycles from, e.g. \"2026-01-01T00:00:00Z\")")
            return nil
        }
        guard let text = string(epochField.value, expected: "an ISO 8601 instant such as \"2026-01-01T00:00:00Z\"") else { return nil }
        switch SyncEpochReader.read(text) {
        case .milliseconds(let milliseconds):
            return SyncConfiguration(epochUnixMilliseconds: milliseconds, epochText: text)
        case .finerThanAMillisecond:
            log.error(at: SourcePosition(of: epochField.value),
                      "the sync epoch is kept to the millisecond: '\(text)' has fractional seconds finer than that (give at most 3 digits after the point, such as \"2026-01-01T00:00:00.250Z\")")
        case .notAnInstant:
            log.error(at: SourcePosition(of: epochField.value),
                      "expected an ISO 8601 instant with its zone for the sync epoch, such as \"2026-01-01T00:00:00Z\" or \"2026-01-01T01:00:00.250+01:00\", or Unix seconds such as 1767225600.25, found \(describe(epochField.value))")
        }
        return nil
    }

    /// What frame-locked playback cannot do: one playlist repeating as a whole, in order, every
    /// item every cycle, from this file. Each refusal is said at the key that must change (the
    /// playlist's `repeat:`, `actionAtItemEnd:`, `schedule:`, the `playlists:` or `source:` key), so
    /// the operator's editor lands on it; at the `sync` key when that key is not in the file (a
    /// default that does not suit a wall).
    mutating func checkSync(_ field: MappingField, fields: [String: MappingField], dayparts: [DaypartConfiguration],
                            remote: RemoteSourceConfiguration?) {
        let at = field.keyPosition
        let playlistNode = fields["playlist"]?.value
        func place(_ key: String) -> SourcePosition { playlistNode.flatMap { Self.keyPosition(of: key, in: $0) } ?? at }
        if dayparts.count > 1 || fields["playlist"] == nil && remote == nil {
            log.error(at: fields["playlists"]?.keyPosition ?? at, "sync needs one 'playlist' (dayparts would change the cycle the players count)")
        }
        if remote != nil {
            log.error(at: fields["source"]?.keyPosition ?? at, "sync cannot be combined with 'source' yet: give the playlist in this file")
        }
        guard dayparts.count == 1, let playlist = dayparts.first?.playlist else { return }
        switch playlist.repeat {
        case .all: break
        case .shuffle:
            log.error(at: place("repeat"), "sync plays the playlist in order (repeat all): a shuffled order would differ from player to player unless each cycle shared a seed, which is not supported")
        case .off, .one:
            log.error(at: place("repeat"), "sync needs repeat all (found repeat \(playlist.repeat.rawValue)): the wall's timeline is the whole playlist, looped")
        }
        if playlist.actionAtItemEnd != .advance {
            log.error(at: place("actionAtItemEnd"), "sync needs actionAtItemEnd advance (found \(playlist.actionAtItemEnd.rawValue)): a pause at an item's end would leave the wall")
        }
        if playlist.schedule != nil || playlist.items.contains(where: { $0.schedule != nil }) {
            // The playlist's own window first, else the first item that has one.
            let itemSchedule = playlistNode.flatMap { Self.value(of: "items", in: $0) }?.sequence?
                .lazy.compactMap { Self.keyPosition(of: "schedule", in: $0) }.first
            let position = playlistNode.flatMap { Self.keyPosition(of: "schedule", in: $0) } ?? itemSchedule ?? at
            log.error(at: position, "sync cannot be combined with a schedule on the playlist or its items: every item plays every cycle")
        }
    }

    /// Where `key` is written in the mapping `node`; nil when it is not (absent, merged in with
    /// `<<`, or `node` is no mapping). Reads only: the decoding has reported any problem already.
    static func keyPosition(of key: String, in node: Node) -> SourcePosition? {
        node.mapping?.first { $0.key.scalar?.string == key }.map { SourcePosition(of: $0.key) }
    }

    /// The value of `key` in the mapping `node`, if written there.
    static func value(of key: String, in node: Node) -> Node? {
        node.mapping?.first { $0.key.scalar?.string == key }?.value
    }
}
