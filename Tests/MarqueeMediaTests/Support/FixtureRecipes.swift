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
        try FixtureMedia.pseudoRandomBytes(count: 64 * 1024).write(to: output)
    }
}

// MARK: Frames that carry their index (see FrameIndexCodec)

extension FixtureMedia.Recipe {
    /// 100 frames (4 s) of the frame-index pattern at 25 fps, H.264 with B-frames in MP4, a key frame
    /// exactly every 25 frames (0, 1, 2, 3 s), moov at the front (faststart).
    static let frameIndexH264 = Self(name: "frame-index-h264.mp4") { output in
        try FixtureMedia.ffmpeg(FrameIndexCodec.lavfiSource(frames: 100, rate: "25")
            + ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-bf", "2",
               "-g", "25", "-keyint_min", "25", "-sc_threshold", "0", "-movflags", "+faststart", output.path])
    }

    /// The same 100 frames as VP9 in WebM, a key frame every 25 frames.
    static let frameIndexVP9 = Self(name: "frame-index-vp9.webm") { output in
        try FixtureMedia.ffmpeg(FrameIndexCodec.lavfiSource(frames: 100, rate: "25")
            + ["-c:v", "libvpx-vp9", "-deadline", "good", "-cpu-used", "8", "-crf", "30", "-b:v", "0",
               "-g", "25", "-keyint_min", "25", "-pix_fmt", "yuv420p", output.path])
    }

    /// The same 100 frames as MPEG-2 (with B-frames) in an MPEG transport stream, which starts at
    /// 1.4 s as ffmpeg's muxer writes it.
    static let frameIndexMPEG2TS = Self(name: "frame-index-mpeg2.ts") { output in
        try FixtureMedia.ffmpeg(FrameIndexCodec.lavfiSource(frames: 100, rate: "25")
            + ["-c:v", "mpeg2video", "-q:v", "3", "-bf", "2", "-g", "25", "-pix_fmt", "yuv420p", output.path])
    }

    /// 100 frames at NTSC's 30000/1001 fps, H.264 in MP4, a key frame every 30 frames.
    static let frameIndexNTSC = Self(name: "frame-index-ntsc.mp4") { output in
        try FixtureMedia.ffmpeg(FrameIndexCodec.lavfiSource(frames: 100, rate: "30000/1001")
            + ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-bf", "2",
               "-g", "30", "-keyint_min", "30", "-sc_threshold", "0", output.path])
    }

    /// The first 60% of the faststart H.264 clip: a complete index, but the media data stops part way.
    static let frameIndexTruncatedMP4 = Self(name: "frame-index-truncated.mp4") { output in
        let whole = try Data(contentsOf: FixtureMedia.url(.frameIndexH264))
        try Data(whole.prefix(whole.count * 6 / 10)).write(to: output)
    }

    /// The MPEG-2 transport stream with 6 KB of pseudo-random bytes written over its middle.
    static let frameIndexCorruptTS = Self(name: "frame-index-corrupt.ts") { output in
        var bytes = [UInt8](try Data(contentsOf: FixtureMedia.url(.frameIndexMPEG2TS)))
        var state: UInt32 = 0x2545_F491  // xorshift32, fixed seed: the same damage every run
        let start = bytes.count / 2
        for offset in start..<min(bytes.count, start + 6 * 1024) {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            bytes[offset] = UInt8(truncatingIfNeeded: state)
        }
        try Data(bytes).write(to: output)
    }

    /// Frame 37 of the pattern as a PNG (RGB).
    static let frameIndexPNG = Self(name: "frame-index-37.png") { output in
        try FixtureMedia.ffmpeg(FrameIndexCodec.lavfiSource(frames: 100, rate: "25", select: 37) + [output.path])
    }

    /// Frame 37 of the pattern as a full-range (yuvj420p) JPEG.
    static let frameIndexJPEG = Self(name: "frame-index-37.jpg") { output in
        try FixtureMedia.ffmpeg(FrameIndexCodec.lavfiSource(frames: 100, rate: "25", select: 37)
            + ["-pix_fmt", "yuvj420p", "-q:v", "2", output.path])
    }
}

// MARK: Geometry patterns

extension FixtureMedia.Recipe {
    /// Four solid quadrants (top left red, top right lime, bottom left blue, bottom right yellow) of
    /// `width`x`height`, H.264 at high quality, 5 frames, square pixels unless `extraFilter` sets the SAR.
    static func quadrants(name: String, width: Int, height: Int, extraFilter: String? = nil) -> Self {
        Self(name: name) { output in
            let halfWidth = width / 2, halfHeight = height / 2
            var graph = "color=c=red:size=\(width)x\(height):rate=25,format=yuv420p,"
                + "drawbox=x=\(halfWidth):y=0:w=\(halfWidth):h=\(halfHeight):color=lime:t=fill,"
                + "drawbox=x=0:y=\(halfHeight):w=\(halfWidth):h=\(halfHeight):color=blue:t=fill,"
                + "drawbox=x=\(halfWidth):y=\(halfHeight):w=\(halfWidth):h=\(halfHeight):color=yellow:t=fill"
            if let extraFilter { graph += "," + extraFilter }
            try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", graph, "-frames:v", "5",
                                     "-c:v", "libx264", "-preset", "veryfast", "-crf", "4", "-pix_fmt", "yuv420p", output.path])
        }
    }

    /// PAL 720x576 quadrants at a 64:45 sample aspect ratio (16:9 anamorphic): displayed 1024x576.
    static let anamorphicQuadrants = quadrants(name: "quadrants-anamorphic.mp4", width: 720, height: 576,
                                               extraFilter: "setsar=64/45")

    /// 320x240 quadrants, upright.
    static let quadrants = quadrants(name: "quadrants.mp4", width: 320, height: 240)

    /// The 320x240 quadrants with a display matrix asking for a 90° clockwise turn (`rotate=270` in
    /// FFmpeg 5.1; see `rotatedClockwise90`): displayed 240x320.
    static let rotatedQuadrants = Self(name: "quadrants-rotated-cw90.mp4") { output in
        try FixtureMedia.ffmpeg(["-i", try FixtureMedia.path(.quadrants), "-c", "copy", "-metadata:s:v:0", "rotate=270", output.path])
    }

    /// Three frames of 1920x1080 testsrc2, H.264 4:2:0: what a decoded 1080p picture weighs.
    static let hd1080 = Self(name: "testsrc-1080p.mp4") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 0.1, size: "1920x1080", rate: 30)
            + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", output.path])
    }

    /// 1 s of 1280x720 testsrc2, H.264: heavy enough per open that a leaked decoder would show.
    static let hd720 = Self(name: "testsrc-720p.mp4") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 1, size: "1280x720")
            + ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", output.path])
    }
}

// MARK: Colour conversion

extension FixtureMedia.Recipe {
    /// Two flat halves, left #DC2828 (220, 40, 40) and right #E6C828 (230, 200, 40), converted from
    /// RGB with the given matrix (`bt601`, `bt709`) and range (`limited`, `full`), then encoded.
    /// These colours move by 13 to 19 steps when decoded with the wrong matrix or range.
    /// - Parameter tags: how the stream labels itself (`-colorspace`, `-color_range`); empty for untagged.
    static func twoColours(name: String, width: Int, height: Int, matrix: String, range: String,
                           pixelFormat: String = "yuv420p", tags: [String] = [], codec: [String]? = nil) -> Self {
        Self(name: name) { output in
            let half = "size=\(width / 2)x\(height):rate=25"
            let graph = "color=c=0xDC2828:\(half),format=rgb24[left];color=c=0xE6C828:\(half),format=rgb24[right];"
                + "[left][right]hstack,scale=out_color_matrix=\(matrix):out_range=\(range),format=\(pixelFormat)"
            let encoder = codec ?? ["-c:v", "libx264", "-preset", "veryfast", "-crf", "8"]
            try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", graph, "-frames:v", "3"] + encoder + tags + [output.path])
        }
    }

    static let coloursBT601Untagged = twoColours(name: "colours-601-untagged.mp4", width: 320, height: 240,
                                                 matrix: "bt601", range: "limited")
    static let coloursBT709Tagged720p = twoColours(name: "colours-709-720p.mp4", width: 1280, height: 720,
                                                   matrix: "bt709", range: "limited", tags: ["-colorspace", "bt709"])
    static let coloursBT709TaggedSmall = twoColours(name: "colours-709-small.mp4", width: 320, height: 240,
                                                    matrix: "bt709", range: "limited", tags: ["-colorspace", "bt709"])
    static let coloursBT709Untagged720p = twoColours(name: "colours-709-untagged-720p.mp4", width: 1280, height: 720,
                                                     matrix: "bt709", range: "limited")
    /// VP9, because FFmpeg's H.264 decoder reports full range as the old `yuvj420p` format, which
    /// libswscale reads right by itself; VP9 says it on a plain `yuv420p` frame, as HEVC and AV1 do.
    static let coloursFullRange = twoColours(name: "colours-601-full.webm", width: 320, height: 240,
                                             matrix: "bt601", range: "full", tags: ["-color_range", "pc"],
                                             codec: ["-c:v", "libvpx-vp9", "-crf", "10", "-b:v", "0"])
    static let coloursJPEG = twoColours(name: "colours.jpg", width: 320, height: 240, matrix: "bt601", range: "full",
                                        pixelFormat: "yuvj420p", codec: ["-q:v", "1", "-update", "1"])
}

extension FixtureMedia.Recipe {
    /// Two MPEG-2 transport streams joined byte for byte, as a broadcast recording switching channels
    /// would be: frames 0–49 of the frame-index pattern at 320x240, then frames 50–99 scaled to
    /// 160x120, whose timestamps start again at 1.4 s.
    static let frameIndexSizeChangeTS = Self(name: "frame-index-size-change.ts") { output in
        let first = output.deletingLastPathComponent().appendingPathComponent("size-change-part1.ts")
        let second = output.deletingLastPathComponent().appendingPathComponent("size-change-part2.ts")
        let source = FrameIndexCodec.lavfiSource(frames: 50, rate: "25")
        try FixtureMedia.ffmpeg(source + ["-c:v", "mpeg2video", "-q:v", "3", first.path])
        try FixtureMedia.ffmpeg(source + ["-vf", "trim=start_frame=50,setpts=PTS-STARTPTS,scale=160:120",
                                          "-c:v", "mpeg2video", "-q:v", "3", second.path])
        try Data(Data(contentsOf: first) + Data(contentsOf: second)).write(to: output)
    }
}

extension FixtureMedia.Recipe {
    /// The VP9 frame-index clip in IVF (a 32-byte file header, then per frame a 12-byte header holding
    /// its size and time, then its data), with the first 64 bytes of frame 60 overwritten by 0xFF: the
    /// container stays intact while the decoder rejects that one frame ("Invalid frame marker").
    static let frameIndexVP9DamagedFrame = vp9IVF(name: "frame-index-vp9-damaged-frame.ivf") { $0 == 60 }

    /// The same with every frame's first 64 bytes overwritten: nothing at all can be decoded.
    static let frameIndexVP9AllFramesDamaged = vp9IVF(name: "frame-index-vp9-all-damaged.ivf") { _ in true }

    private static func vp9IVF(name: String, damaging isDamaged: @escaping @Sendable (Int) -> Bool) -> Self {
        Self(name: name) { output in
            let clean = output.deletingLastPathComponent().appendingPathComponent("frame-index-vp9.ivf")
            try FixtureMedia.ffmpeg(FrameIndexCodec.lavfiSource(frames: 100, rate: "25")
                + ["-c:v", "libvpx-vp9", "-deadline", "good", "-cpu-used", "8", "-crf", "30", "-b:v", "0",
                   "-g", "25", "-keyint_min", "25", "-pix_fmt", "yuv420p", clean.path])
            var bytes = [UInt8](try Data(contentsOf: clean))
            var offset = 32, frame = 0
            while offset + 12 <= bytes.count {
                let size = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
                if isDamaged(frame) {
                    for index in (offset + 12)..<min(offset + 12 + min(size, 64), bytes.count) { bytes[index] = 0xFF }
                }
                offset += 12 + size
                frame += 1
            }
            guard frame == 100 else { throw FixtureError("expected 100 frames in \(clean.lastPathComponent), found \(frame)") }
            try Data(bytes).write(to: output)
        }
    }
}

// MARK: Audio decoding

extension FixtureMedia.Recipe {
    /// 2 s of a 1 kHz sine (amplitude 1/8, the sine source's default) at 44.1 kHz mono, AAC in M4A:
    /// 88 200 samples, with the encoder's 1024 priming samples and end padding marked by an edit list.
    static let sine1kAACM4A = Self(name: "sine-1k-44k1-mono.m4a") { output in
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=2",
                                 "-c:a", "aac", "-b:a", "96k", output.path])
    }

    /// 1 s of 48 kHz stereo 16-bit PCM WAV whose every sample is known: see `pcmPatternSample`.
    static let pcmPatternWAV = Self(name: "pattern-48k-stereo.wav") { output in
        let left = "(mod(n*37\\,65536)-32768)/32768", right = "(mod(n*101+7\\,65536)-32768)/32768"
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "aevalsrc=exprs=\(left)|\(right):sample_rate=48000:duration=1:channel_layout=stereo",
                                 "-c:a", "pcm_s16le", output.path])
    }

    /// The 16-bit value of sample `n` of `channel` (0 left, 1 right) in `pcmPatternWAV`: a different
    /// step per channel, so a swapped, shifted or rescaled sample shows.
    static func pcmPatternSample(_ n: Int, channel: Int) -> Int16 {
        Int16((channel == 0 ? n * 37 : n * 101 + 7) % 65536 - 32768)
    }

    /// 2 s of a 1 kHz sine at 44.1 kHz mono as 16-bit PCM WAV: resampled to 48 kHz it shows whether
    /// the output's stamps line up with the signal to the sample.
    static let sine1kWAV = Self(name: "sine-1k-44k1-mono.wav") { output in
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=2", "-c:a", "pcm_s16le", output.path])
    }

    /// 2 s of a 1 kHz sine at 48 kHz, Opus in WebM: 312 samples of pre-skip, end trimmed with DiscardPadding.
    static let sine1kOpusWebM = Self(name: "sine-1k-opus.webm") { output in
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=2",
                                 "-c:a", "libopus", "-b:a", "64k", output.path])
    }

    /// 2 s of a 1 kHz sine at 44.1 kHz mono, MP3 (LAME, whose header states its delay and padding).
    static let sine1kMP3 = Self(name: "sine-1k-44k1.mp3") { output in
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=2",
                                 "-c:a", "libmp3lame", "-b:a", "128k", output.path])
    }

    /// Two MPEG transport streams joined byte for byte: 1 s of a 1 kHz sine at 44.1 kHz mono, then
    /// 1 s of a 440 Hz sine at 48 kHz stereo, both MP2 (the audio changes rate and layout mid-stream,
    /// and the second part's timestamps start again at 1.4 s).
    static let audioFormatChangeTS = Self(name: "audio-format-change.ts") { output in
        let first = output.deletingLastPathComponent().appendingPathComponent("audio-change-part1.ts")
        let second = output.deletingLastPathComponent().appendingPathComponent("audio-change-part2.ts")
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=44100:duration=1",
                                 "-c:a", "mp2", "-b:a", "128k", first.path])
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=1",
                                 "-ac", "2", "-c:a", "mp2", "-b:a", "192k", second.path])
        try Data(Data(contentsOf: first) + Data(contentsOf: second)).write(to: output)
    }
}

extension FixtureMedia.Recipe {
    /// 2 s of a 1 kHz sine at 48 kHz, FLAC in Matroska (21 packets of 4608 samples, the last 3840),
    /// with the sync code of packet 10 (0.96 s) zeroed: the container stays intact and the decoder
    /// rejects that one packet.
    static let flacMKVDamagedPacket = Self(name: "sine-1k-flac-damaged.mkv") { output in
        let clean = output.deletingLastPathComponent().appendingPathComponent("sine-1k-flac.mkv")
        try FixtureMedia.ffmpeg(["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=2", "-c:a", "flac", clean.path])
        var bytes = [UInt8](try Data(contentsOf: clean))
        // Each FLAC frame starts with the fixed-blocksize sync code FF F8; a sine compresses so evenly
        // that nothing else in the file looks like one (checked by the count).
        let syncs = bytes.indices.dropLast().filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xF8 }
        guard syncs.count == 21 else { throw FixtureError("expected 21 FLAC frames in \(clean.lastPathComponent), found \(syncs.count)") }
        bytes[syncs[10]] = 0
        bytes[syncs[10] + 1] = 0
        try Data(bytes).write(to: output)
    }
}
