import MarqueeLedger
import Testing

@Suite struct UTCTimestampTests {
    @Test func millisecondsRoundTrip() {
        for ms: Int64 in [0, 1, 999, 1_764_403_201_234, 951_782_400_000 /* 2000-02-29 */, -1] {
            #expect(UTCTimestamp.milliseconds(parsing: UTCTimestamp.text(milliseconds: ms)) == ms)
        }
        #expect(UTCTimestamp.text(milliseconds: 1_764_403_201_234) == "2025-11-29T08:00:01.234Z")
        #expect(UTCTimestamp.text(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
    }

    @Test func reportBoundsTakeADayOrATime() {
        #expect(UTCTimestamp.milliseconds(parsing: "2026-11-29") == UTCTimestamp.milliseconds(parsing: "2026-11-29T00:00:00.000Z"))
        #expect(UTCTimestamp.milliseconds(parsing: "2026-11-29T04:00:01Z") == UTCTimestamp.milliseconds(parsing: "2026-11-29T04:00:01.000Z"))
        for bad in ["", "2026-13-01", "2026-11-29T25:00:00Z", "2026-11-29T04:00", "yesterday", "2026-11-29T04:00:01.2Z"] {
            #expect(UTCTimestamp.milliseconds(parsing: bad) == nil, "\(bad)")
        }
    }
}
