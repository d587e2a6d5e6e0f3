import Foundation
import MarqueeCore
import MarqueeMedia
import MarqueeSession

/// `marquee bench MEDIA --seek TIME`: what a seek to TIME costs, as an item starting there or a
/// seek within one does it. The reader reaches back to a key frame at or before the frame on screen
/// at TIME and to the audio codec's pre-roll (trying again further back when it landed too late);
/// everything decoded before TIME is trimmed away. This measures that pre-roll: the key frame seeks
/// made, the pictures and audio decoded only to be trimmed, and the time from the seek until the
/// frame on screen at TIME and the audio at TIME are decoded (best of `runs`, the open excluded).
struct SeekBench {
    struct Result {
        var attempts = 0
        var decodingFrom: MediaTime?
        var firstPicture: MediaTime?
        var pictureOnScreen: MediaTime?
        var picturesBefore = 0
        var firstAudio: MediaTime?
        var audioFramesBefore: Int64 = 0
        var seconds = 0.0
    }

    static let runs = 3

    let url: String
    let time: MediaTime
    let opener: FFmpegMediaOpener

    func run() throws -> Result {
        var best: Result?
        for _ in 0..<Self.runs {
            let result = try once()
            if best.map({ result.seconds < $0.seconds }) ?? true { best = result }
        }
        return best!
    }

    /// Seeks a fresh reader and decodes, audio included as the player asks for it, until the frame
    /// on screen at `time` is known and the audio has reached `time`.
    private func once() throws -> Result {
        let reader = try opener.open(url)
        let format = AudioFormat.standard
        let rate = Int64(format.sampleRate)
        let hasVideo = reader.asset.mediaTypes.contains(.video)
        var videoReady = !hasVideo
        var audioReady = !reader.asset.mediaTypes.contains(.audio)
        var result = Result()
        var trimmer = VideoTrimmer<MediaTime>(timing: ItemTiming(start: time, end: nil))
        var decodedPictures: [MediaTime] = []
        let clock = ContinuousClock()
        let start = clock.now
        try reader.seek(to: time)
        while !(videoReady && audioReady), let media = try reader.nextMedia(audioFormat: format) {
            switch media {
            case .picture(let picture):
                guard !videoReady else { continue }
                result.firstPicture = result.firstPicture ?? picture.pts
                decodedPictures.append(picture.pts)
                if let presented = trimmer.push(picture.pts, pts: picture.pts).first {
                    result.pictureOnScreen = presented.pts
                    videoReady = true
                }
            case .audio(let block):
                guard !audioReady else { continue }
                result.firstAudio = result.firstAudio ?? block.pts
                let before = (time - block.pts).ticks(timescale: rate, rounding: .up)
                result.audioFramesBefore += min(max(before, 0), Int64(block.frameCount))
                audioReady = block.end > time
            }
        }
        if hasVideo && result.pictureOnScreen == nil {
            result.pictureOnScreen = trimmer.finish().first?.pts
        }
        let elapsed = clock.now - start
        result.seconds = elapsed / .seconds(1)
        result.picturesBefore = decodedPictures.filter { $0 < result.pictureOnScreen ?? time }.count
        if let report = (reader as? SeekReporting)?.lastSeek {
            result.attempts = report.attempts
            result.decodingFrom = report.decodingFrom
        }
        return result
    }

    /// `key: value` lines, as the rest of `marquee bench` prints.
    static func lines(for result: Result, media: String, time: MediaTime) -> [String] {
        func seconds(_ value: MediaTime?) -> String { value.map { BenchCommand.decimal($0.seconds, digits: 3) } ?? "none" }
        let rate = AudioFormat.standard.sampleRate
        return [
            "media: \(media)",
            "seek to: \(seconds(time))",
            "key frame seeks: \(result.attempts)",
            "decoding from: \(seconds(result.decodingFrom))",
            "first picture: \(seconds(result.firstPicture))",
            "picture on screen: \(seconds(result.pictureOnScreen))",
            "pictures before it: \(result.picturesBefore)",
            "first audio: \(seconds(result.firstAudio))",
            "audio before it: \(result.audioFramesBefore) frames at \(rate) Hz "
                + "(\(BenchCommand.decimal(Double(result.audioFramesBefore) / Double(rate), digits: 3)) s)",
            "seek seconds: \(BenchCommand.decimal(result.seconds, digits: 4))",
        ]
    }
}
