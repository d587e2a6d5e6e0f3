import CALSA
import Glibc
import MarqueeCore

/// What a non-blocking write did: expected outcomes are values; anything else is thrown.
enum ALSAWriteOutcome: Equatable {
    case written(frames: Int)
    /// The buffer is full: wait about a period.
    case wouldBlock
    /// EPIPE: the device ran dry (an xrun).
    case underrun
    /// ESTRPIPE: the system suspended the device.
    case suspended
}

/// One open playback PCM: the one Swift owner of its snd_pcm_t, closed in deinit. Not thread-safe:
/// ALSAOutput serialises every call.
final class ALSAPCM {
    let name: String
    let setup: ALSAHardwareSetup
    private let handle: OpaquePointer

    /// Opens `name` non-blocking and negotiates format, rate, channels, buffer and period.
    init(name: String, options: ALSAOutputOptions) throws(ALSAError) {
        quietLibraryErrors
        var pcm: OpaquePointer?
        let mode = Int32(SND_PCM_NONBLOCK)
        let opened = if let configuration = options.configuration {
            snd_pcm_open_lconf(&pcm, name, SND_PCM_STREAM_PLAYBACK, mode, configuration.handle)
        } else {
            snd_pcm_open(&pcm, name, SND_PCM_STREAM_PLAYBACK, mode)
        }
        try check(opened, "snd_pcm_open", device: name)
        guard let pcm else { throw ALSAError("snd_pcm_open", device: name, message: "no handle") }
        do {
            setup = try Self.configure(pcm, name: name, options: options)
        } catch {
            snd_pcm_close(pcm)
            throw error
        }
        self.name = name
        handle = pcm
    }

    deinit { snd_pcm_close(handle) }

    private static func configure(_ pcm: OpaquePointer, name: String, options: ALSAOutputOptions) throws(ALSAError) -> ALSAHardwareSetup {
        var hardware: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hardware), "snd_pcm_hw_params_malloc", device: name)
        defer { snd_pcm_hw_params_free(hardware) }
        try check(snd_pcm_hw_params_any(pcm, hardware), "snd_pcm_hw_params_any", device: name)
        try check(snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access", device: name)
        guard let format = ALSASampleFormat.choose(from: options.sampleFormats, accepted: {
            snd_pcm_hw_params_test_format(pcm, hardware, $0.alsaValue) == 0
        }) else {
            throw ALSAError("snd_pcm_hw_params_set_format", device: name,
                            message: "takes none of \(options.sampleFormats.map(\.rawValue).joined(separator: ", "))")
        }
        try check(snd_pcm_hw_params_set_format(pcm, hardware, format.alsaValue), "snd_pcm_hw_params_set_format", device: name)
        var channels = UInt32(clamping: options.preferredChannels)
        try check(snd_pcm_hw_params_set_channels_near(pcm, hardware, &channels), "snd_pcm_hw_params_set_channels_near", device: name)
        var rate = UInt32(clamping: options.preferredRate)
        var direction: Int32 = 0
        try check(snd_pcm_hw_params_set_rate_near(pcm, hardware, &rate, &direction), "snd_pcm_hw_params_set_rate_near", device: name)
        // Period first, then buffer, as aplay does: the buffer then rounds to whole periods.
        var periodMicroseconds = UInt32(clamping: options.periodTime.ticks(timescale: 1_000_000, rounding: .toNearestOrAwayFromZero))
        try check(snd_pcm_hw_params_set_period_time_near(pcm, hardware, &periodMicroseconds, &direction),
                  "snd_pcm_hw_params_set_period_time_near", device: name)
        var bufferMicroseconds = UInt32(clamping: options.bufferTime.ticks(timescale: 1_000_000, rounding: .toNearestOrAwayFromZero))
        try check(snd_pcm_hw_params_set_buffer_time_near(pcm, hardware, &bufferMicroseconds, &direction),
                  "snd_pcm_hw_params_set_buffer_time_near", device: name)
        try check(snd_pcm_hw_params(pcm, hardware), "snd_pcm_hw_params", device: name)
        var bufferFrames: snd_pcm_uframes_t = 0
        var periodFrames: snd_pcm_uframes_t = 0
        try check(snd_pcm_hw_params_get_buffer_size(hardware, &bufferFrames), "snd_pcm_hw_params_get_buffer_size", device: name)
        try check(snd_pcm_hw_params_get_period_size(hardware, &periodFrames, &direction), "snd_pcm_hw_params_get_period_size", device: name)
        let canPause = snd_pcm_hw_params_can_pause(hardware) == 1

        var software: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&software), "snd_pcm_sw_params_malloc", device: name)
        defer { snd_pcm_sw_params_free(software) }
        try check(snd_pcm_sw_params_current(pcm, software), "snd_pcm_sw_params_current", device: name)
        // Start once all but one period is queued: a quick first write does not underrun at once,
        // and a clip shorter than the buffer still starts (drain starts the rest).
        let startThreshold = max(periodFrames, bufferFrames > periodFrames ? bufferFrames - periodFrames : bufferFrames)
        try check(snd_pcm_sw_params_set_start_threshold(pcm, software, startThreshold), "snd_pcm_sw_params_set_start_threshold", device: name)
        try check(snd_pcm_sw_params_set_avail_min(pcm, software, periodFrames), "snd_pcm_sw_params_set_avail_min", device: name)
        try check(snd_pcm_sw_params(pcm, software), "snd_pcm_sw_params", device: name)

        return ALSAHardwareSetup(sampleFormat: format, sampleRate: Int(rate), channelCount: Int(channels),
                                 bufferFrames: Int(bufferFrames), periodFrames: Int(periodFrames), canPause: canPause,
                                 soundCard: soundCard(of: pcm))
    }

    /// The card behind the PCM, through every plugin in between; nil when none is.
    private static func soundCard(of pcm: OpaquePointer) -> Int? {
        var info: OpaquePointer?
        guard snd_pcm_info_malloc(&info) == 0, let info else { return nil }
        defer { snd_pcm_info_free(info) }
        guard snd_pcm_info(pcm, info) == 0 else { return nil }
        let card = snd_pcm_info_get_card(info)
        return card >= 0 ? Int(card) : nil
    }

    /// Writes up to `frames` interleaved frames from `bytes` without blocking.
    func write(_ bytes: UnsafeRawBufferPointer, frames: Int) throws(ALSAError) -> ALSAWriteOutcome {
        let result = snd_pcm_writei(handle, bytes.baseAddress, snd_pcm_uframes_t(frames))
        if result >= 0 { return .written(frames: Int(result)) }
        switch Int32(result) {
        case -EAGAIN: return .wouldBlock
        case -EPIPE: return .underrun
        case -ESTRPIPE: return .suspended
        default: throw ALSAError("snd_pcm_writei", device: name, code: Int32(result))
        }
    }

    /// After an underrun: ready to be written again. After a suspend: resumed where it was if the
    /// driver can, else prepared. False while the system is still resuming (try again shortly).
    func recover(from outcome: ALSAWriteOutcome) throws(ALSAError) -> Bool {
        if outcome == .suspended {
            let resumed = snd_pcm_resume(handle)
            if resumed == -EAGAIN { return false }
            // A resume that reports success but leaves the stream suspended would have the writer
            // retry forever at full speed: such a stream is prepared instead.
            if resumed >= 0 && state != SND_PCM_STATE_SUSPENDED { return true }
        }
        try check(snd_pcm_prepare(handle), "snd_pcm_prepare", device: name)
        return true
    }

    var state: snd_pcm_state_t { snd_pcm_state(handle) }

    var isRunning: Bool { state == SND_PCM_STATE_RUNNING }
    var isPrepared: Bool { state == SND_PCM_STATE_PREPARED }

    /// Frames written but not yet heard (snd_pcm_delay, which also syncs the hardware pointer).
    func delay() throws(ALSAError) -> Int {
        var frames: snd_pcm_sframes_t = 0
        try check(snd_pcm_delay(handle, &frames), "snd_pcm_delay", device: name)
        return frames
    }

    /// Frames that can be written now.
    func available() throws(ALSAError) -> Int {
        let frames = snd_pcm_avail_update(handle)
        if frames < 0 { throw ALSAError("snd_pcm_avail_update", device: name, code: Int32(frames)) }
        return frames
    }

    func pause(_ paused: Bool) throws(ALSAError) {
        try check(snd_pcm_pause(handle, paused ? 1 : 0), "snd_pcm_pause", device: name)
    }

    /// Discards what is queued (pause without hardware support) and makes the PCM writable again.
    func dropAndPrepare() throws(ALSAError) {
        try check(snd_pcm_drop(handle), "snd_pcm_drop", device: name)
        try check(snd_pcm_prepare(handle), "snd_pcm_prepare", device: name)
    }

    func start() throws(ALSAError) {
        try check(snd_pcm_start(handle), "snd_pcm_start", device: name)
    }

    /// Blocks until what is queued has played (a prepared PCM is started first).
    func drain() throws(ALSAError) {
        try check(snd_pcm_nonblock(handle, 0), "snd_pcm_nonblock", device: name)
        try check(snd_pcm_drain(handle), "snd_pcm_drain", device: name)
    }
}

extension ALSASampleFormat {
    var alsaValue: snd_pcm_format_t {
        switch self {
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        case .signed32: SND_PCM_FORMAT_S32_LE
        case .signed16: SND_PCM_FORMAT_S16_LE
        }
    }
}
