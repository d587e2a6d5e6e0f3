import MarqueeLedger
import Testing

@Suite struct PlayReportTests {
    private let records = [
        play(0, start: "2026-11-29T10:59:50.000Z", end: "2026-11-29T11:00:00.000Z", seconds: 10, item: "a"),
        play(1, start: "2026-11-29T11:00:00.000Z", end: "2026-11-29T11:00:05.500Z", seconds: 5.5, ended: "userExited", item: "b"),
        play(0, start: "2026-11-29T11:00:05.500Z", end: "2026-11-29T11:00:15.500Z", seconds: 10, item: "a"),
        play(0, start: "2026-11-30T09:00:00.000Z", end: "2026-11-30T09:00:10.000Z", seconds: 10, item: "a"),
    ]

    @Test func byPlayIsOneRowPerRecordInStartOrder() {
        let rows = PlayReport(grouping: .play).rows(records.reversed())
        #expect(rows.map(\.from) == records.map(\.start))
        #expect(rows.map(\.completed) == [1, 0, 1, 1])
    }

    @Test func byHourSumsEachItemInTheHourOfItsStart() {
        let rows = PlayReport(grouping: .hour).rows(records)
        #expect(rows.map { "\($0.from) \($0.mediaId) \($0.count) \($0.duration)" } == [
            "2026-11-29T10:00:00.000Z a 1 10.0", "2026-11-29T11:00:00.000Z b 1 5.5",
            "2026-11-29T11:00:00.000Z a 1 10.0", "2026-11-30T09:00:00.000Z a 1 10.0",
        ])
    }

    @Test func byDaySumsAndTheSumsMatchTheRecords() {
        let rows = PlayReport(grouping: .day).rows(records)
        #expect(rows.map { "\($0.from) \($0.to) \($0.mediaId) \($0.count)" } == [
            "2026-11-29T00:00:00.000Z 2026-11-30T00:00:00.000Z a 2", "2026-11-29T00:00:00.000Z 2026-11-30T00:00:00.000Z b 1",
            "2026-11-30T00:00:00.000Z 2026-12-01T00:00:00.000Z a 1",
        ])
        #expect(rows.reduce(0) { $0 + $1.duration } == records.reduce(0) { $0 + $1.seconds })
        #expect(rows.reduce(0) { $0 + $1.count } == records.count)
    }

    @Test func fromAndToTakePlaysStartingInside() throws {
        let from = try #require(UTCTimestamp.milliseconds(parsing: "2026-11-29T11:00:00Z"))
        let to = try #require(UTCTimestamp.milliseconds(parsing: "2026-11-30"))
        #expect(PlayReport(grouping: .play, from: from, to: to).rows(records).map(\.mediaId) == ["b", "a"])
    }

    @Test func csvHasAHeaderAndQuotesWhatNeedsIt() {
        var titled = records[0]
        titled.title = "Menu, \"winter\""
        let csv = PlayReport.csv(PlayReport(grouping: .play).rows([titled]))
        #expect(csv == "type,from,to,display,screen,daypart,mediaId,title,duration,count,completed\r\n"
            + "media,2026-11-29T10:59:50.000Z,2026-11-29T11:00:00.000Z,lobby-1,main,,a,\"Menu, \"\"winter\"\"\",10,1,1\r\n")
    }
}
