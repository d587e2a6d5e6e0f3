import Testing
@testable import MarqueeCore

@Suite struct MediaTimeTests {
    @Test(arguments: [
        ("2.5", MediaTime(5, per: 2)),
        ("90", MediaTime(seconds: 90)),
        ("0", MediaTime.zero),
        (".5", MediaTime(1, per: 2)),
        ("3.", MediaTime(seconds: 3)),
        ("  3  ", MediaTime(seconds: 3)),
        ("0.000000001", MediaTime(1, per: 1_000_000_000)),
        ("999999999.999999999", MediaTime(999_999_999_999_999_999, per: 1_000_000_000)),
        ("999999:59:59.999999999", MediaTime(seconds: 999_999 * 3600 + 3599) + MediaTime(999_999_999, per: 1_000_000_000)),
        ("999999:59.5", MediaTime(seconds: 999_999 * 60 + 59) + MediaTime(1, per: 2)),
        ("0:30", MediaTime(seconds: 30)),
        ("1:05", MediaTime(seconds: 65)),
        ("90:00", MediaTime(seconds: 5400)),
        ("00:00:01.1", MediaTime(11, per: 10)),
        ("1:02:03.250", MediaTime(3723_250, per: 1000)),
        ("0:59.999", MediaTime(59_999, per: 1000)),
    ])
    func parsesSecondsAndClockTimesExactly(text: String, expected: MediaTime) throws {
        #expect(try MediaTime.parse(text).get() == expected)
    }

    @Test(arguments: [
        ("", "empty"),
        ("-1", "negative"),
        ("1:2", "two digits"),
        ("1:60", "below 60"),
        ("1:60:00", "minutes must be below 60"),
        ("abc", "expected seconds"),
        ("1.2.3", "expected seconds"),
        ("1:2:3:4", "too many"),
        ("1e3", "expected seconds"),
        ("2.5s", "expected seconds"),
        ("a:30", "whole number"),
        ("0:3a", "not a number"),
        ("0.0000000001", "expected seconds"),
        ("999999999999.999999999", "expected seconds"),
        ("1234567890", "expected seconds"),
        ("9999999:00:00", "whole number"),
        ("1000000:00", "whole number"),
    ])
    func rejectsMalformedTimesWithAReason(text: String, reasonFragment: String) {
        guard case .failure(let error) = MediaTime.parse(text) else {
            Issue.record("'\(text)' was accepted")
            return
        }
        #expect(error.description.contains(reasonFragment), "\(error)")
        #expect(error.description.contains("'\(text)'"))
    }

    /// Any text a config can hold must parse or be rejected, never trap (overflow was a real bug).
    @Test func randomTextNeverTrapsAndNeverParsesNegative() {
        var random = SeededRandom(seed: 2026)
        let alphabet = Array("0123456789999:. -e")
        for _ in 0..<20_000 {
            let length = random.nextIndex(below: 32)
            let text = String((0..<length).map { _ in alphabet[random.nextIndex(below: alphabet.count)] })
            if case .success(let time) = MediaTime.parse(text) {
                #expect(time >= .zero, "\(text)")
            }
        }
    }

    @Test func arithmeticIsExactAndReduced() {
        let sum = MediaTime(1, per: 3) + MediaTime(1, per: 6)
        #expect(sum.numerator == 1 && sum.denominator == 2)
        #expect(MediaTime(1001, per: 30000) * 30000 == MediaTime(seconds: 1001))
        #expect(MediaTime(3, per: 4) - MediaTime(seconds: 1) == MediaTime(-1, per: 4))
        #expect(MediaTime(-2, per: -4) == MediaTime(1, per: 2))
        #expect(MediaTime(1, per: 3) < MediaTime(34, per: 100))
        #expect(MediaTime(seconds: 5).clamped(to: .zero...MediaTime(seconds: 2)) == MediaTime(seconds: 2))
    }

    @Test(arguments: [
        (MediaTime(1, per: 3), Int64(90000), FloatingPointRoundingRule.down, Int64(30000)),
        (MediaTime(1001, per: 30000), 48000, .down, 1601),
        (MediaTime(1001, per: 30000), 48000, .up, 1602),
        (MediaTime(1001, per: 30000), 48000, .toNearestOrAwayFromZero, 1602),
        (MediaTime(-1, per: 3), 2, .down, -1),
        (MediaTime(-1, per: 3), 2, .towardZero, 0),
        (MediaTime(1, per: 4), 2, .toNearestOrEven, 0),
        (MediaTime(3, per: 4), 2, .toNearestOrEven, 2),
    ])
    func convertsToTicksWithTheAskedRounding(time: MediaTime, timescale: Int64, rule: FloatingPointRoundingRule, expected: Int64) {
        #expect(time.ticks(timescale: timescale, rounding: rule) == expected)
    }

    /// A trimmed item (start 2.5 s, end 0:30) looped 1000 times, advanced frame by frame at
    /// 30000/1001 fps and sample by sample in 1024-sample AAC packets at 44.1 kHz: the position
    /// must be exactly 1000 × the trimmed length; the same sums in Double are not.
    @Test func positionAfterAThousandLoopsOfATrimmedItemIsExact() throws {
        let start = try MediaTime.parse("2.5").get()
        let end = try MediaTime.parse("0:30").get()
        let frame = MediaTime(1001, per: 30000)
        let sampleRate: Int64 = 44100

        // Frames whose pts lies in [start, end): indexes 75 (2.5025 s) to 899 (29.9966 s).
        let framesPerLoop = Int64((0..<1000).filter { frame * Int64($0) >= start && frame * Int64($0) < end }.count)
        #expect(framesPerLoop == 825)
        let samplesPerLoop = (end - start).ticks(timescale: sampleRate)
        #expect(samplesPerLoop == 1_212_750)

        var videoPosition = MediaTime.zero
        var audioPosition = MediaTime.zero
        var videoDouble = 0.0
        for _ in 0..<1000 {
            for _ in 0..<framesPerLoop {
                videoPosition += frame
                videoDouble += 1001.0 / 30000.0
            }
            var remaining = samplesPerLoop
            while remaining > 0 {
                let packet = min(remaining, 1024)
                audioPosition += MediaTime(packet, per: sampleRate)
                remaining -= packet
            }
        }
        #expect(videoPosition == frame * (framesPerLoop * 1000))
        #expect(audioPosition == (end - start) * 1000)
        #expect(audioPosition == MediaTime(seconds: 27_500))
        #expect(videoDouble != videoPosition.seconds, "Double accumulation should drift; exact arithmetic is why MediaTime exists")
    }

    @Test(arguments: [
        (MediaTime.zero, "0:00.000"),
        (MediaTime(5, per: 2), "0:02.500"),
        (MediaTime(3723_250, per: 1000), "1:02:03.250"),
        (MediaTime(-83, per: 1), "-1:23.000"),
        (MediaTime(1, per: 3), "0:00.333"),
    ])
    func describesItselfAsAClock(time: MediaTime, expected: String) {
        #expect(time.description == expected)
    }
}
