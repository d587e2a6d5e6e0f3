import CFFmpeg
import MarqueeCore

/// How long before a seek's target an audio stream's decoding must start so that, from the target
/// on, it gives exactly the samples a decode from the file's start gives.
///
/// A decoder restarted after a seek has lost its history: MP3 refers back up to 511 bytes into the
/// frames before (the bit reservoir; without them LAME's frames decode to silence) and, like every
/// MDCT codec (AAC, AC-3, Vorbis), overlaps each frame with the one before; Opus needs 80 ms to
/// converge (RFC 7845 §4.6); MP2's synthesis filter keeps 512 samples. Lossless frames (FLAC, PCM)
/// stand alone. Every codec also gets `resamplerMargin`, so that the resampler, started afresh
/// with the run, has its filter full of real samples by the target.
enum AudioPreRoll {
    /// Longer than libswresample's default filter (32 taps each side) at any rate above 6.4 kHz.
    static let resamplerMargin = MediaTime(5, per: 1000)
    /// The bit reservoir's reach: main_data_begin is 9 bits of bytes.
    static let mp3ReservoirBytes: Int64 = 511
    /// Assumed when an MP3 stream states no bit rate: MPEG-1 layer III's lowest, where the
    /// reservoir reaches furthest back.
    static let lowestMP3BitRate: Int64 = 32_000
    /// Opus's recommended pre-roll, when the container does not state one.
    static let opusPreRoll = MediaTime(80, per: 1000)
    /// For a codec not known here: long enough for the MDCT codecs' overlap at common rates.
    static let unknownCodecPreRoll = MediaTime(100, per: 1000)

    /// The pre-roll of the audio stream `stream`.
    static func duration(of stream: UnsafePointer<AVStream>) -> MediaTime {
        let parameters = stream.pointee.codecpar.pointee
        let rate = Int64(max(parameters.sample_rate, 1))
        let statedFrameSize = Int64(parameters.frame_size)
        func frames(_ count: Int64, of defaultSize: Int64) -> MediaTime {
            MediaTime(count * (statedFrameSize > 0 ? statedFrameSize : defaultSize), per: rate)
        }
        let codecPreRoll: MediaTime
        switch parameters.codec_id {
        case AV_CODEC_ID_FLAC, AV_CODEC_ID_ALAC, AV_CODEC_ID_WAVPACK, AV_CODEC_ID_TTA,
             AV_CODEC_ID_PCM_S16LE, AV_CODEC_ID_PCM_S16BE, AV_CODEC_ID_PCM_S24LE, AV_CODEC_ID_PCM_S24BE,
             AV_CODEC_ID_PCM_S32LE, AV_CODEC_ID_PCM_S32BE, AV_CODEC_ID_PCM_F32LE, AV_CODEC_ID_PCM_F32BE,
             AV_CODEC_ID_PCM_F64LE, AV_CODEC_ID_PCM_U8, AV_CODEC_ID_PCM_S8, AV_CODEC_ID_PCM_ALAW,
             AV_CODEC_ID_PCM_MULAW, AV_CODEC_ID_PCM_DVD, AV_CODEC_ID_PCM_BLURAY:
            codecPreRoll = .zero
        case AV_CODEC_ID_MP3:
            let bitRate = parameters.bit_rate > 0 ? parameters.bit_rate : lowestMP3BitRate
            codecPreRoll = frames(2, of: 1152) + MediaTime(mp3ReservoirBytes * 8, per: bitRate)
        case AV_CODEC_ID_MP1, AV_CODEC_ID_MP2:
            codecPreRoll = frames(2, of: 1152)
        case AV_CODEC_ID_AAC, AV_CODEC_ID_AAC_LATM:
            codecPreRoll = frames(3, of: 1024)
        case AV_CODEC_ID_AC3, AV_CODEC_ID_EAC3:
            codecPreRoll = frames(2, of: 1536)
        case AV_CODEC_ID_VORBIS:
            // Blocks of up to 8192 samples; libvorbis writes 256 and 2048. Two of the long ones.
            codecPreRoll = MediaTime(2 * 2048, per: rate)
        case AV_CODEC_ID_OPUS:
            // Opus states its pre-roll in 48 kHz samples whatever its input rate was.
            codecPreRoll = parameters.seek_preroll > 0 ? MediaTime(Int64(parameters.seek_preroll), per: 48_000) : opusPreRoll
        default:
            if parameters.seek_preroll > 0 {
                codecPreRoll = MediaTime(Int64(parameters.seek_preroll), per: rate)
            } else if statedFrameSize > 0 {
                codecPreRoll = frames(2, of: statedFrameSize)
            } else {
                codecPreRoll = unknownCodecPreRoll
            }
        }
        return codecPreRoll + resamplerMargin
    }
}
