import Foundation

/// The files of the trim matrix (TrimMatrixTests): one per container and codec, 160x120 testsrc2
/// and a 1 kHz sine (the sine source's 1/8 amplitude), short enough that the whole matrix decodes
/// in seconds. Key frames come at exact multiples of the GOP (no scene-cut key frames), so each
/// test knows where they are.
extension FixtureMedia.Recipe {
    /// `seconds` of 160x120 testsrc2 at `rate` and, with `audio`, a 1 kHz sine at `sampleRate` Hz,
    /// encoded with `video` and `audio` arguments.
    static func trimClip(name: String, seconds: Double, rate: String = "25", video: [String],
                         audio: [String]? = nil, sampleRate: Int = 48_000, extra: [String] = []) -> Self {
        Self(name: name) { output in
            var arguments = ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=\(rate):duration=\(seconds)"]
            if audio != nil {
                arguments += ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=\(sampleRate):duration=\(seconds)"]
            }
            try FixtureMedia.ffmpeg(arguments + video + (audio ?? []) + extra + [output.path])
        }
    }

    /// `seconds` of a 1 kHz sine at 44.1 kHz mono, encoded with `audio`.
    static func trimTone(name: String, seconds: Double = 3, audio: [String]) -> Self {
        Self(name: name) { output in
            try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=\(seconds)"]
                + audio + [output.path])
        }
    }

    /// x264 with two B-frames and a key frame exactly every `gop` frames; `openGOP` lets the
    /// B-frames before each key frame (after it in decode order) refer across it.
    static func x264(gop: Int, openGOP: Bool = false) -> [String] {
        ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-bf", "2", "-g", "\(gop)",
         "-keyint_min", "\(gop)", "-sc_threshold", "0"] + (openGOP ? ["-x264-params", "open-gop=1"] : [])
    }

    static let aac = ["-c:a", "aac", "-b:a", "64k"]

    // H.264: GOP 15 (0.6 s) and GOP 250 (10 s, so 11 s files), closed and open, in three containers.
    static let trimH264GOP15MP4 = trimClip(name: "trim-h264-gop15.mp4", seconds: 3, video: x264(gop: 15), audio: aac)
    static let trimH264GOP15MKV = trimClip(name: "trim-h264-gop15.mkv", seconds: 3, video: x264(gop: 15), audio: aac)
    static let trimH264GOP15TS = trimClip(name: "trim-h264-gop15.ts", seconds: 3, video: x264(gop: 15), audio: aac)
    static let trimH264GOP250MP4 = trimClip(name: "trim-h264-gop250.mp4", seconds: 11, video: x264(gop: 250), audio: aac)
    static let trimH264GOP250MKV = trimClip(name: "trim-h264-gop250.mkv", seconds: 11, video: x264(gop: 250), audio: aac)
    static let trimH264GOP250TS = trimClip(name: "trim-h264-gop250.ts", seconds: 11, video: x264(gop: 250), audio: aac)
    static let trimH264OpenGOPMP4 = trimClip(name: "trim-h264-open-gop.mp4", seconds: 3, video: x264(gop: 15, openGOP: true), audio: aac)
    static let trimH264OpenGOPMKV = trimClip(name: "trim-h264-open-gop.mkv", seconds: 3, video: x264(gop: 15, openGOP: true), audio: aac)
    static let trimH264OpenGOPTS = trimClip(name: "trim-h264-open-gop.ts", seconds: 3, video: x264(gop: 15, openGOP: true), audio: aac)

    /// HEVC (x265, two B-frames, a key frame every 15 frames) and AAC in MP4.
    static let trimHEVCMP4 = trimClip(name: "trim-hevc.mp4", seconds: 3, video: [
        "-c:v", "libx265", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-tag:v", "hvc1",
        "-x265-params", "log-level=error:keyint=15:min-keyint=15:scenecut=0:bframes=2",
    ], audio: aac)

    /// VP9 (alt-ref frames, a key frame every 15 frames) and Opus (312 samples of pre-skip) in WebM.
    static let trimVP9OpusWebM = trimClip(name: "trim-vp9-opus.webm", seconds: 3, video: [
        "-c:v", "libvpx-vp9", "-deadline", "good", "-cpu-used", "8", "-b:v", "200k", "-g", "15", "-keyint_min", "15",
    ], audio: ["-c:a", "libopus", "-b:a", "48k"])

    /// The transport stream: MPEG-2 video at 29.97 fps with B-frames and a key frame every 15
    /// frames, MP2 audio, as ffmpeg's muxer writes it: the container starts at 1.42 s and the video
    /// 10 ms after the audio.
    static let trimMPEG2TS = trimClip(name: "trim-mpeg2-mp2.ts", seconds: 3, rate: "30000/1001", video: [
        "-c:v", "mpeg2video", "-q:v", "4", "-bf", "2", "-g", "15",
    ], audio: ["-c:a", "mp2", "-b:a", "128k"])

    /// MPEG-4 Part 2 (two B-frames, a key frame every 15 frames) and MP3 in AVI.
    static let trimMPEG4AVI = trimClip(name: "trim-mpeg4.avi", seconds: 3, video: [
        "-c:v", "mpeg4", "-q:v", "4", "-bf", "2", "-g", "15",
    ], audio: ["-c:a", "libmp3lame", "-b:a", "96k"], sampleRate: 44_100)

    /// AV1 (libaom, a key frame every 15 frames) and Opus in WebM, decoded by libdav1d.
    static let trimAV1WebM = trimClip(name: "trim-av1.webm", seconds: 3, video: [
        "-c:v", "libaom-av1", "-usage", "realtime", "-cpu-used", "8", "-b:v", "100k",
        "-g", "15", "-keyint_min", "15",
    ], audio: ["-c:a", "libopus", "-b:a", "48k"])

    // Audio only: 3 s of the 1 kHz sine at 44.1 kHz.
    static let trimMP3 = trimTone(name: "trim-tone.mp3", audio: ["-c:a", "libmp3lame", "-b:a", "128k"])
    static let trimAACADTS = trimTone(name: "trim-tone.aac", audio: ["-c:a", "aac", "-b:a", "96k"])
    static let trimFLAC = trimTone(name: "trim-tone.flac", audio: ["-c:a", "flac"])
    static let trimVorbisOgg = trimTone(name: "trim-tone.ogg", audio: ["-c:a", "libvorbis", "-q:a", "4"])
    static let trimPCMWAV = trimTone(name: "trim-tone.wav", audio: ["-c:a", "pcm_s16le"])
}
