import CALSA

/// An ALSA configuration tree parsed from text (asoundrc syntax), used instead of the system's
/// when opening a PCM: tests define `file` and `null` PCMs with it, no sound card or environment
/// variable needed. The one owner of its snd_config_t, deleted in deinit.
public final class ALSAConfiguration: @unchecked Sendable {
    let handle: OpaquePointer

    public init(text: String) throws(ALSAError) {
        var top: OpaquePointer?
        try check(snd_config_top(&top), "snd_config_top", device: "configuration")
        guard let top else { throw ALSAError("snd_config_top", device: "configuration", message: "no tree") }
        var input: OpaquePointer?
        var bytes = Array(text.utf8)
        let opened = bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                snd_input_buffer_open(&input, $0, buffer.count)
            }
        }
        guard opened >= 0, let input else {
            snd_config_delete(top)
            throw ALSAError("snd_input_buffer_open", device: "configuration", code: opened < 0 ? opened : -ENOMEM)
        }
        let loaded = snd_config_load(top, input)
        snd_input_close(input)
        guard loaded >= 0 else {
            snd_config_delete(top)
            throw ALSAError("snd_config_load", device: "configuration", code: loaded)
        }
        handle = top
    }

    deinit { snd_config_delete(handle) }
}
