import Foundation

/// Every generated test file: small (at most 2 s, 320x240 except where the point is the size), each
/// doc comment saying exactly what the file holds.
extension FixtureMedia.Recipe {
    /// 2 s of testsrc2 (320x240, 25 fps, H.264, a key frame every second) and a 440 Hz tone
    /// (48 kHz mono AAC) in MP4, moov at the end as ffmpeg writes it by default.
    static let h264AAC = Self(name: "h264-aac.mp4") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 2) + FixtureMedia.tone(seconds: 2, rate: 48_000)
            + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-g", "25",
               "-c:a", "aac", "-b:a", "64k", output.path])
    }

    /// 2 s, VP9 and Opus in WebM.
    static let vp9Opus = Self(name: "vp9-opus.webm") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 2) + FixtureMedia.tone(seconds: 2, rate: 48_000)
            + ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k",
               "-c:a", "libopus", "-b:a", "48k", output.path])
    }

    /// 2 s, MPEG-2 video and MP2 audio in an MPEG transport stream.
    static let mpeg2TS = Self(name: "mpeg2.ts") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 2) + FixtureMedia.tone(seconds: 2, rate: 48_000)
            + ["-c:v", "mpeg2video", "-b:v", "500k", "-c:a", "mp2", "-b:a", "128k", output.path])
    }

    /// 2 s of a 44.1 kHz mono tone as AAC in an M4A file: audio only.
    static let aacM4A = Self(name: "tone.m4a") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.tone(seconds: 2, rate: 44_100) + ["-c:a", "aac", "-b:a", "64k", output.path])
    }

    /// 2 s of a 44.1 kHz stereo tone as 16-bit PCM WAV.
    static let stereoWAV = Self(name: "tone.wav") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.tone(seconds: 2, rate: 44_100) + ["-ac", "2", "-c:a", "pcm_s16le", output.path])
    }

    /// 2 s of a 44.1 kHz mono tone as FLAC.
    static let flac = Self(name: "tone.flac") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.tone(seconds: 2, rate: 44_100) + ["-c:a", "flac", output.path])
    }

    /// 1 s of 320x240 H.264, no audio.
    static let videoOnly = Self(name: "video-only.mp4") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 1) + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", output.path])
    }

    /// PAL 720x576 with a 64:45 sample aspect ratio (16:9 anamorphic): displayed 1024x576. 0.4 s keeps it small.
    static let anamorphic = Self(name: "anamorphic.mp4") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 0.4, size: "720x576")
            + ["-vf", "setsar=64/45", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", output.path])
    }

    /// The video-only clip with a display matrix asking for a 90° clockwise turn.
    ///
    /// FFmpeg 5.1's MP4 muxer takes the `rotate` tag as a counter-clockwise angle, the display matrix's
    /// own sense (older FFmpeg took it as clockwise). So `rotate=270` is what writes "turn 90°
    /// clockwise": ffprobe then reports `rotation: -90`, and ffmpeg's autorotate applies
    /// `transpose=clock` (checked by comparing frames when this fixture was designed).
    static let rotatedClockwise90 = Self(name: "rotated-cw90.mp4") { output in
        try FixtureMedia.ffmpeg(["-i", try FixtureMedia.path(.videoOnly), "-c", "copy", "-metadata:s:v:0", "rotate=270", output.path])
    }

    /// `rotate=90` in FFmpeg 5.1: a quarter turn counter-clockwise, i.e. 270° clockwise; ffprobe says `rotation: 90`.
    static let rotatedCounterClockwise90 = Self(name: "rotated-ccw90.mp4") { output in
        try FixtureMedia.ffmpeg(["-i", try FixtureMedia.path(.videoOnly), "-c", "copy", "-metadata:s:v:0", "rotate=90", output.path])
    }

    /// One 320x240 frame as PNG.
    static let stillPNG = Self(name: "still.png") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 1) + ["-frames:v", "1", output.path])
    }

    /// One 320x240 frame as baseline JPEG.
    static let stillJPEG = Self(name: "still.jpg") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 1) + ["-frames:v", "1", "-pix_fmt", "yuvj420p", output.path])
    }

    /// A GIF with a single 64x48 frame: a still.
    static let singleFrameGIF = Self(name: "single.gif") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 1, size: "64x48") + ["-frames:v", "1", output.path])
    }

    /// A 64x48 GIF with 10 frames: an animation, not a still.
    static let animatedGIF = Self(name: "animated.gif") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 1, size: "64x48", rate: 10) + [output.path])
    }

    /// NUT holding one video stream in Commodore 64 multicolor charset (a64multi): FFmpeg has an encoder
    /// for it but no decoder, and the demuxer does not even know the codec (it reads only the tag `a64m`).
    static let undecodableNUT = Self(name: "a64.nut") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 0.2, size: "320x200") + ["-c:v", "a64multi", "-f", "nut", output.path])
    }

    /// Zero bytes with an .mp4 name.
    static let empty = Self(name: "empty.mp4") { output in
        try Data().write(to: output)
    }

    /// The first 3 KB of the H.264/AAC clip: the header says MP4, but the index (moov), written at the end, is gone.
    static let truncatedMP4 = Self(name: "truncated.mp4") { output in
        try Data(Data(contentsOf: FixtureMedia.url(.h264AAC)).prefix(3 * 1024)).write(to: output)
    }

    /// 64 KB of deterministic pseudo-random bytes with an .mp4 name.
    static let randomBytes = Self(name: "random.mp4") { output in
        var state: UInt64 = 0x4D41_5251_5545_4531  // fixed seed: the same bytes every run
        var bytes = [UInt8]()
        bytes.reserveCapacity(64 * 1024)
        for _ in 0..<(64 * 1024 / 8) {
            // SplitMix64
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z.littleEndian) { bytes.append(contentsOf: $0) }
        }
        try Data(bytes).write(to: output)
    }
}
