import Foundation

/// Files that are not media but that FFmpeg, left to itself, reads as some pseudo-format: what an
/// operator copies into the media folder by mistake.
extension FixtureMedia.Recipe {
    /// Twenty lines of plain text named `.txt`: FFmpeg 5.1 reads it as `tty`, seconds of ANSI "video".
    static let textFile = Self(name: "notes.txt") { output in
        let lines = (1...20).map { "Opening hours: Monday to Friday, 9:00 to 17:00. Line \($0).\n" }
        try Data(lines.joined().utf8).write(to: output)
    }

    /// A small piece of ANSI art (colour escapes around a word, twenty times) named `.ans`: `tty` too.
    static let ansiArt = Self(name: "art.ans") { output in
        let cells = (1...20).map { "\u{1B}[1;3\($0 % 8)mMARQUEE \u{1B}[0m" }
        try Data(("\u{1B}[2J\u{1B}[1;1H" + cells.joined() + "\r\n").utf8).write(to: output)
    }

    /// 64,000 pseudo-random bytes named `.bin`. The `bintext` demuxer claims a `.bin` file whose size
    /// is a whole number of 160-column text rows (320 bytes), which makes it a 1280x3200 "picture".
    static let randomBin = Self(name: "random.bin") { output in
        try FixtureMedia.pseudoRandomBytes(count: 64_000).write(to: output)
    }
}

extension FixtureMedia.Recipe {
    /// An MP4 written with `-t 0`: a header that declares 0 s and a video track with no samples,
    /// which FFmpeg's MP4 demuxer drops, leaving no stream at all.
    static let zeroLengthMP4 = Self(name: "zero-length.mp4") { output in
        try FixtureMedia.ffmpeg(FixtureMedia.testPattern(seconds: 1)
            + ["-t", "0", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", output.path])
    }
}

extension FixtureMedia {
    /// `count` bytes of SplitMix64 from a fixed seed: the same bytes every run.
    static func pseudoRandomBytes(count: Int) -> Data {
        var state: UInt64 = 0x4D41_5251_5545_4531
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            withUnsafeBytes(of: z.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return Data(bytes.prefix(count))
    }
}
