import MarqueeCore
import Yams

extension ConfigurationDecoder {
    static let daypartKeys = playlistKeys + ["priority", "interrupt"]

    /// `playlists:` as a mapping of names to playlists (`breakfast: {schedule: ..., items: ...}`),
    /// in the order written; or, for JSON written by tools that do not keep key order, a list of
    /// playlists that each carry a `name`.
    mutating func decodeDayparts(_ field: MappingField) -> [DaypartConfiguration]? {
        var named: [(name: String, key: Node, value: Node)] = []
        if field.value.mapping?.isEmpty ?? field.value.sequence?.isEmpty ?? false {
            log.error(at: field.valuePosition, "'playlists' names no playlist")
            return nil
        }
        switch field.value {
        case .mapping(let mapping):
            for (key, value) in mapping {
                guard case .scalar(let scalar) = key, !isNothing(key) else {
                    log.error(at: SourcePosition(of: key), "expected a playlist name, found \(describe(key))")
                    continue
                }
                if duplicateKeySentinels.contains(scalar.string) { continue }
                if scalar.string == "<<" && tagName(key) == .merge {
                    log.error(at: SourcePosition(of: key), "'<<' cannot merge playlists; give each playlist its own name")
                    continue
                }
                named.append((scalar.string, key, value))
            }
        case .sequence(let sequence):
            named = sequence.compactMap { listedPlaylist($0) }
        default:
            log.error(at: field.valuePosition,
                      "expected a mapping of playlist names to playlists (e.g. breakfast: {items: [...]}), found \(describe(field.value))")
            return nil
        }
        var dayparts: [(daypart: DaypartConfiguration, key: Node)] = []
        for (name, key, value) in named {
            if dayparts.contains(where: { $0.daypart.name == name }) {
                log.error(at: SourcePosition(of: key), "a second playlist named '\(name)'")
                continue
            }
            if let daypart = decodeDaypart(named: name, key: key, value: value) { dayparts.append((daypart, key)) }
        }
        warnAboutOverlaps(dayparts)
        return dayparts.map(\.daypart)
    }

    /// One entry of the list spelling: a playlist mapping with a `name`.
    private mutating func listedPlaylist(_ node: Node) -> (name: String, key: Node, value: Node)? {
        guard case .mapping(let mapping) = node else {
            log.error(at: SourcePosition(of: node), "expected a playlist with a 'name', found \(describe(node))")
            return nil
        }
        guard let pair = mapping.first(where: { $0.key.string == "name" }) else {
            log.error(at: SourcePosition(of: node), "this playlist has no 'name'")
            return nil
        }
        guard let name = string(pair.value, expected: "a playlist name") else { return nil }
        let rest = Node.Mapping(mapping.filter { $0.key.string != "name" }.map { ($0.key, $0.value) }, mapping.tag, mapping.style, mapping.mark)
        return (name, pair.value, .mapping(rest))
    }

    private mutating func decodeDaypart(named name: String, key: Node, value: Node) -> DaypartConfiguration? {
        let section = "playlist '\(name)'"
        guard let fields = fields(of: value, in: section, allowed: Self.daypartKeys, allowsNothing: false) else { return nil }
        let priority = fields["priority"].flatMap { wholeNumber($0.value) }
        let interrupt = fields["interrupt"].flatMap { bool($0.value) }
        if name == Daypart.defaultName, let field = fields["priority"] {
            log.warning(at: field.keyPosition, "'priority' does nothing on the default playlist: it plays only when no other does")
        }
        guard let playlist = decodePlaylist(fields, at: SourcePosition(of: key), in: section) else { return nil }
        return DaypartConfiguration(name: name, priority: priority ?? 0, interrupt: interrupt ?? false, playlist: playlist)
    }

    /// Two dayparts that can play at the same time with the same priority are decided by their
    /// order alone, which is easy to get wrong by moving one: say so at the one that loses.
    private mutating func warnAboutOverlaps(_ dayparts: [(daypart: DaypartConfiguration, key: Node)]) {
        let competing = dayparts.filter { $0.daypart.name != Daypart.defaultName }
        for (index, later) in competing.enumerated() {
            for earlier in competing[..<index] where earlier.daypart.priority == later.daypart.priority {
                guard let overlap = ScheduleOverlap.find(earlier.daypart.playlist.schedule, later.daypart.playlist.schedule) else {
                    continue
                }
                log.warning(at: SourcePosition(of: later.key),
                            "playlist '\(later.daypart.name)' overlaps '\(earlier.daypart.name)' (from \(overlap)) with the same priority; "
                                + "'\(earlier.daypart.name)' plays, as it is listed first (set 'priority' to choose)")
                break
            }
        }
    }
}
