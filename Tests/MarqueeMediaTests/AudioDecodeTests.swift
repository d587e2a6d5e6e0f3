import Foundation
import MarqueeCore
@testable import MarqueeMedia
import Testing

/// Audio through `nextMedia(audioFormat:)` on real files: counted to the sample, stamped to the
/// sample, and checked against the signal the file was made from.
@Suite struct AudioDecodeTests {
    static let opener = FFmpegMediaOpener()
    static let stereo48k = AudioFormat.standard
    /// Two seconds at 48 kHz.
    static let twoSeconds = 96_000

    // MARK: AAC, PCM, resampling

    @Test func aacInM4AComesOutSampleExactAsStereoAt48kHz() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.sine1kAACM4A))

        let blocks = try Self.readAudio(reader)

        // 88 200 source samples at 44.1 kHz are 96 000 at 48 kHz exactly: the 1024 priming samples
        // (dropped by libavcodec from the edit list's skip side data) and the 888 of end padding
        // (trimmed by the reader from the last packet's duration) must both be gone, and the
        // resampler's tail flushed.
        #expect(Self.frameCount(blocks) == Self.twoSeconds)
        #expect(blocks.first?.pts == .zero)
        Self.expectContiguous(blocks)
        #expect(blocks.allSatisfy { $0.format == Self.stereo48k })
        let left = Self.channel(0, of: blocks), right = Self.channel(1, of: blocks)
        #expect(left == right)
        // 1 kHz: two zero crossings per period, 2000 in the middle second.
        let crossings = Self.zeroCrossings(left[24_000..<72_000])
        #expect(abs(crossings - 2000) <= 2, "\(crossings) zero crossings in 1 s")
        // Mono is duplicated onto both sides at its own level (the sine source's 1/8), not spread at -3 dB (0.088).
        let peak = left[24_000..<72_000].map(abs).max() ?? 0
        #expect(peak > 0.115 && peak < 0.135, "peak \(peak)")
    }

    @Test func pcmAtTheOutputRateIsPassedThroughExactly() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.pcmPatternWAV))

        let blocks = try Self.readAudio(reader)

        #expect(Self.frameCount(blocks) == 48_000)
        #expect(blocks.first?.pts == .zero)
        Self.expectContiguous(blocks)
        let samples = blocks.flatMap(\.samples)
        var mismatches = 0
        for index in samples.indices {
            let expected = Float(FixtureMedia.Recipe.pcmPatternSample(index / 2, channel: index % 2)) / 32768
            if samples[index] != expected { mismatches += 1 }
        }
        #expect(mismatches == 0, "\(mismatches) of \(samples.count) samples differ from the source / 32768")
    }

    /// The stamps are worth something only if the resampled signal really is at them: every output
    /// sample of a resampled sine must equal the sine evaluated at its own time. A stamp one output
    /// sample off would miss by up to 2π · 1000 / 48000 · 1/8 ≈ 0.016.
    @Test func resampledAudioLinesUpWithItsStamps() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.sine1kWAV))

        let blocks = try Self.readAudio(reader)

        #expect(Self.frameCount(blocks) == Self.twoSeconds)
        Self.expectContiguous(blocks)
        var worst = 0.0
        for block in blocks {
            for frame in 0..<block.frameCount {
                let time = (block.pts + MediaTime(Int64(frame), per: 48_000)).seconds
                // The filter's edges (no signal before 0 or after 2 s to interpolate from) are not the point.
                guard time > 0.002 && time < 1.998 else { continue }
                let expected = sin(2 * .pi * 1000 * time) / 8
                worst = max(worst, abs(Double(block.samples[frame * 2]) - expected))
            }
        }
        #expect(worst < 0.002, "largest difference from the sine at the stamped time: \(worst)")
    }

    // MARK: Other codecs

    struct Clip: CustomTestStringConvertible, Sendable {
        let recipe: FixtureMedia.Recipe
        let label: String
        var testDescription: String { label }
    }

    @Test(arguments: [
        Clip(recipe: .sine1kOpusWebM, label: "Opus in WebM"),
        Clip(recipe: .sine1kMP3, label: "MP3 (44.1 kHz, resampled)"),
    ])
    func otherCodecsGiveTheirWholeDurationContiguously(_ clip: Clip) throws {
        let reader = try Self.opener.open(FixtureMedia.path(clip.recipe))

        let blocks = try Self.readAudio(reader)

        // Both containers state their priming and padding (Opus pre-skip and DiscardPadding; the LAME
        // header), which FFmpeg applies: exactly 2 s come out.
        #expect(Self.frameCount(blocks) == Self.twoSeconds)
        Self.expectContiguous(blocks)
        let start = try #require(blocks.first?.pts)
        // WebM stores the Opus pre-skip as a start 7 ms before zero (rounded to its milliseconds), and
        // media time counts from the container's start, so the first audible sample is at 6.5-7 ms.
        #expect(start >= .zero && start <= MediaTime(7, per: 1000), "first block at \(start)")
        let crossings = Self.zeroCrossings(Self.channel(0, of: blocks)[24_000..<72_000])
        #expect(abs(crossings - 2000) <= 2, "\(crossings) zero crossings in 1 s")
    }

    // MARK: Video and audio

    @Test func videoAndAudioComeInterleavedAndThePicturesAreThoseOfNextPicture() throws {
        let path = try FixtureMedia.path(.h264AAC)
        let pictures = try Self.readPictures(Self.opener.open(path))
        let reader = try Self.opener.open(path)

        var media: [DecodedMedia] = []
        while let next = try reader.nextMedia(audioFormat: Self.stereo48k) { media.append(next) }

        let interleavedPictures = media.compactMap { if case .picture(let picture) = $0 { picture } else { nil } }
        let blocks = media.compactMap { if case .audio(let block) = $0 { block } else { nil } }
        #expect(pictures.count == 50)
        #expect(interleavedPictures.map(\.pts) == pictures.map(\.pts))
        #expect(blocks.first?.pts == .zero)
        #expect(Self.frameCount(blocks) == Self.twoSeconds)
        #expect(blocks.last?.end == MediaTime(seconds: 2))
        Self.expectContiguous(blocks)
        // Interleaved as the file has them: never has the audio run a second ahead of or behind the pictures.
        var audioEnd = MediaTime.zero, pictureEnd = MediaTime.zero
        for item in media {
            switch item {
            case .picture(let picture): pictureEnd = picture.pts
            case .audio(let block): audioEnd = block.end
            }
            #expect(max(audioEnd - pictureEnd, pictureEnd - audioEnd) < MediaTime(seconds: 1))
        }
    }

    @Test(arguments: [
        Clip(recipe: .h264AAC, label: "H.264 and AAC in MP4"),
        Clip(recipe: .sine1kAACM4A, label: "AAC in M4A"),
    ])
    func afterASeekAudioStartsAtOrBeforeTheTargetAndRunsOn(_ clip: Clip) throws {
        let reader = try Self.opener.open(FixtureMedia.path(clip.recipe))
        _ = try reader.nextMedia(audioFormat: Self.stereo48k)  // something in the decoders and the resampler

        try reader.seek(to: MediaTime(seconds: 1))
        let blocks = try Self.readAudio(reader)

        let first = try #require(blocks.first)
        // AAC's pre-roll (three frames: the MDCT overlap with the frames before) comes first. With the
        // H.264 clip's key frame right at 1 s, that means the GOP before; audio alone seeks to twice
        // the pre-roll (75 ms at 44.1 kHz) before the target.
        #expect(first.pts <= MediaTime(seconds: 1) - MediaTime(3 * 1024, per: 48_000))
        if clip.recipe.name == FixtureMedia.Recipe.sine1kAACM4A.name {
            #expect(first.pts > MediaTime(8, per: 10), "the seek should land on the packet holding the pre-roll, not \(first.pts)")
        }
        Self.expectContiguous(blocks)
        // A run anchored at an M4A packet (1024/44100 s steps) is not on the 48 kHz grid, so its end
        // lands within one output sample of 2 s rather than on it.
        let end = try #require(blocks.last?.end)
        #expect(max(end - MediaTime(seconds: 2), MediaTime(seconds: 2) - end) < MediaTime(1, per: 48_000), "ends at \(end)")
    }

    @Test func audioOnlyMediaWithoutAnAudioFormatEndsAtOnce() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.sine1kAACM4A))

        #expect(try reader.nextMedia(audioFormat: nil) == nil)
        #expect(try reader.nextPicture() == nil)
        #expect(try reader.nextMedia(audioFormat: Self.stereo48k) != nil)  // and audio is there when asked for
    }

    /// Optional in the brief, covered: a transport stream spliced from 44.1 kHz mono and 48 kHz
    /// stereo MP2 needs a new resampler mid-stream, and its timestamps jump back at the splice.
    @Test func aMidStreamFormatChangeGoesThroughANewResamplerWithoutABreak() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.audioFormatChangeTS))

        let blocks = try Self.readAudio(reader)

        Self.expectContiguous(blocks)
        #expect(blocks.first?.pts == .zero)
        // MP2 carries no priming or padding information: each part brings its encoder delay and a
        // partly filled last frame (under 2 × 1152 samples per part).
        let total = Self.frameCount(blocks)
        #expect(total >= Self.twoSeconds && total < Self.twoSeconds + 4 * 1152, "\(total) frames")
        let left = Self.channel(0, of: blocks)
        let firstPart = Self.zeroCrossings(left[4_800..<28_800])  // 0.1-0.6 s: 1 kHz
        let secondPart = Self.zeroCrossings(left[(total - 28_800)..<(total - 4_800)])  // the last 0.6-0.1 s: 440 Hz
        #expect(abs(firstPart - 1000) <= 2, "\(firstPart) crossings in 0.5 s of the 1 kHz part")
        #expect(abs(secondPart - 440) <= 2, "\(secondPart) crossings in 0.5 s of the 440 Hz part")
    }

    @Test func aDamagedAudioPacketIsSkippedAndTheAudioAfterItKeepsItsTime() throws {
        let reader = try Self.opener.open(FixtureMedia.path(.flacMKVDamagedPacket))

        let blocks = try Self.readAudio(reader)

        #expect((reader as? FFmpegMediaReader)?.damageCount == 1)
        #expect(Self.frameCount(blocks) == Self.twoSeconds - 4608)
        // The lost packet leaves a 96 ms hole: the one break in the run, after which the audio is
        // stamped at its own time again rather than pulled 96 ms early.
        let breaks = zip(blocks, blocks.dropFirst()).filter { $0.0.end != $0.1.pts }
        #expect(breaks.map { [$0.0.end, $0.1.pts] } == [[MediaTime(96, per: 100), MediaTime(1056, per: 1000)]])
        #expect(blocks.first?.pts == .zero)
        #expect(blocks.last?.end == MediaTime(seconds: 2))
    }

    // MARK: Stamping

    @Test func theClockStampsRunsContiguouslyAndReanchorsOnlyAfterAForwardGap() {
        var clock = AudioSampleClock(outputRate: 48_000)
        let packet = MediaTime(1024, per: 44_100)

        clock.feed(at: MediaTime(1, per: 2), sampleCount: 1024, sampleRate: 44_100)
        #expect(clock.stamp(frameCount: 1000) == MediaTime(1, per: 2))
        #expect(clock.stamp(frameCount: 115) == MediaTime(1, per: 2) + MediaTime(1000, per: 48_000))

        // Timestamps a few milliseconds off (rounding, jitter) do not move the run.
        let nearlyOnTime = MediaTime(1, per: 2) + packet + MediaTime(30, per: 1000)
        #expect(!clock.isDiscontinuous(at: nearlyOnTime))
        clock.feed(at: nearlyOnTime, sampleCount: 1024, sampleRate: 44_100)
        #expect(clock.stamp(frameCount: 10) == MediaTime(1, per: 2) + MediaTime(1115, per: 48_000))

        // Going back (a timestamp reset) never re-anchors: time only moves forward.
        #expect(!clock.isDiscontinuous(at: .zero))

        // A gap of more than 40 ms does: the next run starts at the frame's own time.
        let afterGap = MediaTime(1, per: 2) + packet * 2 + MediaTime(41, per: 1000)
        #expect(clock.isDiscontinuous(at: afterGap))
        clock.reset()
        clock.feed(at: afterGap, sampleCount: 1024, sampleRate: 44_100)
        #expect(clock.stamp(frameCount: 5) == afterGap)

        // After a seek the first frame anchors whatever came before.
        clock.forget()
        clock.feed(at: MediaTime(seconds: 7), sampleCount: 1024, sampleRate: 44_100)
        #expect(clock.stamp(frameCount: 1) == MediaTime(seconds: 7))
    }

    // MARK: Helpers

    static func readAudio(_ reader: MediaReader, format: AudioFormat = stereo48k) throws -> [AudioBlock] {
        var blocks: [AudioBlock] = []
        while let media = try reader.nextMedia(audioFormat: format) {
            if case .audio(let block) = media { blocks.append(block) }
        }
        return blocks
    }

    static func readPictures(_ reader: MediaReader) throws -> [VideoPicture] {
        var pictures: [VideoPicture] = []
        while let picture = try reader.nextPicture() { pictures.append(picture) }
        return pictures
    }

    static func frameCount(_ blocks: [AudioBlock]) -> Int {
        blocks.reduce(0) { $0 + $1.frameCount }
    }

    static func channel(_ channel: Int, of blocks: [AudioBlock]) -> [Float] {
        blocks.flatMap { block in stride(from: channel, to: block.samples.count, by: block.format.channelCount).map { block.samples[$0] } }
    }

    static func zeroCrossings(_ samples: ArraySlice<Float>) -> Int {
        zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
    }

    /// Each block starts exactly where the one before it ends.
    static func expectContiguous(_ blocks: [AudioBlock], sourceLocation: SourceLocation = #_sourceLocation) {
        let gaps = zip(blocks, blocks.dropFirst()).enumerated().filter { $0.element.0.end != $0.element.1.pts }
        let first = gaps.first.map { "after block \($0.offset): \($0.element.0.end) then \($0.element.1.pts)" } ?? ""
        #expect(gaps.isEmpty, "\(gaps.count) breaks, the first \(first)", sourceLocation: sourceLocation)
    }
}
