import CALSA
import Glibc

/// One sound card: its index, id and names, and the devices it can play on (`hw:CARD,DEVICE`).
public struct ALSACardInfo: Sendable, Equatable {
    public struct PlaybackDevice: Sendable, Equatable {
        public var device: Int
        public var id: String
        public var name: String
    }

    public var index: Int
    public var id: String
    public var name: String
    public var longName: String
    public var playbackDevices: [PlaybackDevice]
}

/// A PCM name from the configuration (`default`, `sysdefault:CARD=PCH`, `hdmi:CARD=...`), as
/// snd_device_name_hint lists them.
public struct ALSAPCMHint: Sendable, Equatable {
    public var name: String
    public var description: String
    /// "Input", "Output" or nil for both.
    public var direction: String?
}

/// `marquee probe` without media: the sound cards and PCM names, read without opening a PCM.
public enum ALSAInventory {
    /// Whether any sound card exists (snd_card_next finds one).
    public static var hasSoundCard: Bool {
        quietLibraryErrors
        var card: Int32 = -1
        return snd_card_next(&card) >= 0 && card >= 0
    }

    public static func cards() -> [Result<ALSACardInfo, ALSAError>] {
        quietLibraryErrors
        var results: [Result<ALSACardInfo, ALSAError>] = []
        var card: Int32 = -1
        while true {
            let next = snd_card_next(&card)
            if next < 0 {
                results.append(.failure(ALSAError("snd_card_next", device: "cards", code: next)))
                break
            }
            if card < 0 { break }
            results.append(Result { () throws(ALSAError) in try info(ofCard: Int(card)) })
        }
        return results
    }

    static func info(ofCard index: Int) throws(ALSAError) -> ALSACardInfo {
        let name = "hw:\(index)"
        var control: OpaquePointer?
        try check(snd_ctl_open(&control, name, 0), "snd_ctl_open", device: name)
        guard let control else { throw ALSAError("snd_ctl_open", device: name, message: "no handle") }
        defer { snd_ctl_close(control) }
        var cardInfo: OpaquePointer?
        try check(snd_ctl_card_info_malloc(&cardInfo), "snd_ctl_card_info_malloc", device: name)
        defer { snd_ctl_card_info_free(cardInfo) }
        try check(snd_ctl_card_info(control, cardInfo), "snd_ctl_card_info", device: name)
        var info = ALSACardInfo(index: index, id: text(snd_ctl_card_info_get_id(cardInfo)),
                                name: text(snd_ctl_card_info_get_name(cardInfo)),
                                longName: text(snd_ctl_card_info_get_longname(cardInfo)), playbackDevices: [])
        var pcmInfo: OpaquePointer?
        try check(snd_pcm_info_malloc(&pcmInfo), "snd_pcm_info_malloc", device: name)
        defer { snd_pcm_info_free(pcmInfo) }
        var device: Int32 = -1
        while snd_ctl_pcm_next_device(control, &device) >= 0, device >= 0 {
            snd_pcm_info_set_device(pcmInfo, UInt32(device))
            snd_pcm_info_set_subdevice(pcmInfo, 0)
            snd_pcm_info_set_stream(pcmInfo, SND_PCM_STREAM_PLAYBACK)
            // A capture-only device answers ENOENT here: it is not listed.
            guard snd_ctl_pcm_info(control, pcmInfo) >= 0 else { continue }
            info.playbackDevices.append(.init(device: Int(device), id: text(snd_pcm_info_get_id(pcmInfo)),
                                              name: text(snd_pcm_info_get_name(pcmInfo))))
        }
        return info
    }

    /// PCM names that can play (direction Output or both).
    public static func playbackPCMs() -> Result<[ALSAPCMHint], ALSAError> {
        quietLibraryErrors
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        let listed = snd_device_name_hint(-1, "pcm", &hints)
        guard listed >= 0, let hints else { return .failure(ALSAError("snd_device_name_hint", device: "pcm", code: listed < 0 ? listed : -ENOENT)) }
        defer { snd_device_name_free_hint(hints) }
        var found: [ALSAPCMHint] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            let name = owned(snd_device_name_get_hint(hint, "NAME"))
            let description = owned(snd_device_name_get_hint(hint, "DESC"))
            let direction = owned(snd_device_name_get_hint(hint, "IOID"))
            guard let name, direction != "Input" else { continue }
            found.append(ALSAPCMHint(name: name, description: (description ?? "").split(whereSeparator: \.isNewline).joined(separator: ", "),
                                     direction: direction))
        }
        return .success(found)
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// A string ALSA allocated for us: copied, then freed.
    private static func owned(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
