import Foundation
import MarqueeCore
import Yams

extension ConfigurationDecoder {
    static let syncKeys = ["epoch"]

    /// `sync: {epoch: "2026-01-01T00:00:00Z"}`. The epoch must name its zone (`Z` or an offset):
    /// devices set to other zones would otherwise disagree about it by hours.
    mutating func decodeSync(_ field: MappingField) -> SyncConfiguration? {
        guard let fields = fields(of: field.value, in: "sync", allowed: Self.syncKeys, allowsNothing: false) else { return nil }
        guard let epochField = fields["epoch"] else {
            log.error(at: field.keyPosition, "sync is missing 'epoch' (the instant every player counts the playlist's cycles from, e.g. \"2026-01-01T00:00:00Z\")")
            return nil
        }
        guard let text = string(epochField.value, expected: "an ISO 8601 instant such as \"2026-01-01T00:00:00Z\"") else { return nil }
        let hasZone = text.hasSuffix("Z") || text.hasSuffix("z") || text.range(of: #"[T ][0-9:.]+[+-][0-9:]+$"#, options: .regularExpression) != nil
        guard hasZone, let instant = WallClock(timeZone: TimeZone(identifier: "UTC")!).instant(parsingISO8601: text) else {
            log.error(at: SourcePosition(of: epochField.value),
                      "expected an ISO 8601 instant with its zone for the sync epoch, such as \"2026-01-01T00:00:00Z\" or \"2026-01-01T01:00:00+01:00\", found \(describe(epochField.value))")
            return nil
        }
        return SyncConfiguration(epochUnixSeconds: Int64(instant.timeIntervalSince1970.rounded()), epochText: text)
    }

    /// What frame-locked playback cannot do, said at the `sync` key: one playlist repeating as a
    /// whole, in order, every item every cycle, from this file.
    mutating func checkSync(_ field: MappingField, playlistFields: MappingField?, dayparts: [DaypartConfiguration],
                            remote: RemoteSourceConfiguration?) {
        let at = field.keyPosition
        if dayparts.count > 1 || playlistFields == nil && remote == nil {
            log.error(at: at, "sync needs one 'playlist' (dayparts would change the cycle the players count)")
        }
        if remote != nil {
            log.error(at: at, "sync cannot be combined with 'source' yet: give the playlist in this file")
        }
        guard dayparts.count == 1, let playlist = dayparts.first?.playlist else { return }
        switch playlist.repeat {
        case .all: break
        case .shuffle:
            log.error(at: at, "sync plays the playlist in order (repeat all): a shuffled order would differ from player to player unless each cycle shared a seed, which is not supported")
        case .off, .one:
            log.error(at: at, "sync needs repeat all (found repeat \(playlist.repeat.rawValue)): the wall's timeline is the whole playlist, looped")
        }
        if playlist.actionAtItemEnd != .advance {
            log.error(at: at, "sync needs actionAtItemEnd advance (found \(playlist.actionAtItemEnd.rawValue)): a pause at an item's end would leave the wall")
        }
        if playlist.schedule != nil || dayparts.first?.playlist.items.contains(where: { $0.schedule != nil }) == true {
            log.error(at: at, "sync cannot be combined with a schedule on the playlist or its items: every item plays every cycle")
        }
    }
}
