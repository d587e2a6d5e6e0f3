import Foundation
import MarqueeCore
import MarqueeTestSupport
import Testing
@testable import marquee

/// `marquee ctl status` for people: rows that appear only when they say something.
@Suite struct StatusTableTests {
    @Test func aTimetableGivesADaypartRowWithTheNextChange() {
        var scheduled = StatusDocument.sample()
        scheduled.schedule = StatusDocument.Schedule(daypart: "lunch", nextChange: "2026-11-26T14:00:00Z")
        let text = StatusTable.text(scheduled)
        #expect(text.contains("daypart") && text.contains("lunch (next change 2026-11-26T14:00:00Z)"), "\(text)")
        var idle = StatusDocument.sample(state: .stopped)
        idle.schedule = StatusDocument.Schedule(daypart: nil, nextChange: nil)
        #expect(StatusTable.text(idle).contains("nothing scheduled"), "\(StatusTable.text(idle))")
        #expect(!StatusTable.text(.sample()).contains("daypart"))
    }
}
