import MarqueeCore
import Yams

extension ConfigurationDecoder {
    static let playlistKeys = ["repeat", "seed", "actionAtItemEnd", "items", "schedule"]
    static let itemKeys = ["url", "start", "end", "duration", "scaling", "title", "cues", "schedule", "stream", "sha256", "size", "id"]

    mutating func decodePlaylist(_ field: MappingField) -> PlaylistConfiguration? {
        guard let fields = fields(of: field.value, in: "playlist", allowed: Self.playlistKeys) else { return nil }
        return decodePlaylist(fields, at: field.keyPosition, in: "playlist")
    }

    /// A playlist's keys, read from `fields` (a daypart's mapping has more); `section` names it in messages.
    mutating func decodePlaylist(_ fields: [String: MappingField], at position: SourcePosition,
                                 in section: String) -> PlaylistConfiguration? {
        let repeatMode: RepeatMode? = fields["repeat"].flatMap { choice($0.value, named: "repeat mode") }
        let seed = fields["seed"].flatMap { decodeSeed($0.value) }
        let endAction: ActionAtItemEnd? = fields["actionAtItemEnd"].flatMap { choice($0.value, named: "action at item end") }
        guard let itemsField = fields["items"] else {
            log.error(at: position, "\(section) is missing 'items' (the list of media to play)")
            return nil
        }
        let items = decodeItems(itemsField.value)
        let schedule = fields["schedule"].flatMap { decodeSchedule($0.value) }
        return PlaylistConfiguration(repeat: repeatMode ?? PlaylistConfiguration.defaultRepeat, seed: seed,
                                     actionAtItemEnd: endAction ?? .advance, items: items, schedule: schedule)
    }

    private mutating func decodeSeed(_ node: Node) -> UInt64? {
        guard tagName(node) == .int, case .scalar(let scalar) = node,
              let seed = UInt64(scalar.string) ?? node.int.flatMap(UInt64.init(exactly:)) else {
            log.error(at: SourcePosition(of: node), "expected a whole number from 0 to \(UInt64.max) for the shuffle seed, found \(describe(node))")
            return nil
        }
        return seed
    }

    private mutating func decodeItems(_ node: Node) -> [PlaylistItemConfiguration] {
        guard case .sequence(let sequence) = node else {
            log.error(at: SourcePosition(of: node), "expected a list of items, found \(describe(node))")
            return []
        }
        if sequence.isEmpty {
            log.error(at: SourcePosition(of: node), "the playlist has no items")
        }
        return sequence.compactMap { decodeItem($0) }
    }

    /// A mapping, or just the url as a string (`- media/intro.mp4`).
    private mutating func decodeItem(_ node: Node) -> PlaylistItemConfiguration? {
        let place = SourcePosition(of: node)
        let item = decodeItemFields(node)
        if item != nil { itemPlaces.append(SyncConfiguration.Place(line: place.line, column: place.column)) }
        return item
    }

    private mutating func decodeItemFields(_ node: Node) -> PlaylistItemConfiguration? {
        if case .scalar = node, !isNothing(node) {
            return location(node).map { PlaylistItemConfiguration(location: $0) }
        }
        guard let fields = fields(of: node, in: "playlist item", allowed: Self.itemKeys, allowsNothing: false) else {
            return nil
        }
        let start = fields["start"].flatMap { time($0.value) }
        let end = fields["end"].flatMap { time($0.value) }
        let duration = fields["duration"].flatMap { time($0.value) }
        checkTiming(fields, start: start, end: end, duration: duration)
        let scaling: ScalingMode? = fields["scaling"].flatMap { choice($0.value, named: "scaling mode") }
        let title = fields["title"].flatMap { string($0.value) }
        let id = fields["id"].flatMap { itemID($0.value) }
        let cues = fields["cues"].map { decodeCues($0.value) } ?? []
        let schedule = fields["schedule"].flatMap { decodeSchedule($0.value) }
        guard let urlField = fields["url"] else {
            log.error(at: SourcePosition(of: node), "playlist item is missing 'url'")
            return nil
        }
        guard let location = location(urlField.value) else { return nil }
        let stream = fields["stream"].flatMap { bool($0.value) } ?? false
        let sha256 = fields["sha256"].flatMap { decodeSHA256($0.value) }
        let size = fields["size"].flatMap { decodeFileSize($0.value) }
        if location.isFile {
            for key in ["stream", "sha256", "size"] {
                if let field = fields[key] { log.warning(at: field.keyPosition, "'\(key)' applies to http(s) media only; ignored for a local file") }
            }
        } else if stream {
            for key in ["sha256", "size"] {
                if let field = fields[key] { log.warning(at: field.keyPosition, "'\(key)' is ignored for a stream (it is not downloaded)") }
            }
        }
        return PlaylistItemConfiguration(location: location, start: start, end: end, duration: duration,
                                         scaling: scaling, title: title, cues: cues, schedule: schedule,
                                         stream: stream, sha256: sha256, size: size, id: id)
    }

    /// `id:` what the play ledger names the item by (a creative's id in the CMS): one line of text.
    private mutating func itemID(_ node: Node) -> String? {
        guard let text = string(node, expected: "an id (a creative's id, one line of text)") else { return nil }
        let id = text.trimmingCharacters(in: .whitespaces)
        guard !id.isEmpty, id.count <= 200, !id.contains(where: \.isNewline) else {
            log.error(at: SourcePosition(of: node), "expected an id of 1 to 200 characters on one line, found \(describe(node))")
            return nil
        }
        return id
    }

    /// `size:` the file's exact size in bytes, as a CMS lists it beside its hash.
    private mutating func decodeFileSize(_ node: Node) -> Int64? {
        guard case .scalar(let scalar) = node, let bytes = Int64(scalar.string), bytes > 0 else {
            log.error(at: SourcePosition(of: node), "expected the file's size in bytes (a whole number above 0), found \(describe(node))")
            return nil
        }
        return bytes
    }

    /// 64 hex digits, either case; kept lower-case, as `sha256sum` prints it.
    private mutating func decodeSHA256(_ node: Node) -> String? {
        guard let text = string(node, expected: "a SHA-256 (64 hex digits)") else { return nil }
        let digest = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard digest.count == 64, digest.allSatisfy({ $0.isHexDigit }) else {
            log.error(at: SourcePosition(of: node), "expected a SHA-256 (64 hex digits), found '\(text)'")
            return nil
        }
        return digest
    }

    /// `cues: [12.0, "1:23.2"]`: media times whose crossing is a `boundary` event.
    private mutating func decodeCues(_ node: Node) -> [MediaTime] {
        guard case .sequence(let sequence) = node else {
            log.error(at: SourcePosition(of: node), "expected a list of cue times (seconds or [hh:]mm:ss[.fff]), found \(describe(node))")
            return []
        }
        return sequence.compactMap { time($0) }
    }

    private mutating func location(_ node: Node) -> MediaLocation? {
        guard let text = string(node, expected: "a file path or URL") else { return nil }
        let reader = MediaLocationReader(baseDirectory: baseDirectory, checkingMediaFiles: checkingMediaFiles, mediaBase: mediaBase)
        return reader.read(text, at: SourcePosition(of: node), log: &log)
    }

    /// The rules are ItemTiming's, so config checking and playback never disagree; only the position
    /// of each complaint is decided here. The media's own duration is unknown until playback.
    private mutating func checkTiming(_ fields: [String: MappingField], start: MediaTime?, end: MediaTime?, duration: MediaTime?) {
        let resolved = ItemTiming.resolve(start: start, end: end, duration: duration, mediaDuration: nil, isStillImage: false)
        guard case .failure(let error) = resolved else { return }
        let position: SourcePosition?
        switch error {
        case .endNotAfterStart: position = fields["end"]?.valuePosition
        case .endAndDuration: position = fields["duration"]?.keyPosition
        case .nonPositiveDuration: position = fields["duration"]?.valuePosition
        case .negativeStart, .startBeyondMedia: position = fields["start"]?.valuePosition
        }
        if let position { log.error(at: position, error.description) }
    }
}
